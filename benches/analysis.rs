//! Analysis throughput and per-snapshot time (criterion).
//!
//! - `analysis/throughput`: a snapshot made of the honest and attack
//!   fixtures, repeated to about 1 MiB of capability text; criterion reports
//!   bytes of text per second.
//! - `analysis/snapshot_160_tools`: one typical large server, 160 tools
//!   cycled from the honest fixtures with distinct names.
//!
//! Run: `cargo bench --bench analysis`. Figures go to `bench/ANALYSIS_FIGURES.md`.

#[path = "support/snapshots.rs"]
mod snapshots;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gatehouse::analysis::{self, Context, RulesConfig};
use snapshots::{honest_and_mixed, snapshot_of, text_bytes, throughput_snapshot};

fn benches(c: &mut Criterion) {
    let (honest, mixed) = honest_and_mixed();
    let ctx = Context::default();
    let rules = RulesConfig::default();

    // The mixed snapshot, grown until it carries about 1 MiB of text.
    let big = throughput_snapshot(&mixed);
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
