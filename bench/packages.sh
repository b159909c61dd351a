#!/usr/bin/env bash
# Package sandbox figures (issue 15): for each real package, `gatehouse scan
# --package` cold (empty cache) and cached (second run), wall time of the
# whole command; then the peak resident memory of the sandboxed server alone
# (VmHWM from /proc), started by bwrap like the scanner starts it (same binds
# and environment, from the cached install.json) answering initialize and
# tools/list on stdin.
#
# Usage: bench/packages.sh [GATEHOUSE_BINARY]   (default target/release/gatehouse)
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${1:-${CARGO_TARGET_DIR:-target}/release/gatehouse}"
data="$(mktemp -d)"
chmod 755 "$data"   # the sandbox user resolves the install path itself
trap 'rm -rf "$data"' EXIT
packages=(
  "npm:@modelcontextprotocol/server-memory@2026.8.31"
  "npm:@modelcontextprotocol/server-filesystem@2026.8.31 --package-arg /tmp"
  "pypi:mcp-server-time==2026.10.19"
)
ms() { date +%s%3N; }
# Cold means cold: no npm or pip download cache either.
export npm_config_cache="$data/npm-cache" PIP_NO_CACHE_DIR=1
for entry in "${packages[@]}"; do
  read -r spec extra <<<"$entry"
  for run in cold cached; do
    start=$(ms)
    # shellcheck disable=SC2086
    GATEHOUSE_DATA_DIR="$data" "$bin" scan --package "$spec" $extra --format json >"$data/report.json" 2>/dev/null || true
    end=$(ms)
    python3 - "$data/report.json" "$spec" "$run" "$((end - start))" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
if "snapshot" not in report:
    sys.exit(f"{sys.argv[2]}: no snapshot: {report.get('findings')}")
crawl = (report.get("snapshot") or {}).get("crawl") or {}
p = crawl.get("package") or {}
print(f"{sys.argv[2]:<58} {sys.argv[3]:<6} total {sys.argv[4]:>6} ms  install {p.get('installMs')} ms  crawl {p.get('crawlMs')} ms  tools {len(report['snapshot']['tools'])}  deps {p.get('dependencies')}")
PY
  done
done

# Peak RSS of each sandboxed server: replay the crawl's opening on stdin.
requests='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/list"}'
for install in "$data"/packages/*/*/install.json; do
  dir="$(dirname "$install")"
  mapfile -t cmd < <(python3 - "$install" "$dir" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); d = sys.argv[2]
args = ["bwrap", "--unshare-all", "--die-with-parent", "--new-session", "--ro-bind", "/usr", "/usr",
        "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64", "--symlink", "usr/bin", "/bin",
        "--ro-bind-try", "/etc/localtime", "/etc/localtime", "--proc", "/proc", "--dev", "/dev",
        "--tmpfs", "/tmp", "--tmpfs", "/home/sandbox"]
for b in r["runtime_binds"]:
    args += ["--ro-bind", b, b]
args += ["--ro-bind", d, "/pkg", "--clearenv", "--setenv", "PATH", "/usr/bin:/bin", "--setenv", "HOME", "/home/sandbox"]
for k, v in r["environment"]:
    args += ["--setenv", k, v]
args += ["--chdir", "/pkg", "--", r["program"], *r["arguments"]]
if "filesystem" in json.dumps(r["facts"]):
    args.append("/tmp")
print("\n".join(args))
PY
)
  name="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["facts"]["identifier"])' "$install")"
  # The server answers, then its high-water mark (VmHWM) is read from /proc
  # while it still runs (the PID namespace's teardown reaps it unseen by rusage).
  (printf '%s\n' "$requests"; sleep 4) | "${cmd[@]}" >/dev/null 2>&1 &
  top=$!
  sleep 3
  peak=0
  todo=("$top")
  while [ ${#todo[@]} -gt 0 ]; do
    pid=${todo[0]}; todo=("${todo[@]:1}")
    kb=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo 0)
    [ "${kb:-0}" -gt "$peak" ] && peak=$kb
    mapfile -t kids < <(pgrep -P "$pid" || true)
    todo+=("${kids[@]}")
  done
  wait "$top" || true
  echo "$name: peak RSS of the sandboxed server $((peak / 1024)) MiB (VmHWM, largest process)"
done
