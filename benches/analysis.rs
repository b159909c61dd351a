//! Analysis throughput and per-snapshot time (criterion).
//!
//! - `analysis/throughput`: a snapshot made of the honest and attack
//!   fixtures, repeated to about 1 MiB of capability text; criterion reports
//!   bytes of text per second.
//! - `analysis/snapshot_160_tools`: one typical large server, 160 tools
//!   cycled from the honest fixtures with distinct names.
//!
//! Run: `cargo bench --bench analysis`. Figures go to `bench/ANALYSIS_FIGURES.md`.

use std::path::Path;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gatehouse::analysis::{self, Context, RulesConfig, collect};
use gatehouse::snapshot::{Snapshot, Tool};

/// Every tool of every fixture under `tests/fixtures/analysis/<dir>`.
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

/// A snapshot of `n` tools cycled from `tools`, each renamed to stay distinct.
fn snapshot_of(tools: &[Tool], n: usize) -> Snapshot {
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
fn text_bytes(snapshot: &Snapshot) -> u64 {
    collect::collect(snapshot)
        .fields()
        .iter()
        .map(|f| f.text.len() as u64)
        .sum()
}

fn benches(c: &mut Criterion) {
    let honest = fixture_tools("honest");
    let mut mixed = honest.clone();
    mixed.extend(fixture_tools("attacks"));
    let ctx = Context::default();
    let rules = RulesConfig::default();

    // Grow the mixed snapshot until it carries about 1 MiB of text.
    let mut n = mixed.len();
    let mut big = snapshot_of(&mixed, n);
    while text_bytes(&big) < 1 << 20 {
        n *= 2;
        big = snapshot_of(&mixed, n);
    }
    let mut group = c.benchmark_group("analysis");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(text_bytes(&big)));
    group.bench_function("throughput", |b| {
        b.iter(|| analysis::analyze(&big, &ctx, &rules))
    });

    let typical = snapshot_of(&honest, 160);
    group.throughput(Throughput::Elements(1));
    group.sample_size(30);
    group.bench_function("snapshot_160_tools", |b| {
        b.iter(|| analysis::analyze(&typical, &ctx, &rules))
    });
    group.finish();
}

criterion_group!(analysis_benches, benches);
criterion_main!(analysis_benches);
