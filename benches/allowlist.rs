//! Building and signing the allowlist at scale: 10,000 approved servers with
//! 20 tools each (200,000 JCS pins, one payload, one Ed25519 signature), the
//! work the server redoes on every approval. Target: under 2 s.
//!
//! Run: `cargo bench --bench allowlist`. Figures are in `bench/ALLOWLIST_FIGURES.md`.

use std::hint::black_box;

use chrono::{Duration, Utc};
use criterion::{Criterion, criterion_group, criterion_main};
use ed25519_dalek::SigningKey;
use gatehouse::allowlist::{ApprovedServer, Risk, build_payload, sign_allowlist};
use gatehouse::snapshot::Tool;
use serde_json::json;

const SERVERS: usize = 10_000;
const TOOLS_PER_SERVER: usize = 20;

/// A server with realistic tools: a paragraph of description and a small schema each.
fn approved_server(index: usize) -> ApprovedServer {
    let tools = (0..TOOLS_PER_SERVER)
        .map(|t| {
            serde_json::from_value::<Tool>(json!({
                "name": format!("tool_{t}"),
                "title": format!("Tool {t} of server {index}"),
                "description": format!(
                    "Looks up record {t} for server {index}. Returns the record as JSON with its \
                     owner, creation time and tags; fails when the record does not exist."
                ),
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "id": {"type": "string", "description": "Record id", "maxLength": 64},
                        "limit": {"type": "integer", "minimum": 1, "maximum": 100},
                        "verbose": {"type": "boolean", "default": false}
                    },
                    "required": ["id"]
                },
                "annotations": {"readOnlyHint": true, "openWorldHint": false}
            }))
            .expect("a valid tool")
        })
        .collect();
    ApprovedServer {
        name: format!("com.example{index}/server"),
        version: "1.0.0".into(),
        approved_at: Utc::now(),
        server_json: json!({
            "name": format!("com.example{index}/server"),
            "version": "1.0.0",
            "remotes": [{"type": "streamable-http", "url": format!("https://mcp{index}.example.com/mcp")}],
            "packages": [{"registryType": "npm", "identifier": format!("@example{index}/server"), "version": "1.0.0"}]
        }),
        tools,
        prompts: vec![],
        resources: vec![],
        instructions: Some(format!("Server {index}: use the tools to look up records.")),
        risk: Risk {
            max_severity: Some("low".into()),
            findings: 1,
        },
    }
}

fn build_and_sign(c: &mut Criterion) {
    let servers: Vec<ApprovedServer> = (0..SERVERS).map(approved_server).collect();
    let key = SigningKey::from_bytes(&[42; 32]);
    let now = Utc::now();
    let run = || {
        let payload = build_payload(
            "https://gatehouse.example",
            "default",
            1,
            now,
            now + Duration::days(7),
            &servers,
            &[],
        );
        sign_allowlist(&payload, &[&key]).to_bytes()
    };
    let envelope = run();
    eprintln!(
        "allowlist of {SERVERS} servers x {TOOLS_PER_SERVER} tools: envelope {} bytes ({:.1} MiB)",
        envelope.len(),
        envelope.len() as f64 / (1024.0 * 1024.0)
    );

    let mut group = c.benchmark_group("allowlist");
    group.sample_size(10);
    group.bench_function("build_and_sign_10000x20", |b| b.iter(|| black_box(run())));
    group.finish();
}

criterion_group!(benches, build_and_sign);
criterion_main!(benches);
