//! Time of each phase of the capability analysis on one snapshot: where the
//! milliseconds of `analysis::analyze` go, for profiling work that the
//! criterion benchmark (`benches/analysis.rs`) only sums up.
//!
//! ```sh
//! cargo run --release --example analysis_phases -- SNAPSHOT.json
//! ONLY=phrases N=200 perf record -g target/release/examples/analysis_phases SNAPSHOT.json
//! ```
//!
//! `N` sets the repetitions per phase (default 20), `ONLY` runs one phase
//! (for a profiler). Figures are per repetition; MB/s is of capability text
//! (every collected string), as in the benchmark.

use std::time::Instant;

use gatehouse::analysis::collect::FieldKind;
use gatehouse::analysis::normalize::Prepared;
use gatehouse::analysis::phrases::Matches;
use gatehouse::analysis::rules::{self, Names, Sink, text::Subject};
use gatehouse::analysis::{self, Context, RulesConfig, collect};
use gatehouse::snapshot::Snapshot;

/// A rule over the whole snapshot.
type WholeRule = fn(&mut Sink<'_>, &Snapshot);

fn main() -> anyhow::Result<()> {
    let path = std::env::args()
        .nth(1)
        .ok_or_else(|| anyhow::anyhow!("usage: analysis_phases SNAPSHOT.json"))?;
    let snap: Snapshot = serde_json::from_slice(&std::fs::read(path)?)?;
    let ctx = Context::default();
    let cfg = RulesConfig::default();
    let collected = collect::collect(&snap);
    let fields = collected.fields();
    let bytes: usize = fields.iter().map(|f| f.text.len()).sum();
    let reps: u32 = std::env::var("N").map_or(Ok(20), |n| n.parse())?;
    let only = std::env::var("ONLY").ok();
    let time = |name: &str, f: &mut dyn FnMut()| {
        if only.as_deref().is_some_and(|o| o != name) {
            return;
        }
        f();
        let start = Instant::now();
        for _ in 0..reps {
            f();
        }
        let each = start.elapsed() / reps;
        println!(
            "{name:<14} {:>8.2} ms  ({:.1} MB/s)",
            each.as_secs_f64() * 1e3,
            bytes as f64 / each.as_secs_f64() / 1e6
        );
    };
    let names = Names::of(&snap, &[], collect::collect(&snap).take_schema_words());

    time("total", &mut || {
        std::hint::black_box(analysis::analyze(&snap, &ctx, &cfg));
    });
    time("collect", &mut || {
        let mut c = collect::collect(&snap);
        std::hint::black_box(Names::of(&snap, &[], c.take_schema_words()));
        std::hint::black_box(c.fields());
    });
    time("prepare", &mut || {
        for f in &fields {
            let p = Prepared::new(f.text);
            std::hint::black_box(p.hidden());
        }
    });
    time("phrases", &mut || {
        for f in fields.iter().filter(|f| f.kind == FieldKind::Prose) {
            let p = Prepared::new(f.text);
            std::hint::black_box(Matches::find_primary(&p.plain));
        }
    });
    time("text+hidden", &mut || {
        let mut sink = Sink::new(&cfg);
        for f in &fields {
            let p = Prepared::new(f.text);
            let h = p.hidden();
            rules::hidden::check(&mut sink, f, &p, &h);
            if f.kind == FieldKind::Prose {
                let subject = Subject {
                    field: f,
                    text: &p,
                    hidden: None,
                    role: rules::directives::role_of(f),
                    listed: None,
                };
                rules::text::check(&mut sink, &names, &subject);
            }
        }
        std::hint::black_box(sink.into_findings());
    });
    let whole: [(&str, WholeRule); 4] = [
        ("duplicates", rules::names::duplicates),
        ("quality", rules::names::quality),
        ("schema", rules::schema::check),
        ("annotations", rules::annotations::check),
    ];
    for (name, rule) in whole {
        time(name, &mut || {
            let mut sink = Sink::new(&cfg);
            rule(&mut sink, &snap);
        });
    }
    time("impersonation", &mut || {
        let mut sink = Sink::new(&cfg);
        rules::names::impersonation(&mut sink, &snap, &ctx);
    });
    time("bloat", &mut || {
        let mut sink = Sink::new(&cfg);
        let tokens = fields.iter().map(rules::bloat::field_tokens).sum();
        rules::bloat::check(&mut sink, &snap, tokens);
    });
    let report = analysis::analyze(&snap, &ctx, &cfg);
    println!(
        "{bytes} bytes of text in {} fields; {} findings",
        fields.len(),
        report.findings.len()
    );
    Ok(())
}
