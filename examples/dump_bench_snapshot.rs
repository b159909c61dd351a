//! Writes the benchmark's throughput snapshot (`benches/analysis.rs`) to a
//! JSON file, for profilers that run `analysis_phases` on it.
//!
//! ```sh
//! cargo run --release --example dump_bench_snapshot -- bench_snapshot.json
//! ```

use std::path::Path;

use gatehouse::analysis::collect;
use gatehouse::snapshot::{Snapshot, Tool};

fn fixture_tools(dir: &str) -> Vec<Tool> {
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

fn snapshot_of(tools: &[Tool], n: usize) -> Snapshot {
    let tools = (0..n)
        .map(|i| {
            let mut t = tools[i % tools.len()].clone();
            t.name = format!("{}_{i}", t.name);
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

const KEYWORDS: &[&str] = &[
    "type", "format", "$schema", "$ref", "$id", "pattern", "required",
];

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

fn text_bytes(snapshot: &Snapshot) -> u64 {
    collect::collect(snapshot)
        .fields()
        .iter()
        .map(|f| f.text.len() as u64)
        .sum()
}

fn main() {
    let out = std::env::args()
        .nth(1)
        .expect("usage: dump_bench_snapshot OUT.json");
    let honest = fixture_tools("honest");
    let mut mixed = honest.clone();
    mixed.extend(fixture_tools("attacks"));
    let mut n = mixed.len();
    let mut big = snapshot_of(&mixed, n);
    while text_bytes(&big) < 1 << 20 {
        n *= 2;
        big = snapshot_of(&mixed, n);
    }
    eprintln!(
        "{} tools, {} bytes of text",
        big.tools.len(),
        text_bytes(&big)
    );
    std::fs::write(out, serde_json::to_vec(&big).expect("json")).expect("write");
}
