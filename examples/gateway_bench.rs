//! Load figures for `gatehouse gateway` (BENCHMARKS.md, "Gateway"), run by
//! `bench/gateway.sh`:
//!
//! - `calls`: the latency a `tools/call` gains by going through the gateway.
//!   64 concurrent clients, each with its own conversation (the discovery
//!   client, `discovery::Session`, on both sides so the client's own cost is
//!   the same), call one tool of an rmcp upstream directly, then through the
//!   gateway in front of it; p50 and p99 of each, and their difference.
//! - `list`: `tools/list` over 20 upstreams with 1,000 tools in all (50 each):
//!   the gateway's start (allowlist verified, 20 crawls), a full refresh of the
//!   20 upstreams, and a complete paginated listing (10 pages of 100).
//!
//! Everything runs in this process on loopback: the upstreams (rmcp), a
//! stand-in registry serving an allowlist signed with a fresh key store, and
//! the gateway. Usage: `cargo run --profile dev --example gateway_bench -- calls|list [N]`.

#[path = "../tests/support/gateway_upstream.rs"]
mod gateway_upstream;

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use chrono::Utc;
use gatehouse::allowlist::{ApprovedServer, KeySources, KeyStore, Risk, build_payload};
use gatehouse::discovery::{CrawlOptions, NetPolicy, Session};
use gatehouse::gateway::{Gateway, GatewayOptions};
use gateway_upstream::{Served, Upstream, spawn_upstream, tool};
use serde_json::{Value, json};

const CLIENTS: usize = 64;

fn options() -> CrawlOptions {
    CrawlOptions {
        network: NetPolicy::from_config(Some("1")).unwrap(),
        ..CrawlOptions::default()
    }
}

/// Signs an allowlist approving every tool of `upstreams` and serves it; returns the gateway.
async fn gateway_for(
    upstreams: &[(&str, &Upstream, Vec<Value>)],
) -> (Arc<Gateway>, String, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let store =
        KeyStore::open_with(&dir.path().join("keys"), KeySources::default(), Utc::now()).unwrap();
    let servers: Vec<ApprovedServer> = upstreams
        .iter()
        .map(|(name, upstream, tools)| ApprovedServer {
            name: name.to_string(),
            version: "1.0.0".into(),
            approved_at: Utc::now(),
            server_json: json!({"name": name, "version": "1.0.0",
                "remotes": [{"type": "streamable-http", "url": upstream.url}]}),
            tools: tools
                .iter()
                .map(|t| serde_json::from_value(t.clone()).unwrap())
                .collect(),
            prompts: vec![],
            resources: vec![],
            instructions: None,
            risk: Risk::default(),
        })
        .collect();
    let payload = build_payload(
        "http://bench",
        "default",
        1,
        Utc::now(),
        Utc::now() + chrono::Duration::days(1),
        &servers,
        &[],
    );
    let document = store.sign_allowlist(&payload).to_bytes();
    let root = store.root_document(1).unwrap().unwrap();
    let document = Arc::new(Mutex::new(document));
    let app = axum::Router::new()
        .route(
            "/v1/allowlist",
            axum::routing::get(move || {
                let document = document.clone();
                async move { document.lock().unwrap().clone() }
            }),
        )
        .route(
            "/v1/root/{n}",
            axum::routing::get(|| async { axum::http::StatusCode::NOT_FOUND }),
        );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let registry = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    let gateway = Gateway::start(GatewayOptions {
        registry,
        pinned_root: root,
        audience: "default".into(),
        tokens: None,
        state: None,
        recheck: Duration::from_secs(3600),
        allowlist_refresh: Duration::from_secs(3600),
        report_token: None,
        crawl: options(),
        debounce: Duration::from_millis(250),
        packages: None,
    })
    .await
    .unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let served = gateway.clone();
    tokio::spawn(async move {
        let _ = gatehouse::gateway::http::serve(served, listener, std::future::pending()).await;
    });
    (gateway, url, dir)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[index]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// `CLIENTS` clients, each calling `search` `calls` times on `url`; every latency.
async fn load(url: &str, calls: usize) -> (Vec<Duration>, Duration) {
    let started = Instant::now();
    let mut tasks = Vec::new();
    for client in 0..CLIENTS {
        let url = url.to_string();
        tasks.push(tokio::spawn(async move {
            let mut session = Session::open(&url, &options())
                .await
                .expect("a conversation opens");
            let mut latencies = Vec::with_capacity(calls);
            for i in 0..calls + 3 {
                let params =
                    json!({"name": "search", "arguments": {"query": format!("c{client}-{i}")}});
                let at = Instant::now();
                session
                    .request("tools/call", Some(params))
                    .await
                    .expect("the call answers");
                // The first calls warm the connection up; they are not counted.
                if i >= 3 {
                    latencies.push(at.elapsed());
                }
            }
            session.close().await;
            latencies
        }));
    }
    let mut all = Vec::new();
    for task in tasks {
        all.extend(task.await.unwrap());
    }
    all.sort();
    (all, started.elapsed())
}

async fn calls(per_client: usize) {
    let upstream = spawn_upstream(
        "bench",
        Served {
            tools: vec![tool("search", "Search the bench index.")],
            ..Served::default()
        },
    )
    .await;
    let tools = vec![tool("search", "Search the bench index.")];
    let (_gateway, url, _dir) = gateway_for(&[("com.example/bench", &upstream, tools)]).await;
    for (label, target) in [
        ("direct", upstream.url.clone()),
        ("gateway", url.clone()),
        ("direct", upstream.url.clone()),
        ("gateway", url),
    ] {
        let (latencies, wall) = load(&target, per_client).await;
        println!(
            "{label:8} {} calls by {CLIENTS} clients in {:.2} s: {:.0} calls/s, p50 {:.2} ms, p99 {:.2} ms",
            latencies.len(),
            wall.as_secs_f64(),
            latencies.len() as f64 / wall.as_secs_f64(),
            ms(percentile(&latencies, 0.50)),
            ms(percentile(&latencies, 0.99)),
        );
    }
}

async fn list(rounds: usize) {
    let mut upstreams = Vec::new();
    for u in 0..20 {
        let tools: Vec<Value> = (0..50)
            .map(|t| {
                tool(
                    &format!("u{u:02}_tool_{t:02}"),
                    &format!("Tool {t} of upstream {u}, which looks things up."),
                )
            })
            .collect();
        let upstream = spawn_upstream(
            &format!("up{u}"),
            Served {
                tools: tools.clone(),
                ..Served::default()
            },
        )
        .await;
        upstreams.push((format!("com.example/up{u:02}"), upstream, tools));
    }
    let entries: Vec<(&str, &Upstream, Vec<Value>)> = upstreams
        .iter()
        .map(|(n, u, t)| (n.as_str(), u, t.clone()))
        .collect();
    let started = Instant::now();
    let (gateway, url, _dir) = gateway_for(&entries).await;
    println!(
        "start (allowlist verified, 20 upstreams crawled): {:.1} ms",
        ms(started.elapsed())
    );
    let audience = gateway.audience("default").unwrap().clone();
    let mut refreshes = Vec::new();
    for _ in 0..5 {
        let at = Instant::now();
        gateway.refresh_upstreams(&audience, None).await;
        refreshes.push(at.elapsed());
    }
    refreshes.sort();
    println!(
        "refresh of 20 upstreams (1,000 tools), 5 runs: median {:.1} ms",
        ms(percentile(&refreshes, 0.5))
    );
    let client = reqwest::Client::new();
    let mut listings = Vec::new();
    let mut pages = Vec::new();
    for _ in 0..rounds {
        let at = Instant::now();
        let mut cursor: Option<String> = None;
        let mut count = 0;
        loop {
            let params = match &cursor {
                Some(c) => json!({"cursor": c}),
                None => json!({}),
            };
            let page_at = Instant::now();
            let answer: Value = client
                .post(&url)
                .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": params}))
                .send()
                .await
                .unwrap()
                .json()
                .await
                .unwrap();
            pages.push(page_at.elapsed());
            count += answer["result"]["tools"].as_array().unwrap().len();
            match answer["result"]["nextCursor"].as_str() {
                Some(next) => cursor = Some(next.to_string()),
                None => break,
            }
        }
        assert_eq!(count, 1000);
        listings.push(at.elapsed());
    }
    listings.sort();
    pages.sort();
    println!(
        "tools/list of 1,000 tools (10 pages), {rounds} runs: p50 {:.2} ms, p99 {:.2} ms; one page p50 {:.3} ms, p99 {:.3} ms",
        ms(percentile(&listings, 0.5)),
        ms(percentile(&listings, 0.99)),
        ms(percentile(&pages, 0.5)),
        ms(percentile(&pages, 0.99)),
    );
}

#[tokio::main(flavor = "multi_thread")]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n = args.get(2).and_then(|n| n.parse().ok());
    match args.get(1).map(String::as_str) {
        Some("calls") => calls(n.unwrap_or(50)).await,
        Some("list") => list(n.unwrap_or(200)).await,
        _ => eprintln!("usage: gateway_bench calls|list [N]"),
    }
}
