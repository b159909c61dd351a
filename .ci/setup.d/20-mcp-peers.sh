#!/usr/bin/env bash
# Reference MCP peers for the discovery interop tests (tests/discovery/interop.rs):
#   - npm: @modelcontextprotocol/server-everything and @modelcontextprotocol/sdk
#     (the reference client used by tests/interop/list.mjs), pinned in
#     tests/interop/package.json + package-lock.json, installed into
#     tests/interop/node_modules;
#   - pip: the official Python SDK `mcp` (FastMCP), in tests/interop/.venv, or
#     for the system python3 when no virtual environment can be made.
# Idempotent: a second run reuses what is there. Sourced by .ci/run (so the
# exports below reach the tests) and runnable on its own as root. Shell options
# are set only inside the install subshells, so sourcing leaves the caller's alone.

_gh_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
_gh_interop="$_gh_root/tests/interop"
_gh_mcp="mcp==1.30.0"

# True when $1 (a python) imports the pinned mcp.
_gh_has_mcp() {
  "$1" -c "import importlib.metadata as m, sys; sys.exit(m.version('mcp') != '${_gh_mcp#mcp==}')" 2>/dev/null
}

if ! (
  set -euo pipefail
  if [ ! -f "$_gh_interop/node_modules/@modelcontextprotocol/server-everything/dist/index.js" ]; then
    cd "$_gh_interop" && npm ci --no-audit --no-fund
  fi
); then
  echo "20-mcp-peers.sh: npm ci in tests/interop failed" >&2
  return 1 2>/dev/null || exit 1
fi

_gh_python="$_gh_interop/.venv/bin/python"
if ! _gh_has_mcp "$_gh_python"; then
  # Debian's python3 needs python3-venv for `-m venv`; install it when missing.
  if ! python3 -m venv "$_gh_interop/.venv" 2>/dev/null; then
    rm -rf "$_gh_interop/.venv"
    if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
      apt-get install -y -qq python3-venv >/dev/null 2>&1 \
        || { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq python3-venv >/dev/null 2>&1; } || true
    fi
    python3 -m venv "$_gh_interop/.venv" 2>/dev/null || rm -rf "$_gh_interop/.venv"
  fi
  if [ -x "$_gh_python" ]; then
    "$_gh_python" -m pip install --quiet "$_gh_mcp" || echo "20-mcp-peers.sh: pip install $_gh_mcp failed" >&2
  else
    # No virtual environment possible: install for the system python3 instead.
    _gh_python="$(command -v python3)"
    python3 -m pip install --quiet "$_gh_mcp" 2>/dev/null \
      || python3 -m pip install --quiet --break-system-packages "$_gh_mcp" \
      || echo "20-mcp-peers.sh: pip install $_gh_mcp failed" >&2
  fi
fi
if ! _gh_has_mcp "$_gh_python"; then
  echo "20-mcp-peers.sh: $_gh_mcp is not importable by $_gh_python" >&2
  return 1 2>/dev/null || exit 1
fi

# Where the tests find the peers; with GATEHOUSE_REQUIRE_PEERS=1 a missing peer fails them.
export GATEHOUSE_INTEROP_DIR="$_gh_interop"
export GATEHOUSE_INTEROP_NODE="$(command -v node)"
export GATEHOUSE_INTEROP_PYTHON="$_gh_python"
unset _gh_root _gh_interop _gh_mcp _gh_python
unset -f _gh_has_mcp
