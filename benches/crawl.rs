//! Crawl benchmark: a fixture with 5,000 tools served 50 a page (100 pages),
//! crawled on the modern path (MCP 2026-07-28: `server/discover`, per-request
//! `_meta`) and on the older `initialize` path, one beside the other (the rmcp
//! fixture serves both eras).
//!
//! Measures, over several runs, the wall time of `discovery::crawl` in this
//! process, and the peak RSS of the real `gatehouse scan` binary crawling the
//! same fixture (via `/usr/bin/time -f %M` when it exists, since this process's
//! own peak includes the fixture server). Targets on loopback: under 3 s and
//! under 100 MB. Figures and commands are recorded in `bench/CRAWL_FIGURES.md`.
//!
//! Run: `cargo bench --bench crawl` (add `--profile dev` for an unoptimised build).

#[path = "../tests/support/mcp_fixtures.rs"]
mod mcp_fixtures;

use std::time::{Duration, Instant};

use gatehouse::discovery::{CrawlOptions, EraChoice, NetPolicy, crawl};
use mcp_fixtures::{FixtureKind, peak_rss_bytes, spawn_fixture};

const TOOLS: usize = 5_000;
const PER_PAGE: usize = 50;
const RUNS: usize = 5;

#[tokio::main]
async fn main() {
    // `cargo bench` passes `--bench`; nothing else is accepted.
    let fixture = spawn_fixture(FixtureKind::ManyTools {
        total: TOOLS,
        per_page: PER_PAGE,
    })
    .await;
    for (name, era) in [("modern", EraChoice::Modern), ("legacy", EraChoice::Legacy)] {
        let options = CrawlOptions {
            network: NetPolicy::allow_all(),
            era,
            ..CrawlOptions::default()
        };
        println!("{name} path:");
        run(&fixture.url, &options).await;
    }

    match binary_peak_rss(&fixture.url, "modern").await {
        Some((wall, kib)) => println!(
            "  `gatehouse scan URL --era modern --format json` (separate process): wall {wall:.2} s, peak RSS {:.1} MB",
            kib as f64 * 1024.0 / 1e6
        ),
        None => println!("  (no /usr/bin/time: the binary's peak RSS was not measured)"),
    }
    if let Some((wall, kib)) = binary_peak_rss(&fixture.url, "legacy").await {
        println!(
            "  `gatehouse scan URL --era legacy --format json` (separate process): wall {wall:.2} s, peak RSS {:.1} MB",
            kib as f64 * 1024.0 / 1e6
        );
    }
}

/// Crawls `url` [`RUNS`] times with `options` and prints the wall times.
async fn run(url: &str, options: &CrawlOptions) {
    let mut times = Vec::with_capacity(RUNS);
    for _ in 0..RUNS {
        let started = Instant::now();
        let snapshot = crawl(url, options).await.expect("the crawl succeeds");
        times.push(started.elapsed());
        let info = snapshot.crawl.as_ref().unwrap();
        assert_eq!(snapshot.tools.len(), TOOLS);
        assert_eq!(info.pages["tools"], (TOOLS / PER_PAGE) as u32);
        assert!(info.errors.is_empty(), "{:?}", info.errors);
    }
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!("crawl of {TOOLS} tools, {PER_PAGE} a page, {RUNS} runs in process:");
    println!(
        "  wall time: min {:.0} ms, median {:.0} ms, max {:.0} ms",
        ms(times[0]),
        ms(times[RUNS / 2]),
        ms(times[RUNS - 1])
    );
    println!(
        "  peak RSS of this process so far (crawler + fixture server): {:.1} MB",
        peak_rss_bytes() as f64 / 1e6
    );
}

/// Wall seconds and peak RSS (KiB) of the scan binary, measured by GNU time.
async fn binary_peak_rss(url: &str, era: &str) -> Option<(f64, u64)> {
    if !std::path::Path::new("/usr/bin/time").exists() {
        return None;
    }
    let output = tokio::process::Command::new("/usr/bin/time")
        .args([
            "-f",
            "GATEHOUSE_BENCH %e %M",
            env!("CARGO_BIN_EXE_gatehouse"),
            "scan",
            url,
            "--era",
            era,
            "--format",
            "json",
        ])
        .env("GATEHOUSE_SCAN_ALLOW_PRIVATE", "1")
        .env("GATEHOUSE_DATA_DIR", std::env::temp_dir())
        .output()
        .await
        .ok()?;
    let stderr = String::from_utf8_lossy(&output.stderr);
    let line = stderr
        .lines()
        .find_map(|l| l.strip_prefix("GATEHOUSE_BENCH "))?;
    let mut parts = line.split_whitespace();
    Some((parts.next()?.parse().ok()?, parts.next()?.parse().ok()?))
}
