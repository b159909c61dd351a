//! `gatehouse verify --url`: the client fetches the allowlist over HTTP and
//! walks `/v1/root/{n}.json` on the same origin until a 404, as docs/DESIGN.md §7
//! prescribes. The registry side is a minimal stand-in serving the key store's
//! files, so this tests the client alone.

use crate::support;

use std::sync::Arc;

use axum::Router;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::get;
use chrono::Utc;
use support::*;

/// What the stand-in registry serves.
struct Served {
    allowlist: Vec<u8>,
    roots: Vec<Vec<u8>>,
}

/// Serves `served` on a free loopback port; returns the base URL.
async fn serve(served: Served) -> String {
    let served = Arc::new(served);
    let app = Router::new()
        .route(
            "/v1/allowlist",
            get(|State(s): State<Arc<Served>>| async move { s.allowlist.clone() }),
        )
        .route(
            "/v1/root/{file}",
            get(
                |State(s): State<Arc<Served>>, Path(file): Path<String>| async move {
                    let version: Option<usize> =
                        file.strip_suffix(".json").and_then(|n| n.parse().ok());
                    match version.and_then(|n| s.roots.get(n.wrapping_sub(1))) {
                        Some(bytes) => Ok(bytes.clone()),
                        None => Err(StatusCode::NOT_FOUND),
                    }
                },
            ),
        )
        .with_state(served);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    format!("http://{address}")
}

fn published_roots(registry: &Registry) -> Vec<Vec<u8>> {
    (1..=registry.store.root_version())
        .map(|n| registry.store.root_document(n).unwrap().unwrap())
        .collect()
}

async fn run_verify(args: Vec<String>) -> std::process::Output {
    tokio::process::Command::new(env!("CARGO_BIN_EXE_gatehouse"))
        .arg("verify")
        .args(args)
        .env_remove("GATEHOUSE_ROOT_KEY")
        .env_remove("GATEHOUSE_ALLOWLIST_KEY")
        .output()
        .await
        .expect("the gatehouse binary runs")
}

#[tokio::test]
async fn verify_url_walks_the_served_roots_after_a_rotation() {
    let mut registry = Registry::new();
    let pinned = registry.pin_root_v1();
    registry.store.rotate_allowlist_key(Utc::now()).unwrap();
    registry.store.rotate_allowlist_key(Utc::now()).unwrap();
    let base = serve(Served {
        allowlist: registry.current_allowlist(3),
        roots: published_roots(&registry),
    })
    .await;
    let state = registry.tmp.path().join("state.json");

    let output = run_verify(vec![
        "--url".into(),
        format!("{base}/v1/allowlist"),
        "--root".into(),
        pinned.display().to_string(),
        "--state".into(),
        state.display().to_string(),
    ])
    .await;

    assert_eq!(output.status.code(), Some(0), "stderr: {}", stderr(&output));
    assert!(
        stdout(&output).contains("signed under root version 3"),
        "{}",
        stdout(&output)
    );
    let saved: serde_json::Value = serde_json::from_slice(&std::fs::read(&state).unwrap()).unwrap();
    assert_eq!(saved["allowlists"]["default"]["version"], 3);
}

#[tokio::test]
async fn a_client_that_walked_forward_is_not_fooled_when_newer_roots_are_withheld() {
    let mut registry = Registry::new();
    let pinned = registry.pin_root_v1();
    let old_document = registry.current_allowlist(1);
    registry.store.rotate_allowlist_key(Utc::now()).unwrap();
    let state = registry.tmp.path().join("state.json");
    let honest = serve(Served {
        allowlist: registry.current_allowlist(2),
        roots: published_roots(&registry),
    })
    .await;
    let first = run_verify(vec![
        "--url".into(),
        format!("{honest}/v1/allowlist"),
        "--root".into(),
        pinned.display().to_string(),
        "--state".into(),
        state.display().to_string(),
    ])
    .await;
    assert_eq!(first.status.code(), Some(0), "stderr: {}", stderr(&first));
    // A mirror serving only root v1 and a document signed with the retired key.
    let root_v1 = registry.store.root_document(1).unwrap().unwrap();
    let stale = serve(Served {
        allowlist: old_document,
        roots: vec![root_v1],
    })
    .await;

    let output = run_verify(vec![
        "--url".into(),
        format!("{stale}/v1/allowlist"),
        "--root".into(),
        pinned.display().to_string(),
        "--state".into(),
        state.display().to_string(),
    ])
    .await;

    // The stored root v2 no longer trusts the retired key.
    assert_eq!(
        output.status.code(),
        Some(11),
        "stderr: {}",
        stderr(&output)
    );
    assert!(
        stderr(&output).contains("REFUSED (unknown_key)"),
        "{}",
        stderr(&output)
    );
}
