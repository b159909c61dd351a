#!/usr/bin/env bash
# Python peers for the independent allowlist verifier (tests/interop/verify_allowlist.py),
# run by tests/allowlist/interop.rs. Idempotent: pip skips what is already installed.
# .ci/run sources this file, so everything runs in a subshell: no `set` option or
# variable leaks into the caller, and a failure is still its non-zero status.
(
    set -euo pipefail
    repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
    python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore \
        -r "$repo/tests/interop/requirements-verify.txt"
    # Fail here with a clear message rather than in the test later.
    python3 -c 'import cryptography, rfc8785' \
        || { echo "30-allowlist-peers: python deps did not install" >&2; exit 1; }
)
