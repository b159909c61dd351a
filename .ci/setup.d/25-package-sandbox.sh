#!/usr/bin/env bash
# The package sandbox (src/packages, tests/packages): Debian's bubblewrap, and
# npm, node and python3 with pip, which install and run the real packages the
# tests fetch from the npm registry and PyPI. Idempotent: installs only what is
# missing. Sourced by .ci/run, so it must not `exit`; it fails (returns 1) when
# bubblewrap cannot make a sandbox here, since every package scan would fail.
_gh_missing=""
command -v bwrap >/dev/null 2>&1 || _gh_missing="$_gh_missing bubblewrap"
command -v npm >/dev/null 2>&1 || _gh_missing="$_gh_missing npm"
# The Python packages are installed for and run with (src/packages: /usr/bin/python3 when present).
_gh_python="${GATEHOUSE_PACKAGE_PYTHON:-/usr/bin/python3}"
[ -x "$_gh_python" ] || _gh_python=python3
"$_gh_python" -m pip --version >/dev/null 2>&1 || _gh_missing="$_gh_missing python3-pip"
if [ -n "$_gh_missing" ] && command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  # shellcheck disable=SC2086
  apt-get install -y -qq --no-install-recommends $_gh_missing >/dev/null 2>&1 \
    || { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq --no-install-recommends $_gh_missing >/dev/null 2>&1; } \
    || true
fi
unset _gh_missing _gh_python

if ! bwrap --unshare-all --ro-bind / / -- /usr/bin/true 2>/dev/null; then
  echo "25-package-sandbox.sh: bubblewrap is missing or cannot make a sandbox (user namespaces disabled?)" >&2
  return 1 2>/dev/null || exit 1
fi
GATEHOUSE_BWRAP="$(command -v bwrap)"
export GATEHOUSE_BWRAP
echo "bubblewrap: $GATEHOUSE_BWRAP ($(bwrap --version))"
