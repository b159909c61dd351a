//! Writes the benchmark's throughput snapshot (`benches/analysis.rs`) to a
//! JSON file, for profilers that run `analysis_phases` on it.
//!
//! ```sh
//! cargo run --release --example dump_bench_snapshot -- bench_snapshot.json
//! ```

#[path = "../benches/support/snapshots.rs"]
mod snapshots;

use snapshots::{honest_and_mixed, text_bytes, throughput_snapshot};

fn main() {
    let out = std::env::args()
        .nth(1)
        .expect("usage: dump_bench_snapshot OUT.json");
    let (_, mixed) = honest_and_mixed();
    let big = throughput_snapshot(&mixed);
    eprintln!(
        "{} tools, {} bytes of text",
        big.tools.len(),
        text_bytes(&big)
    );
    std::fs::write(out, serde_json::to_vec(&big).expect("json")).expect("write");
}
