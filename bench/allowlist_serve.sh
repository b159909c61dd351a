#!/usr/bin/env bash
# GET /v1/allowlist with 64 connections, side by side with nginx serving the
# same bytes as a static file, and the 304 path (If-None-Match).
#
# Usage: bench/allowlist_serve.sh [DURATION_S] ; env BENCH_VERSIONS (default 1000)
# Needs: wrk and nginx (apt-get install wrk nginx-light). Loopback only, bounded.
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${1:-15}
count=${BENCH_VERSIONS:-1000}
port=18282; nginx_port=18283
cargo build --release --quiet --bin gatehouse --example seed_registry
work=$(mktemp -d); out=bench/out; mkdir -p "$out"
trap 'kill $(jobs -p) 2>/dev/null || true; nginx -s stop -c "$work/nginx.conf" 2>/dev/null || true; rm -rf "$work"' EXIT

# Seeded through review decisions, signed with the data directory's keys.
url="sqlite://$work/bench.db"
GATEHOUSE_DATA_DIR="$work/data" target/release/examples/seed_registry "$url" "$count"
GATEHOUSE_DATABASE_URL="$url" GATEHOUSE_DATA_DIR="$work/data" GATEHOUSE_LISTEN="127.0.0.1:$port" \
  GATEHOUSE_BOOTSTRAP_ADMIN_PASSWORD=bench-password-123 GATEHOUSE_LOG=warn GATEHOUSE_WORKERS=1 \
  target/release/gatehouse serve &
for _ in $(seq 1 50); do curl -sf "http://127.0.0.1:$port/readyz" >/dev/null && break; sleep 0.2; done
mkdir -p "$work/www"
curl -sf "http://127.0.0.1:$port/v1/allowlist" -o "$work/www/allowlist.json"
etag=$(curl -sfI "http://127.0.0.1:$port/v1/allowlist" | tr -d '\r' | awk -F': ' 'tolower($1)=="etag"{print $2}')
size=$(stat -c %s "$work/www/allowlist.json")
cat > "$work/nginx.conf" <<CONF
worker_processes 2;
pid $work/nginx.pid;
error_log $work/nginx.err;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  server { listen 127.0.0.1:$nginx_port; root $work/www; location / { default_type application/json; } }
}
CONF
# nginx's workers run as www-data: make the document readable to them.
chmod 755 "$work" "$work/www"; chmod 644 "$work/www/allowlist.json"
nginx -c "$work/nginx.conf"
cmp <(curl -sf "http://127.0.0.1:$nginx_port/allowlist.json") "$work/www/allowlist.json" || { echo "nginx does not serve the same bytes"; exit 1; }
echo "== document: $count approved versions, $size bytes, ETag $etag"
for name in gatehouse nginx; do
  p=$port; path=/v1/allowlist
  [ $name = nginx ] && { p=$nginx_port; path=/allowlist.json; }
  wrk -t2 -c64 -d2s "http://127.0.0.1:$p$path" >/dev/null
  echo "== $name: wrk -t2 -c64 -d${duration}s --latency $path"
  wrk -t2 -c64 -d"${duration}s" --latency "http://127.0.0.1:$p$path" | tee "$out/allowlist_$name.txt"
done
echo "== gatehouse 304: If-None-Match $etag"
wrk -t2 -c64 -d"${duration}s" --latency -H "If-None-Match: $etag" "http://127.0.0.1:$port/v1/allowlist" | tee "$out/allowlist_304.txt"
