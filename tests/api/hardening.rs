//! Issue 11: one meaning per document, no look-alike versions, scans that
//! fail closed, weak ETags, links refused at publish, rejections that survive
//! a rescan, and publishers who see categories rather than network detail.

use std::sync::Arc;

use axum::Json;
use axum::http::StatusCode as AxumStatus;
use axum::response::{IntoResponse, Response};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{Backend, TestApp, assert_problem, enc, npm_server, remote_server};
use crate::on_both_backends;

on_both_backends!(
    a_server_json_with_a_duplicate_key_is_refused_naming_its_pointer,
    no_server_json_with_a_duplicate_key_at_any_depth_is_stored,
    an_admin_body_with_a_duplicate_key_is_refused_and_changes_nothing,
    look_alike_versions_and_case_variants_of_a_name_are_refused,
    links_other_than_https_are_refused_at_publish,
    a_declared_list_that_cannot_be_read_makes_the_version_scan_failed,
    publishers_see_why_a_scan_failed_as_a_category_only,
    a_rescan_keeps_a_rejection_until_a_reviewer_reopens_it,
    a_weak_if_none_match_gets_304,
    a_key_rotation_from_the_cli_reaches_a_running_server_within_seconds,
    a_stored_document_with_a_duplicate_key_is_mended_to_one_meaning,
);

/// `POST /v0/publish` with raw body text (a `Value` cannot hold a repeated key).
async fn publish_text(app: &TestApp, token: &str, text: &str) -> reqwest::Response {
    app.client
        .post(format!("{}/v0/publish", app.address))
        .bearer_auth(token)
        .header("content-type", "application/json")
        .body(text.to_string())
        .send()
        .await
        .unwrap()
}

async fn a_server_json_with_a_duplicate_key_is_refused_naming_its_pointer(backend: Backend) {
    // Arrange: the issue's document, and one whose only repeat is a remote's URL.
    let app = TestApp::spawn(backend).await;
    let token = app
        .publisher("acme", &["com.example", "io.github.victim"])
        .await;
    let before = app.publish_footprint().await;
    let two_names = r#"{"name": "io.github.victim/tool", "description": "x", "version": "1.0.0",
        "name": "com.example/mine",
        "remotes": [{"type": "streamable-http", "url": "https://a.example/mcp", "url": "http://127.0.0.1:9/mcp"}]}"#;
    let two_urls = r#"{"name": "com.example/mine", "description": "x", "version": "1.0.0",
        "remotes": [{"type": "streamable-http", "url": "https://a.example/mcp", "url": "http://127.0.0.1:9/mcp"}]}"#;

    for (text, pointer) in [(two_names, "/name"), (two_urls, "/remotes/0/url")] {
        // Act
        let response = publish_text(&app, &token, text).await;

        // Assert
        let problem = assert_problem(response, StatusCode::UNPROCESSABLE_ENTITY).await;
        assert_eq!(problem["errors"][0]["pointer"], pointer, "{problem}");
        assert!(problem["detail"].as_str().unwrap().contains(pointer));
    }
    assert_eq!(app.publish_footprint().await, before, "nothing is stored");
}

/// Arbitrary JSON: the values a `_meta` extension may carry, keys including `~` and `/`.
fn arb_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i32>().prop_map(Value::from),
        "[a-z ]{0,6}".prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
            prop::collection::btree_map("[a-c~/]{1,3}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Serialises `v`, repeating one key in its `target`-th object (document
/// order); returns the text and the JSON Pointer of the repeated key.
fn with_duplicate(v: &Value, target: usize) -> (String, String) {
    fn escape(token: &str) -> String {
        token.replace('~', "~0").replace('/', "~1")
    }
    fn write(
        v: &Value,
        path: &mut Vec<String>,
        seen: &mut usize,
        target: usize,
        pointer: &mut String,
        out: &mut String,
    ) {
        match v {
            Value::Object(map) => {
                let me = *seen;
                *seen += 1;
                out.push('{');
                for (i, (k, val)) in map.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(&serde_json::to_string(k).unwrap());
                    out.push(':');
                    path.push(escape(k));
                    write(val, path, seen, target, pointer, out);
                    path.pop();
                }
                if me == target {
                    let key = match map.keys().next() {
                        Some(first) => {
                            out.push(',');
                            first.clone()
                        }
                        None => {
                            out.push_str("\"dup\":1,");
                            "dup".to_string()
                        }
                    };
                    out.push_str(&serde_json::to_string(&key).unwrap());
                    out.push_str(":\"shadow\"");
                    *pointer = path
                        .iter()
                        .chain(std::iter::once(&escape(&key)))
                        .map(|t| format!("/{t}"))
                        .collect();
                }
                out.push('}');
            }
            Value::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    path.push(i.to_string());
                    write(item, path, seen, target, pointer, out);
                    path.pop();
                }
                out.push(']');
            }
            other => out.push_str(&other.to_string()),
        }
    }
    let (mut out, mut pointer, mut seen) = (String::new(), String::new(), 0);
    write(
        v,
        &mut Vec::new(),
        &mut seen,
        target,
        &mut pointer,
        &mut out,
    );
    (out, pointer)
}

fn count_objects(v: &Value) -> usize {
    match v {
        Value::Object(m) => 1 + m.values().map(count_objects).sum::<usize>(),
        Value::Array(a) => a.iter().map(count_objects).sum(),
        _ => 0,
    }
}

async fn no_server_json_with_a_duplicate_key_at_any_depth_is_stored(backend: Backend) {
    // Arrange: valid documents with arbitrary `_meta`, one key repeated in one
    // of their objects, chosen anywhere from the root to the deepest.
    let app = TestApp::spawn(backend).await;
    app.publisher("acme", &["com.example"]).await;
    let publisher = gatehouse::storage::accounts::list_publishers(&app.db)
        .await
        .unwrap()
        .into_iter()
        .find(|p| p.name == "acme")
        .unwrap();
    let net = gatehouse::discovery::NetPolicy::from_config(Some("1")).unwrap();
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let strategy = (arb_json(), any::<prop::sample::Index>());

    for case in 0..64 {
        let (extra, index) = strategy.new_tree(&mut runner).unwrap().current();
        let mut doc = npm_server(&format!("com.example/p{case}"), "1.0.0");
        doc["_meta"] = json!({"io.example/data": extra});
        let (text, pointer) = with_duplicate(&doc, index.index(count_objects(&doc)));

        // Act
        let outcome =
            gatehouse::registry::publish::publish(&app.db, &net, &publisher, text.as_bytes()).await;

        // Assert
        match outcome {
            Err(gatehouse::registry::publish::PublishError::Invalid(errors)) => {
                assert_eq!(errors[0].pointer, pointer, "{text}");
            }
            other => panic!("case {case} was not refused: {other:?}\n{text}"),
        }
    }
    assert_eq!(app.count("versions").await, 0);
    assert_eq!(app.count("servers").await, 0);
}

async fn an_admin_body_with_a_duplicate_key_is_refused_and_changes_nothing(backend: Backend) {
    // Arrange
    let app = TestApp::spawn(backend).await;
    let token = app.publisher("acme", &["com.example"]).await;
    app.publish_scanned(
        &token,
        "com.example/calc",
        "1.0.0",
        &[("add", "Adds two numbers.")],
    )
    .await;

    // Act: `tools` read as [] by one parser and ["add"] by another.
    let response = app
        .client
        .post(format!(
            "{}/api/v1/admin/servers/{}/versions/1.0.0/approve",
            app.address,
            enc("com.example/calc")
        ))
        .bearer_auth(&app.admin_token)
        .header("content-type", "application/json")
        .body(r#"{"tools": [], "note": "ok", "tools": ["add"]}"#)
        .send()
        .await
        .unwrap();

    // Assert
    let problem = assert_problem(response, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(problem["errors"][0]["pointer"], "/tools");
    assert_eq!(app.count("approvals").await, 0);
    let v = gatehouse::storage::versions::get_version(&app.db, "com.example/calc", "1.0.0")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(v.status.as_str(), "in_review");
}

async fn look_alike_versions_and_case_variants_of_a_name_are_refused(backend: Backend) {
    // Arrange
    let app = TestApp::spawn(backend).await;
    let token = app.publisher("acme", &["com.example"]).await;
    let rival = app.publisher("rival", &["com.example"]).await;
    let ok = app
        .publish(&token, &npm_server("com.example/weather", "1.0.0"))
        .await;
    assert_eq!(ok.status(), StatusCode::CREATED);
    let before = app.publish_footprint().await;

    // Act / Assert: versions that would render as `1.0.0`.
    for version in [
        "1.0.0 ",
        " 1.0.0",
        "1.0.0\u{200B}",
        "1.0.0\u{FEFF}",
        "1.0.0\t",
    ] {
        let mut doc = npm_server("com.example/weather", "1.0.0");
        doc["version"] = json!(version);
        let problem = assert_problem(
            app.publish(&token, &doc).await,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
        assert!(
            problem["errors"]
                .as_array()
                .unwrap()
                .iter()
                .any(|e| e["pointer"] == "/version"),
            "{version:?}: {problem}"
        );
    }
    let mut long = npm_server("com.example/weather", "1.0.0");
    long["version"] = json!(format!("1.0.0-{}", "a".repeat(300)));
    assert_problem(
        app.publish(&token, &long).await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;

    // The same server under another spelling: the owner is told the name, a rival is refused.
    let problem = assert_problem(
        app.publish(&token, &npm_server("com.example/Weather", "2.0.0"))
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(problem["errors"][0]["pointer"], "/name");
    assert!(
        problem["detail"]
            .as_str()
            .unwrap()
            .contains("com.example/weather")
    );
    assert_problem(
        app.publish(&rival, &npm_server("COM.EXAMPLE/WEATHER", "2.0.0"))
            .await,
        StatusCode::FORBIDDEN,
    )
    .await;
    assert_eq!(app.publish_footprint().await, before, "nothing is stored");
}

async fn links_other_than_https_are_refused_at_publish(backend: Backend) {
    // Arrange
    let app = TestApp::spawn(backend).await;
    let token = app.publisher("acme", &["com.example"]).await;
    let before = app.publish_footprint().await;
    let cases = [
        (
            "websiteUrl",
            json!("javascript:alert(document.cookie)"),
            "/websiteUrl",
        ),
        ("websiteUrl", json!("http://example.com/"), "/websiteUrl"),
        (
            "repository",
            json!({"url": "http://github.com/example/links", "source": "github"}),
            "/repository/url",
        ),
        (
            "icons",
            json!([{"src": "http://example.com/i.png"}]),
            "/icons/0/src",
        ),
        (
            "icons",
            json!([{"src": "data:image/svg+xml,<svg onload=alert(1)>"}]),
            "/icons/0/src",
        ),
    ];

    for (field, value, pointer) in cases {
        let mut doc = npm_server("com.example/links", "1.0.0");
        doc[field] = value;

        // Act
        let problem = assert_problem(
            app.publish(&token, &doc).await,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;

        // Assert (the schema refuses some of them first, the registry the rest)
        assert!(
            problem["errors"]
                .as_array()
                .unwrap()
                .iter()
                .any(|e| e["pointer"] == pointer),
            "{pointer} in {problem}"
        );
    }
    assert_eq!(app.publish_footprint().await, before);

    // Loopback http stays possible for local development (the test app allows private addresses).
    let mut local = npm_server("com.example/local", "1.0.0");
    local["websiteUrl"] = json!("http://127.0.0.1:8000/");
    assert_eq!(
        app.publish(&token, &local).await.status(),
        StatusCode::CREATED
    );
}

/// A Streamable HTTP MCP server declaring tools and prompts whose
/// `prompts/list` always fails; returns its URL.
async fn spawn_failing_prompts_server() -> String {
    async fn handle(Json(request): Json<Value>) -> Response {
        let Some(id) = request.get("id").cloned() else {
            return AxumStatus::ACCEPTED.into_response();
        };
        let answer = match request["method"].as_str().unwrap_or_default() {
            "initialize" => json!({"result": {
                "protocolVersion": "2025-06-18",
                "capabilities": {"tools": {}, "prompts": {}},
                "serverInfo": {"name": "half", "version": "1.0.0"}}}),
            "tools/list" => json!({"result": {"tools": [
                {"name": "get_time", "description": "Returns the time.", "inputSchema": {"type": "object"}}]}}),
            _ => json!({"error": {"code": -32603, "message": "internal error"}}),
        };
        let mut answer = answer;
        answer["jsonrpc"] = json!("2.0");
        answer["id"] = id;
        Json(answer).into_response()
    }
    let app = axum::Router::new().route(
        "/mcp",
        axum::routing::post(handle).delete(|| async { AxumStatus::OK }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    url
}

async fn a_declared_list_that_cannot_be_read_makes_the_version_scan_failed(backend: Backend) {
    // Arrange
    let app = TestApp::spawn(backend).await;
    let token = app.publisher("acme", &["com.example"]).await;
    let url = spawn_failing_prompts_server().await;
    let r = app
        .publish(&token, &remote_server("com.example/half", "1.0.0", &url))
        .await;
    assert_eq!(r.status(), StatusCode::CREATED);

    // Act
    app.drain_jobs().await;

    // Assert: not in review as if clean — failed, with the reason for reviewers.
    let v = gatehouse::storage::versions::get_version(&app.db, "com.example/half", "1.0.0")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(v.status.as_str(), "scan_failed");
    let scan = gatehouse::storage::versions::latest_scan(&app.db, &v.id)
        .await
        .unwrap()
        .unwrap();
    let error = scan.error.unwrap_or_default();
    assert!(error.contains("prompts"), "{error}");
}

async fn publishers_see_why_a_scan_failed_as_a_category_only(backend: Backend) {
    // Arrange: a remote on a closed loopback port (connection refused).
    let app = TestApp::spawn(backend).await;
    let token = app.publisher("acme", &["com.example"]).await;
    let closed = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let url = format!("http://127.0.0.1:{closed}/mcp");
    app.publish(&token, &remote_server("com.example/gone", "1.0.0", &url))
        .await;
    app.drain_jobs().await;

    // Act
    let mine: Value = app
        .get(
            &format!(
                "/api/v1/publisher/servers/{}/versions/1.0.0",
                enc("com.example/gone")
            ),
            Some(&token),
        )
        .await
        .json()
        .await
        .unwrap();

    // Assert
    assert_eq!(mine["status"], "scan_failed");
    assert_eq!(mine["scan"]["error"], "the server could not be reached");
    let findings = mine["findings"].to_string();
    assert!(!findings.contains(&closed.to_string()), "{findings}");
    let v = gatehouse::storage::versions::get_version(&app.db, "com.example/gone", "1.0.0")
        .await
        .unwrap()
        .unwrap();
    let detail = gatehouse::storage::versions::latest_scan(&app.db, &v.id)
        .await
        .unwrap()
        .unwrap()
        .error
        .unwrap();
    assert!(
        detail.contains("transport"),
        "reviewers keep the detail: {detail}"
    );
}

async fn a_rescan_keeps_a_rejection_until_a_reviewer_reopens_it(backend: Backend) {
    // Arrange: a rejected version.
    let app = TestApp::spawn(backend).await;
    let token = app.publisher("acme", &["com.example"]).await;
    app.publish_scanned(
        &token,
        "com.example/calc",
        "1.0.0",
        &[("add", "Adds two numbers.")],
    )
    .await;
    let base = format!(
        "/api/v1/admin/servers/{}/versions/1.0.0",
        enc("com.example/calc")
    );
    let status = |app: Arc<TestApp>| async move {
        gatehouse::storage::versions::get_version(&app.db, "com.example/calc", "1.0.0")
            .await
            .unwrap()
            .unwrap()
            .status
            .as_str()
    };
    let app = Arc::new(app);
    let r = app
        .post(
            &format!("{base}/reject"),
            Some(&app.admin_token),
            Some(&json!({"reason": "exfiltrates files"})),
        )
        .await;
    assert_eq!(r.status(), StatusCode::OK);

    // Act 1: rescan and let the scan run.
    let r = app
        .post(&format!("{base}/rescan"), Some(&app.reviewer_token), None)
        .await;
    assert_eq!(r.status(), StatusCode::OK);
    app.drain_jobs().await;

    // Assert 1: still rejected.
    assert_eq!(status(app.clone()).await, "rejected");

    // Act 2: a reopen without a reason is refused; with one it goes back to review.
    assert_problem(
        app.post(&format!("{base}/reopen"), Some(&app.reviewer_token), None)
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    let r = app
        .post(
            &format!("{base}/reopen"),
            Some(&app.reviewer_token),
            Some(&json!({"reason": "the publisher fixed the description"})),
        )
        .await;
    assert_eq!(r.status(), StatusCode::OK);

    // Assert 2: in review, and both actions audited.
    assert_eq!(status(app.clone()).await, "in_review");
    let audit: Value = app
        .get("/api/v1/audit?limit=100", Some(&app.admin_token))
        .await
        .json()
        .await
        .unwrap();
    let entries = audit["entries"].as_array().unwrap();
    let rescan = entries
        .iter()
        .find(|e| e["action"] == "version.rescan")
        .expect("the rescan is audited");
    assert_eq!(rescan["detail"]["to"], "rejected");
    let reopen = entries
        .iter()
        .find(|e| e["action"] == "version.reopen")
        .expect("the reopen is audited");
    assert_eq!(reopen["detail"]["from"], "rejected");
    assert_eq!(reopen["detail"]["to"], "in_review");
    assert_eq!(
        reopen["detail"]["reason"],
        "the publisher fixed the description"
    );
}

async fn a_weak_if_none_match_gets_304(backend: Backend) {
    // Arrange
    let app = TestApp::spawn(backend).await;
    let first = app.get("/v1/allowlist", None).await;
    let etag = first.headers()["etag"].to_str().unwrap().to_string();

    for header in [
        format!("W/{etag}"),
        format!("\"other\", W/{etag}"),
        etag.clone(),
    ] {
        // Act
        let again = app
            .client
            .get(format!("{}/v1/allowlist", app.address))
            .header("if-none-match", &header)
            .send()
            .await
            .unwrap();

        // Assert
        assert_eq!(again.status(), StatusCode::NOT_MODIFIED, "{header}");
    }
    let other = app
        .client
        .get(format!("{}/v1/allowlist", app.address))
        .header("if-none-match", "W/\"other\"")
        .send()
        .await
        .unwrap();
    assert_eq!(other.status(), StatusCode::OK);
}

async fn a_key_rotation_from_the_cli_reaches_a_running_server_within_seconds(backend: Backend) {
    // Arrange: a running server; the keys rotated on disk as `gatehouse keys rotate` does.
    let app = TestApp::spawn(backend).await;
    let mut store = gatehouse::allowlist::KeyStore::open(&app.data_dir.join("keys")).unwrap();
    let root_version = store.rotate_allowlist_key(chrono::Utc::now()).unwrap();
    let new_key = store.allowlist_keyid();
    let started = std::time::Instant::now();

    // Act: poll as a client would.
    let (mut keyid, mut served_root) = (String::new(), 0);
    while started.elapsed() < std::time::Duration::from_secs(10) {
        let envelope: Value = app.get("/v1/allowlist", None).await.json().await.unwrap();
        keyid = envelope["signatures"][0]["keyid"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        let root: Value = app.get("/v1/root.json", None).await.json().await.unwrap();
        let payload = base64::Engine::decode(
            &base64::engine::general_purpose::STANDARD,
            root["payload"].as_str().unwrap(),
        )
        .unwrap();
        served_root = serde_json::from_slice::<Value>(&payload).unwrap()["version"]
            .as_u64()
            .unwrap();
        if keyid == new_key && served_root == root_version {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }

    // Assert
    assert_eq!(
        keyid, new_key,
        "the allowlist is re-signed with the new key"
    );
    assert_eq!(served_root, root_version, "the new root is served");
}

async fn a_stored_document_with_a_duplicate_key_is_mended_to_one_meaning(backend: Backend) {
    // Arrange: a version stored before publishing refused repeated keys.
    let app = TestApp::spawn(backend).await;
    let token = app.publisher("acme", &["com.example"]).await;
    let doc = npm_server("com.example/old", "1.0.0");
    assert_eq!(
        app.publish(&token, &doc).await.status(),
        StatusCode::CREATED
    );
    let text = r#"{"name": "com.example/old", "description": "x", "version": "1.0.0",
        "packages": [{"registryType": "npm", "identifier": "@victim/pkg", "identifier": "@acme/old", "version": "1.0.0", "transport": {"type": "stdio"}}]}"#;
    sqlx::query("UPDATE versions SET server_json = $1 WHERE server_name = $2")
        .bind(text)
        .bind("com.example/old")
        .execute(app.db.pool())
        .await
        .unwrap();

    // Act: the next process to open the database mends it.
    let db = gatehouse::storage::Db::connect(&app.database_url)
        .await
        .unwrap();

    // Assert: one meaning (the value that was validated), and an audit entry.
    let (stored,): (String,) =
        sqlx::query_as("SELECT server_json FROM versions WHERE server_name = $1")
            .bind("com.example/old")
            .fetch_one(db.pool())
            .await
            .unwrap();
    assert_eq!(
        gatehouse::strict_json::first_duplicate(stored.as_bytes()),
        None
    );
    let value: Value = serde_json::from_str(&stored).unwrap();
    assert_eq!(value["packages"][0]["identifier"], "@acme/old");
    let (action, detail): (String, String) = sqlx::query_as(
        "SELECT action, detail FROM audit_log WHERE action = 'version.mend_duplicate_keys'",
    )
    .fetch_one(db.pool())
    .await
    .unwrap();
    assert_eq!(action, "version.mend_duplicate_keys");
    assert!(detail.contains("/packages/0/identifier"), "{detail}");
    // Opening again changes nothing more.
    assert_eq!(
        gatehouse::storage::versions::mend_duplicate_keys(&db)
            .await
            .unwrap(),
        0
    );
}
