#!/usr/bin/env bash
# Gateway figures for BENCHMARKS.md ("Gateway"): the latency a tools/call
# gains through `gatehouse gateway` (64 concurrent clients, p50/p99, direct
# and through the gateway, alternated twice) and tools/list over 20 upstreams
# with 1,000 tools. Everything on loopback, in one process
# (examples/gateway_bench.rs). Usage: bench/gateway.sh [CALLS_PER_CLIENT] [LIST_ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
calls=${1:-50}
rounds=${2:-200}
mkdir -p bench/out
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
cargo run --quiet --profile dev --example gateway_bench -- calls "$calls" | tee bench/out/gateway-calls.txt
cargo run --quiet --profile dev --example gateway_bench -- list "$rounds" | tee bench/out/gateway-list.txt
