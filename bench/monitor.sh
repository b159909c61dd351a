#!/usr/bin/env bash
# Monitor figures for BENCHMARKS.md ("Monitor", issue 14):
#  1. a full rescan pass of N approved fixture servers (10 tools each) by one
#     `gatehouse worker` process at the default concurrency (GATEHOUSE_WORKERS=4)
#     with the default bait-and-switch crawls: pass time, CPU time and peak RSS
#     of the worker process (GNU time);
#  2. S live watch streams held open by one `gatehouse worker`: its RSS with
#     GATEHOUSE_WATCH_STREAMS=0 and =S once the fixture counts S open streams,
#     and the difference per stream.
# The fixture servers run in a separate process (examples/monitor_bench.rs) on
# loopback; the database is SQLite (or PostgreSQL: DB=postgres://…/name, empty).
# Usage: bench/monitor.sh [N=1000] [S=200]      (release build)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-1000}
s=${2:-200}
port=${PORT:-18931}
work=$(mktemp -d)
db=${DB:-sqlite://$work/bench.db}
mkdir -p bench/out
cargo build --quiet --release --bin gatehouse --example monitor_bench
target=${CARGO_TARGET_DIR:-target}
bin=$target/release/gatehouse
ex=$target/release/examples/monitor_bench
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"

"$ex" fixture "$port" "$n" & fixture=$!
trap 'kill $fixture 2>/dev/null || true; rm -rf "$work"' EXIT
sleep 1
"$ex" seed "$db" "$work/data" "http://127.0.0.1:$port" "$n"

export GATEHOUSE_DATABASE_URL=$db GATEHOUSE_DATA_DIR=$work/data GATEHOUSE_SCAN_ALLOW_PRIVATE=1 GATEHOUSE_LOG=warn
# 1. The pass: live watching off, so the figures are the rescans'.
GATEHOUSE_WATCH_STREAMS=0 /usr/bin/time -v -o "$work/time.txt" "$bin" worker & timer=$!
sleep 0.5
"$ex" wait "$db" "$n" | tee bench/out/monitor-pass.txt
kill -TERM "$(pgrep -P $timer)"
wait $timer || true
grep -E "Elapsed|User time|System time|Percent of CPU|Maximum resident" "$work/time.txt" | tee -a bench/out/monitor-pass.txt

# 2. Watch streams: the worker's RSS without and with S streams.
rss() { awk '/VmRSS/ {print $2}' "/proc/$1/status"; }
GATEHOUSE_WATCH_STREAMS=0 "$bin" worker & w=$!
sleep 8
base=$(rss $w)
kill -TERM $w; wait $w || true
GATEHOUSE_WATCH_STREAMS=$s "$bin" worker & w=$!
for _ in $(seq 1 240); do
  open=$(curl -s "http://127.0.0.1:$port/stats" | sed -E 's/.*"streams":([0-9]+).*/\1/')
  [ "$open" -ge "$s" ] && break
  sleep 0.5
done
sleep 3
held=$(rss $w)
open=$(curl -s "http://127.0.0.1:$port/stats" | sed -E 's/.*"streams":([0-9]+).*/\1/')
kill -TERM $w; wait $w || true
echo "watch: $open streams open; worker RSS ${base} kB without streams, ${held} kB with them: $(( (held - base) / (open > 0 ? open : 1) )) kB per stream" | tee bench/out/monitor-watch.txt
