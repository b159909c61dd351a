#!/usr/bin/env bash
# Reference MCP peers for the discovery interop tests (tests/discovery_interop.rs):
#   - npm: @modelcontextprotocol/server-everything and @modelcontextprotocol/sdk
#     (the reference client used by tests/interop/list.mjs), pinned in
#     tests/interop/package.json + package-lock.json, installed into
#     tests/interop/node_modules;
#   - pip: the official Python SDK `mcp` (FastMCP) in tests/interop/.venv.
# Idempotent: a second run reuses what is there. Sourced by .ci/run (so the
# exports below reach the tests) and runnable on its own as root. Shell options
# are set only inside the install subshell, so sourcing leaves the caller's alone.

_gh_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
_gh_interop="$_gh_root/tests/interop"
_gh_mcp_version="1.30.0"

if ! (
set -euo pipefail
if [ ! -f "$_gh_interop/node_modules/@modelcontextprotocol/server-everything/dist/index.js" ]; then
  (cd "$_gh_interop" && npm ci --no-audit --no-fund)
fi

if ! "$_gh_interop/.venv/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('mcp') != '$_gh_mcp_version')" 2>/dev/null; then
  python3 -m venv "$_gh_interop/.venv"
  "$_gh_interop/.venv/bin/pip" install --quiet "mcp==$_gh_mcp_version"
fi
); then
  echo "20-mcp-peers.sh: installing the MCP interop peers failed" >&2
  return 1 2>/dev/null || exit 1
fi

# Where the tests find the peers; with GATEHOUSE_REQUIRE_PEERS=1 a missing peer fails them.
export GATEHOUSE_INTEROP_DIR="$_gh_interop"
export GATEHOUSE_INTEROP_NODE="$(command -v node)"
export GATEHOUSE_INTEROP_PYTHON="$_gh_interop/.venv/bin/python"
unset _gh_root _gh_interop _gh_mcp_version
