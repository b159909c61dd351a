#!/usr/bin/env bash
# Load test of the public read API (issue: GET /v0.1/servers?limit=100 with
# 10,000 approved versions, 64 connections), on SQLite and on PostgreSQL.
#
# Usage: bench/read_api.sh [sqlite|postgres|both] [DURATION_S]
# Needs: wrk (apt-get install wrk); PostgreSQL at 127.0.0.1:5432 for `postgres`.
# Bounded: each run lasts DURATION_S seconds against 127.0.0.1 only.
set -euo pipefail
cd "$(dirname "$0")/.."
which=${1:-both}
duration=${2:-20}
count=${BENCH_VERSIONS:-10000}
port=${BENCH_PORT:-18181}
cargo build --release --quiet --bin gatehouse --example seed_registry
out=bench/out; mkdir -p "$out"

run() {
  local backend=$1 url=$2 dir
  dir=$(mktemp -d)
  echo "== $backend: seeding $count approved versions"
  target/release/examples/seed_registry "$url" "$count" --direct
  GATEHOUSE_DATABASE_URL="$url" GATEHOUSE_DATA_DIR="$dir" GATEHOUSE_LISTEN="127.0.0.1:$port" \
    GATEHOUSE_BOOTSTRAP_ADMIN_PASSWORD=bench-password-123 GATEHOUSE_LOG=warn GATEHOUSE_WORKERS=1 \
    target/release/gatehouse serve & local pid=$!
  trap 'kill $pid 2>/dev/null || true' RETURN
  for _ in $(seq 1 50); do curl -sf "http://127.0.0.1:$port/readyz" >/dev/null && break; sleep 0.2; done
  curl -sf "http://127.0.0.1:$port/v0.1/servers?limit=100" | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["metadata"]["count"]==100, d["metadata"]'
  wrk -t2 -c64 -d2s "http://127.0.0.1:$port/v0.1/servers?limit=100" >/dev/null  # warm-up
  echo "== $backend: wrk -t2 -c64 -d${duration}s --latency /v0.1/servers?limit=100"
  wrk -t2 -c64 -d"${duration}s" --latency "http://127.0.0.1:$port/v0.1/servers?limit=100" | tee "$out/read_api_$backend.txt"
  kill $pid; wait $pid 2>/dev/null || true
  rm -rf "$dir"
}

if [ "$which" = sqlite ] || [ "$which" = both ]; then
  d=$(mktemp -d); run sqlite "sqlite://$d/bench.db"; rm -rf "$d"
fi
if [ "$which" = postgres ] || [ "$which" = both ]; then
  db="gh_bench_$(date +%s)"
  psql -h 127.0.0.1 -U postgres -d test -qc "CREATE DATABASE $db"
  run postgres "postgres://postgres@127.0.0.1:5432/$db"
  psql -h 127.0.0.1 -U postgres -d test -qc "DROP DATABASE $db WITH (FORCE)"
fi
