//! `POST /v0/publish`: the three documented shapes publish; every bad input is
//! refused with the right status and problem+json and stores nothing.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{TestApp, assert_problem, npm_server, pypi_server, remote_server};
use crate::on_both_backends;

on_both_backends!(
    the_three_documented_server_kinds_publish,
    every_bad_input_is_refused_and_stores_nothing,
    the_publisher_api_shows_own_versions_only,
);

async fn the_three_documented_server_kinds_publish(backend: crate::helpers::Backend) {
    let app = TestApp::spawn(backend).await;
    let token = app.publisher("acme", &["com.example"]).await;

    for doc in [
        remote_server(
            "com.example/remote-weather",
            "1.0.0",
            "https://mcp.example.com/mcp",
        ),
        npm_server("com.example/npm-weather", "1.0.2"),
        pypi_server("com.example/pypi-weather", "0.5.0"),
    ] {
        let response = app.publish(&token, &doc).await;
        assert_eq!(response.status(), StatusCode::CREATED);
        assert!(response.headers().get("location").is_some());
        let body: Value = response.json().await.unwrap();
        assert_eq!(
            body["server"], doc,
            "the stored server.json is the submitted one"
        );
        assert_eq!(body["_meta"]["io.gatehouse/review"]["status"], "pending");
        assert_eq!(
            body["_meta"]["io.modelcontextprotocol.registry/official"]["isLatest"],
            false
        );
    }
    assert_eq!(app.count("versions").await, 3);
    assert_eq!(app.count("jobs").await, 3, "each publish enqueues a scan");
    let audit: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM audit_log WHERE action = 'version.publish'")
            .fetch_one(app.db.pool())
            .await
            .unwrap();
    assert_eq!(audit, 3);
}

async fn every_bad_input_is_refused_and_stores_nothing(backend: crate::helpers::Backend) {
    let app = TestApp::spawn(backend).await;
    let token = app.publisher("acme", &["com.example"]).await;
    let other = app.publisher("other", &["org.other"]).await;
    assert_eq!(
        app.publish(&token, &npm_server("com.example/taken", "1.0.0"))
            .await
            .status(),
        StatusCode::CREATED
    );
    let taken_url = "https://mcp.other.org/mcp";
    assert_eq!(
        app.publish(
            &other,
            &remote_server("org.other/remote", "1.0.0", taken_url)
        )
        .await
        .status(),
        StatusCode::CREATED
    );
    let before = app.publish_footprint().await;
    let url = format!("{}/v0/publish", app.address);

    // Raw-body cases.
    let raw = |body: Vec<u8>, ct: &'static str, auth: Option<&'static str>| {
        let mut req = app.client.post(&url).header("content-type", ct).body(body);
        req = match auth {
            Some("none") => req,
            Some(t) => req.bearer_auth(t),
            None => req.bearer_auth(&token),
        };
        req
    };
    let p = assert_problem(
        raw(b"{not json".to_vec(), "application/json", None)
            .send()
            .await
            .unwrap(),
        StatusCode::BAD_REQUEST,
    )
    .await;
    assert!(p["detail"].as_str().unwrap().contains("JSON"));
    assert_problem(
        raw(b"{}".to_vec(), "text/plain", None)
            .send()
            .await
            .unwrap(),
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
    )
    .await;
    let huge = serde_json::to_vec(&json!({"name": "com.example/big", "description": "x", "version": "1.0.0", "pad": "a".repeat(300 * 1024)})).unwrap();
    assert_problem(
        raw(huge, "application/json", None).send().await.unwrap(),
        StatusCode::PAYLOAD_TOO_LARGE,
    )
    .await;
    assert_problem(
        raw(b"{}".to_vec(), "application/json", Some("none"))
            .send()
            .await
            .unwrap(),
        StatusCode::UNAUTHORIZED,
    )
    .await;
    assert_problem(
        raw(
            b"{}".to_vec(),
            "application/json",
            Some("ghs_not-a-real-token"),
        )
        .send()
        .await
        .unwrap(),
        StatusCode::UNAUTHORIZED,
    )
    .await;

    // Document cases: (document, status, pointer expected in errors).
    let mut missing = npm_server("com.example/missing", "1.0.0");
    missing.as_object_mut().unwrap().remove("description");
    let mut unknown_remote =
        remote_server("com.example/odd", "1.0.0", "https://odd.example.com/mcp");
    unknown_remote["remotes"][0]["type"] = json!("carrier-pigeon");
    let mut latest = npm_server("com.example/latest", "1.0.0");
    latest["version"] = json!("latest");
    let mut range = npm_server("com.example/range", "1.0.0");
    range["version"] = json!("^1.2.0");
    let mut long_desc = npm_server("com.example/long", "1.0.0");
    long_desc["description"] = json!("d".repeat(101));
    let cases: Vec<(&str, Value, StatusCode, Option<&str>)> = vec![
        (
            "missing required field",
            missing,
            StatusCode::UNPROCESSABLE_ENTITY,
            Some(""),
        ),
        (
            "bad name format",
            npm_server("no-slash-here", "1.0.0"),
            StatusCode::UNPROCESSABLE_ENTITY,
            Some("/name"),
        ),
        (
            "description over 100 characters",
            long_desc,
            StatusCode::UNPROCESSABLE_ENTITY,
            Some("/description"),
        ),
        (
            "unknown remote type",
            unknown_remote,
            StatusCode::UNPROCESSABLE_ENTITY,
            Some("/remotes/0"),
        ),
        (
            "name outside the namespace",
            npm_server("org.evil/weather", "1.0.0"),
            StatusCode::FORBIDDEN,
            None,
        ),
        (
            "duplicate version",
            npm_server("com.example/taken", "1.0.0"),
            StatusCode::CONFLICT,
            None,
        ),
        (
            "latest as version",
            latest,
            StatusCode::UNPROCESSABLE_ENTITY,
            Some("/version"),
        ),
        (
            "a version range",
            range,
            StatusCode::UNPROCESSABLE_ENTITY,
            Some("/version"),
        ),
        (
            "remote URL of another server",
            remote_server("com.example/thief", "1.0.0", taken_url),
            StatusCode::CONFLICT,
            None,
        ),
        (
            "plain http to a public host",
            remote_server("com.example/plain", "1.0.0", "http://mcp.example.com/mcp"),
            StatusCode::UNPROCESSABLE_ENTITY,
            Some("/remotes/0/url"),
        ),
        (
            "a JSON array",
            json!([1, 2]),
            StatusCode::UNPROCESSABLE_ENTITY,
            Some(""),
        ),
    ];
    for (what, doc, status, pointer) in cases {
        let body = assert_problem(app.publish(&token, &doc).await, status).await;
        if let Some(pointer) = pointer {
            let errors = body["errors"]
                .as_array()
                .unwrap_or_else(|| panic!("{what}: no errors in {body}"));
            assert!(
                errors.iter().any(|e| e["pointer"]
                    .as_str()
                    .is_some_and(|p| p.starts_with(pointer))),
                "{what}: no error at {pointer} in {body}"
            );
        }
        assert_eq!(
            app.publish_footprint().await,
            before,
            "{what} stored something"
        );
    }
}

async fn the_publisher_api_shows_own_versions_only(backend: crate::helpers::Backend) {
    let app = TestApp::spawn(backend).await;
    let a = app.publisher("a", &["com.a"]).await;
    let b = app.publisher("b", &["com.b"]).await;
    app.publish(&a, &npm_server("com.a/one", "1.0.0")).await;
    app.publish(&b, &npm_server("com.b/two", "1.0.0")).await;
    app.drain_jobs().await;

    let mine: Value = app
        .get("/api/v1/publisher/versions", Some(&a))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(mine["total"], 1);
    assert_eq!(mine["versions"][0]["name"], "com.a/one");
    assert_eq!(mine["versions"][0]["status"], "in_review");

    let detail: Value = app
        .get(
            "/api/v1/publisher/servers/com.a%2Fone/versions/1.0.0",
            Some(&a),
        )
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(detail["status"], "in_review");
    assert_eq!(detail["findings"][0]["rule"], "GH-PRO-005");
    assert_problem(
        app.get(
            "/api/v1/publisher/servers/com.a%2Fone/versions/1.0.0",
            Some(&b),
        )
        .await,
        StatusCode::NOT_FOUND,
    )
    .await;
}
