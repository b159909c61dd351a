#!/usr/bin/env bash
# Package sandbox figures (issue 15): for each real package, `gatehouse scan
# --package` cold (empty cache) and cached (second run), wall time of the
# whole command; then the peak resident memory of the sandboxed server alone,
# from GNU time around a bwrap started like the scanner starts it (same
# binds, limits and environment, from the cached install.json) answering
# initialize and tools/list on stdin.
#
# Usage: bench/packages.sh [GATEHOUSE_BINARY]   (default target/release/gatehouse)
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${1:-${CARGO_TARGET_DIR:-target}/release/gatehouse}"
data="$(mktemp -d)"
trap 'rm -rf "$data"' EXIT
packages=(
  "npm:@modelcontextprotocol/server-memory@2026.8.31"
  "npm:@modelcontextprotocol/server-filesystem@2026.8.31 --package-arg /tmp"
  "pypi:mcp-server-time==2026.10.19"
)
ms() { date +%s%3N; }
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
  peak=$( { (printf '%s\n' "$requests"; sleep 2) | /usr/bin/time -v "${cmd[@]}" >/dev/null; } 2>&1 | awk -F: '/Maximum resident/ {gsub(/ /, "", $2); print $2}')
  echo "$name: peak RSS of the sandboxed server $((peak / 1024)) MiB"
done
