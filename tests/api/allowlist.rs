//! The signed allowlist as clients see it: approvals pin exactly the approved
//! tools per audience, revocations are listed, versions only increase, and the
//! documents verify — with our verifier and with an independent one.

use std::collections::HashMap;

use futures_util::future::join_all;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{Backend, TestApp, assert_problem, enc};
use crate::on_both_backends;

on_both_backends!(
    an_approved_subset_is_all_that_the_signed_allowlist_pins,
    audiences_revocations_and_conditional_requests_behave,
    concurrent_approvals_through_two_servers_only_ever_increase_the_version,
);

async fn an_approved_subset_is_all_that_the_signed_allowlist_pins(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let token = app.publisher("acme", &["com.example"]).await;
    let name = "com.example/files";
    app.publish_scanned(
        &token,
        name,
        "1.0.0",
        &[
            ("read_file", "Reads a file"),
            ("delete_file", "Deletes a file"),
        ],
    )
    .await;

    let empty = app.verified_allowlist("default").await;
    assert!(empty.servers.is_empty());
    let r = app
        .post(
            &format!("/api/v1/admin/servers/{}/versions/1.0.0/approve", enc(name)),
            Some(&app.reviewer_token),
            Some(&json!({"tools": ["read_file"]})),
        )
        .await;
    assert_eq!(r.status(), StatusCode::OK, "{}", r.text().await.unwrap());

    let payload = app.verified_allowlist("default").await;
    assert!(payload.version > empty.version);
    assert_eq!(payload.servers.len(), 1);
    let entry = &payload.servers[0];
    assert_eq!(
        (entry.name.as_str(), entry.version.as_str()),
        (name, "1.0.0")
    );
    assert_eq!(entry.tools.mode, "pinned");
    let pinned: Vec<&str> = entry.tools.pins.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(pinned, vec!["read_file"]);
    assert_eq!(entry.match_.packages[0].identifier, "@example/weather-mcp");

    // The pin is the hash of the crawled tool: recompute it from the snapshot the reviewer saw.
    let detail: Value = app
        .get(
            &format!("/api/v1/admin/servers/{}/versions/1.0.0", enc(name)),
            Some(&app.admin_token),
        )
        .await
        .json()
        .await
        .unwrap();
    let tool: gatehouse::snapshot::Tool =
        serde_json::from_value(detail["snapshot"]["tools"][0].clone()).unwrap();
    let read_file = if tool.name == "read_file" {
        tool
    } else {
        serde_json::from_value(detail["snapshot"]["tools"][1].clone()).unwrap()
    };
    assert_eq!(
        entry.tools.pins[0].sha256,
        gatehouse::allowlist::pin_tool(&read_file)
    );

    independent_verifier_agrees(&app, &detail, name).await;

    let export: Value = app
        .get("/v1/exports/claude-code", None)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        export["allowedMcpServers"],
        json!([{"serverCommand": ["npx", "-y", "@example/weather-mcp@1.0.0"]}])
    );
}

/// Runs `tests/interop/verify_allowlist.py` (Python `cryptography` + `rfc8785`,
/// none of our code) against the live server, with a crawled tool to re-pin.
async fn independent_verifier_agrees(app: &TestApp, detail: &Value, name: &str) {
    let python = std::env::var("GATEHOUSE_PYTHON").unwrap_or_else(|_| "python3".into());
    let deps = std::process::Command::new(&python)
        .args(["-c", "import cryptography, rfc8785"])
        .output();
    if !deps.is_ok_and(|o| o.status.success()) {
        if std::env::var("GATEHOUSE_REQUIRE_PEERS").is_ok_and(|v| v == "1") {
            panic!(
                "the Python verifier needs `cryptography` and `rfc8785` (pip install -r tests/interop/requirements-verify.txt)"
            );
        }
        eprintln!(
            "SKIPPED: independent Python verifier (pip install -r tests/interop/requirements-verify.txt)"
        );
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let root = app
        .get("/v1/root/1.json", None)
        .await
        .bytes()
        .await
        .unwrap();
    std::fs::write(dir.path().join("root.json"), &root).unwrap();
    let tool = detail["snapshot"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "read_file")
        .unwrap();
    std::fs::write(dir.path().join("tool.json"), tool.to_string()).unwrap();
    let url = format!("{}/v1/allowlist", app.address);
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/interop/verify_allowlist.py"
    );
    let out = tokio::process::Command::new(&python)
        .arg(script)
        .args([
            "--root",
            dir.path().join("root.json").to_str().unwrap(),
            "--url",
            &url,
        ])
        .args([
            "--tool",
            dir.path().join("tool.json").to_str().unwrap(),
            "--server",
            name,
        ])
        .output()
        .await
        .unwrap();
    assert!(
        out.status.success(),
        "python verifier refused: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

async fn audiences_revocations_and_conditional_requests_behave(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let token = app.publisher("acme", &["com.example"]).await;
    app.publish_scanned(
        &token,
        "com.example/internal",
        "1.0.0",
        &[("search_docs", "Searches documents")],
    )
    .await;
    let r = app
        .post(
            "/api/v1/admin/servers/com.example%2Finternal/versions/1.0.0/approve",
            Some(&app.admin_token),
            Some(&json!({"audiences": ["staff"]})),
        )
        .await;
    assert_eq!(r.status(), StatusCode::OK);
    assert_eq!(app.verified_allowlist("staff").await.servers.len(), 1);
    assert!(app.verified_allowlist("default").await.servers.is_empty());
    assert_problem(
        app.get("/v1/allowlist?audience=nobody", None).await,
        StatusCode::NOT_FOUND,
    )
    .await;

    // Strong ETag, no-cache, 304 on If-None-Match.
    let first = app.get("/v1/allowlist?audience=staff", None).await;
    let etag = first.headers()["etag"].to_str().unwrap().to_string();
    assert!(etag.starts_with('"') && !etag.starts_with("W/"));
    assert_eq!(first.headers()["cache-control"], "no-cache");
    let again = app
        .client
        .get(format!("{}/v1/allowlist?audience=staff", app.address))
        .header("if-none-match", &etag)
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), StatusCode::NOT_MODIFIED);

    let before = app.verified_allowlist("staff").await.version;
    let r = app
        .post(
            "/api/v1/admin/servers/com.example%2Finternal/versions/1.0.0/revoke",
            Some(&app.admin_token),
            Some(&json!({"reason": "vendor breach"})),
        )
        .await;
    assert_eq!(r.status(), StatusCode::OK);
    let after = app.verified_allowlist("staff").await;
    assert!(after.version > before);
    assert!(after.servers.is_empty());
    assert_eq!(after.revoked.len(), 1);
    assert_eq!(after.revoked[0].reason, "vendor breach");
    let changed = app
        .client
        .get(format!("{}/v1/allowlist?audience=staff", app.address))
        .header("if-none-match", &etag)
        .send()
        .await
        .unwrap();
    assert_eq!(changed.status(), StatusCode::OK);
    let jwks: Value = app
        .get("/.well-known/jwks.json", None)
        .await
        .json()
        .await
        .unwrap();
    assert!(jwks["keys"].as_array().is_some_and(|k| !k.is_empty()));
}

async fn concurrent_approvals_through_two_servers_only_ever_increase_the_version(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let second = app.second_server().await;
    let token = app.publisher("acme", &["com.example"]).await;
    for i in 0..50 {
        app.publish_scanned(
            &token,
            &format!("com.example/s{i:02}"),
            "1.0.0",
            &[("get_thing", "Gets a thing")],
        )
        .await;
    }
    // A client polls while fifty approvals go through two servers at once.
    let poller = {
        let (client, a, b) = (app.client.clone(), app.address.clone(), second.url());
        tokio::spawn(async move {
            let mut seen = Vec::new();
            for i in 0..200 {
                let base = if i % 2 == 0 { &a } else { &b };
                let env: Value = client
                    .get(format!("{base}/v1/allowlist"))
                    .send()
                    .await
                    .unwrap()
                    .json()
                    .await
                    .unwrap();
                let payload: Value =
                    serde_json::from_slice(&base64_decode(env["payload"].as_str().unwrap()))
                        .unwrap();
                seen.push(payload["version"].as_u64().unwrap());
                tokio::time::sleep(std::time::Duration::from_millis(5)).await;
            }
            seen
        })
    };
    let approvals = (0..50).map(|i| {
        let base = if i % 2 == 0 {
            app.address.clone()
        } else {
            second.url()
        };
        let (client, token) = (app.client.clone(), app.admin_token.clone());
        async move {
            client
                .post(format!(
                    "{base}/api/v1/admin/servers/com.example%2Fs{i:02}/versions/1.0.0/approve"
                ))
                .bearer_auth(token)
                .send()
                .await
                .unwrap()
                .status()
        }
    });
    let statuses = join_all(approvals).await;
    assert!(
        statuses.iter().all(|s| *s == StatusCode::OK),
        "{statuses:?}"
    );
    let seen = poller.await.unwrap();
    // Each server's own view never goes back (the two may lag each other by a refresh).
    let mut last: HashMap<usize, u64> = HashMap::new();
    for (i, v) in seen.iter().enumerate() {
        let prev = last.entry(i % 2).or_insert(0);
        assert!(*v >= *prev, "version went back from {prev} to {v}");
        *prev = *v;
    }
    let versions: Vec<i64> = sqlx::query_scalar(
        "SELECT version FROM allowlist_documents WHERE audience = 'default' ORDER BY version",
    )
    .fetch_all(app.db.pool())
    .await
    .unwrap();
    assert_eq!(
        versions,
        (1..=51).collect::<Vec<i64>>(),
        "every change signed once, no version reused"
    );
    // Both servers serve the final document within a couple of seconds (their refreshers poll every second).
    for base in [&app.address, &second.url()] {
        let mut version = 0;
        for _ in 0..30 {
            let env: Value = app
                .client
                .get(format!("{base}/v1/allowlist"))
                .send()
                .await
                .unwrap()
                .json()
                .await
                .unwrap();
            let payload: Value =
                serde_json::from_slice(&base64_decode(env["payload"].as_str().unwrap())).unwrap();
            version = payload["version"].as_u64().unwrap();
            if version == 51 {
                assert_eq!(payload["servers"].as_array().unwrap().len(), 50);
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        assert_eq!(version, 51, "{base} did not pick up the newest document");
    }
    let last = app.verified_allowlist("default").await;
    assert_eq!(last.servers.len(), 50);
}

fn base64_decode(s: &str) -> Vec<u8> {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.decode(s).unwrap()
}
