//! The snapshots the analysis benchmark measures (`benches/analysis.rs`),
//! shared with `examples/dump_bench_snapshot.rs`, which writes the
//! throughput snapshot to JSON for profilers.

use std::path::Path;

use gatehouse::analysis::collect;
use gatehouse::snapshot::{Snapshot, Tool};

/// Every tool of every fixture under `tests/fixtures/analysis/<dir>`.
pub fn fixture_tools(dir: &str) -> Vec<Tool> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/analysis")
        .join(dir);
    let mut paths: Vec<_> = std::fs::read_dir(root)
        .expect("fixtures exist")
        .map(|e| e.expect("entry").path())
        .filter(|p| {
            p.extension().is_some_and(|x| x == "json")
                && p.file_name().is_some_and(|n| n != "labels.json")
        })
        .collect();
    paths.sort();
    paths
        .iter()
        .flat_map(|p| {
            let snap: Snapshot =
                serde_json::from_slice(&std::fs::read(p).expect("readable")).expect("snapshot");
            snap.tools
        })
        .collect()
}

/// A snapshot of `n` tools cycled from `tools`, each renamed to stay distinct.
pub fn snapshot_of(tools: &[Tool], n: usize) -> Snapshot {
    let tools = (0..n)
        .map(|i| {
            let mut t = tools[i % tools.len()].clone();
            t.name = format!("{}_{i}", t.name);
            // Make every string distinct, so that the analysis cannot skip
            // repeats and the figure is per byte of new text.
            t.description = t.description.map(|d| format!("{d} (v{i})"));
            for schema in [&mut t.input_schema, &mut t.output_schema]
                .into_iter()
                .flatten()
            {
                make_distinct(schema, i);
            }
            t
        })
        .collect();
    Snapshot {
        tools,
        ..Snapshot::default()
    }
}

/// Schema keywords whose values are vocabulary, not text: a server repeats
/// them in every tool (`"type": "object"`), and changing them would turn
/// every schema invalid and measure the error path instead.
const KEYWORDS: &[&str] = &[
    "type", "format", "$schema", "$ref", "$id", "pattern", "required",
];

/// Appends ` (v{i})` to every text string inside a JSON value (descriptions,
/// titles, defaults, enum values, examples), leaving schema keywords alone.
fn make_distinct(v: &mut serde_json::Value, i: usize) {
    match v {
        serde_json::Value::String(s) => s.push_str(&format!(" (v{i})")),
        serde_json::Value::Array(items) => items.iter_mut().for_each(|x| make_distinct(x, i)),
        serde_json::Value::Object(map) => map
            .iter_mut()
            .filter(|(k, _)| !KEYWORDS.contains(&k.as_str()))
            .for_each(|(_, x)| make_distinct(x, i)),
        _ => {}
    }
}

/// Bytes of capability text (every collected string) in a snapshot.
pub fn text_bytes(snapshot: &Snapshot) -> u64 {
    collect::collect(snapshot)
        .fields()
        .iter()
        .map(|f| f.text.len() as u64)
        .sum()
}

/// The throughput snapshot: `tools` cycled, doubling, until it carries
/// about 1 MiB of capability text.
pub fn throughput_snapshot(tools: &[Tool]) -> Snapshot {
    let mut n = tools.len();
    let mut big = snapshot_of(tools, n);
    while text_bytes(&big) < 1 << 20 {
        n *= 2;
        big = snapshot_of(tools, n);
    }
    big
}

/// The honest fixtures' tools, and those followed by the attack fixtures'.
pub fn honest_and_mixed() -> (Vec<Tool>, Vec<Tool>) {
    let honest = fixture_tools("honest");
    let mut mixed = honest.clone();
    mixed.extend(fixture_tools("attacks"));
    (honest, mixed)
}
