#!/usr/bin/env bash
# The modern-era interop peer for tests/discovery/interop.rs: the official
# Python SDK 2.x (`mcp` 2.3.0, whose `MCPServer` speaks MCP 2026-07-28), in its
# own virtual environment tests/interop/.venv-modern, apart from the 1.x SDK of
# 20-mcp-peers.sh. Idempotent; sourced by .ci/run (the export reaches the tests)
# and runnable on its own. Shell options are set only inside the subshell.

_gh_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
_gh_venv="$_gh_root/tests/interop/.venv-modern"
_gh_mcp="mcp==2.3.0"

_gh_has_modern() {
  "$1" -c "import importlib.metadata as m, sys; from mcp.server.mcpserver import MCPServer; sys.exit(m.version('mcp') != '${_gh_mcp#mcp==}')" 2>/dev/null
}

if ! _gh_has_modern "$_gh_venv/bin/python"; then
  if ! (
    set -euo pipefail
    rm -rf "$_gh_venv"
    if ! python3 -m venv "$_gh_venv" 2>/dev/null; then
      rm -rf "$_gh_venv"
      if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
        apt-get install -y -qq python3-venv >/dev/null 2>&1 \
          || { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq python3-venv >/dev/null 2>&1; }
      fi
      python3 -m venv "$_gh_venv"
    fi
    "$_gh_venv/bin/python" -m pip install --quiet "$_gh_mcp"
  ); then
    echo "21-mcp-modern-peers.sh: installing $_gh_mcp into $_gh_venv failed" >&2
    return 1 2>/dev/null || exit 1
  fi
fi
if ! _gh_has_modern "$_gh_venv/bin/python"; then
  echo "21-mcp-modern-peers.sh: $_gh_mcp is not importable by $_gh_venv/bin/python" >&2
  return 1 2>/dev/null || exit 1
fi

export GATEHOUSE_INTEROP_MODERN_PYTHON="$_gh_venv/bin/python"
unset _gh_root _gh_venv _gh_mcp
unset -f _gh_has_modern
