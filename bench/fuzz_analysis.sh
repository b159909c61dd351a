#!/usr/bin/env bash
# Runs the analysis property targets (tests/analysis_fuzz.rs) again and again
# with fresh random seeds for SECONDS seconds (default 600), release build.
# Usage: bench/fuzz_analysis.sh [SECONDS] [CASES_PER_RUN]
set -euo pipefail
cd "$(dirname "$0")/.."
limit=${1:-600}
cases=${2:-20000}
cargo test --release --test analysis_fuzz --no-run >/dev/null 2>&1
bin=$(cargo test --release --test analysis_fuzz --no-run --message-format=json 2>/dev/null \
  | python3 -c 'import json,sys; [print(m["executable"]) for m in map(json.loads, sys.stdin) if m.get("executable") and m["target"]["name"] == "analysis_fuzz"]' | tail -1)
start=$(date +%s); runs=0; total=0
while [ $(( $(date +%s) - start )) -lt "$limit" ]; do
  PROPTEST_CASES=$cases "$bin" --quiet >/tmp/fuzz-run.log 2>&1 || { cat /tmp/fuzz-run.log; echo "FAILED after $runs runs"; exit 1; }
  runs=$((runs + 1)); total=$((total + cases * 4))
done
echo "no failure: $runs runs, $total generated inputs over 4 targets, $(( $(date +%s) - start )) s"
