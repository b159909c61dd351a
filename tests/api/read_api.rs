//! The official read API under `/v0.1`: approved versions only, official
//! shapes, `isLatest`, stable cursor pagination, filters and CORS.

use std::collections::HashSet;

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{Backend, TestApp, assert_problem, enc, npm_server};
use crate::on_both_backends;

on_both_backends!(
    pending_versions_never_appear_and_approved_ones_do,
    is_latest_follows_semver_whatever_the_publication_order,
    a_cursor_walk_returns_each_version_once_while_versions_are_added,
    answers_match_the_official_openapi_schemas,
    search_updated_since_and_latest_filter_the_list,
);

async fn pending_versions_never_appear_and_approved_ones_do(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let token = app.publisher("acme", &["com.example"]).await;
    app.publish(&token, &npm_server("com.example/pending", "1.0.0"))
        .await;
    app.publish_approved(&token, "com.example/approved", &["1.0.0"])
        .await;

    let list: Value = app.get("/v0.1/servers", None).await.json().await.unwrap();
    let names: Vec<&str> = list["servers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["server"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, vec!["com.example/approved"]);
    assert_eq!(
        app.get("/v0.1/servers/com.example%2Fpending/versions", None)
            .await
            .status(),
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        app.get("/v0.1/servers/com.example%2Fpending/versions/1.0.0", None)
            .await
            .status(),
        StatusCode::NOT_FOUND
    );
    let one: Value = app
        .get("/v0.1/servers/com.example%2Fapproved/versions/1.0.0", None)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(one["server"]["version"], "1.0.0");
    assert_eq!(
        one["_meta"]["io.modelcontextprotocol.registry/official"]["status"],
        "active"
    );

    // Revoking takes it out again.
    let r = app
        .post(
            "/api/v1/admin/servers/com.example%2Fapproved/versions/1.0.0/revoke",
            Some(&app.admin_token),
            Some(&json!({"reason": "compromised"})),
        )
        .await;
    assert_eq!(r.status(), StatusCode::OK);
    let list: Value = app.get("/v0.1/servers", None).await.json().await.unwrap();
    assert_eq!(list["servers"], json!([]));
}

async fn is_latest_follows_semver_whatever_the_publication_order(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let token = app.publisher("acme", &["com.example"]).await;
    let name = "com.example/semver";
    app.publish_approved(&token, name, &["1.10.0", "2.0.0-beta.1", "1.0.0", "1.9.0"])
        .await;

    let latest_of = |list: &Value| -> Vec<String> {
        list["servers"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| {
                s["_meta"]["io.modelcontextprotocol.registry/official"]["isLatest"] == json!(true)
            })
            .map(|s| s["server"]["version"].as_str().unwrap().to_string())
            .collect()
    };
    let all: Value = app
        .get(&format!("/v0.1/servers/{}/versions", enc(name)), None)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(all["servers"].as_array().unwrap().len(), 4);
    // The official registry orders by semver, where 2.0.0-beta.1 > 1.10.0 > 1.9.0.
    assert_eq!(latest_of(&all), vec!["2.0.0-beta.1"]);
    let latest: Value = app
        .get(
            &format!("/v0.1/servers/{}/versions/latest", enc(name)),
            None,
        )
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(latest["server"]["version"], "2.0.0-beta.1");

    // Revoking the pre-release makes 1.10.0 (not 1.9.0: numeric, not text order) the latest.
    app.post(
        &format!(
            "/api/v1/admin/servers/{}/versions/2.0.0-beta.1/revoke",
            enc(name)
        ),
        Some(&app.admin_token),
        Some(&json!({"reason": "pulled"})),
    )
    .await;
    let all: Value = app
        .get(&format!("/v0.1/servers/{}/versions", enc(name)), None)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(latest_of(&all), vec!["1.10.0"]);
    let filtered: Value = app
        .get("/v0.1/servers?version=latest", None)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(latest_of(&filtered), vec!["1.10.0"]);
    assert_eq!(filtered["servers"].as_array().unwrap().len(), 1);
}

async fn a_cursor_walk_returns_each_version_once_while_versions_are_added(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let token = app.publisher("acme", &["com.example"]).await;
    let mut expected = HashSet::new();
    for i in 0..250 {
        let name = format!("com.example/s{:03}", (i * 37) % 250);
        let version = format!("1.0.{}", i % 3);
        let r = app.publish(&token, &npm_server(&name, &version)).await;
        assert_eq!(r.status(), StatusCode::CREATED);
        expected.insert((name, version));
    }
    app.drain_jobs().await;
    for (name, version) in &expected {
        assert_eq!(app.approve(name, version).await.status(), StatusCode::OK);
    }

    let mut seen = Vec::new();
    let mut cursor: Option<String> = None;
    let mut page = 0;
    loop {
        let path = match &cursor {
            Some(c) => format!("/v0.1/servers?limit=20&cursor={c}"),
            None => "/v0.1/servers?limit=20".to_string(),
        };
        let body: Value = app.get(&path, None).await.json().await.unwrap();
        for s in body["servers"].as_array().unwrap() {
            seen.push((
                s["server"]["name"].as_str().unwrap().to_string(),
                s["server"]["version"].as_str().unwrap().to_string(),
            ));
        }
        // Meanwhile new versions are published and approved, before and after the cursor.
        page += 1;
        let fresh = [
            format!("com.example/a-new{page}"),
            format!("com.example/z-new{page}"),
        ];
        for n in &fresh {
            app.publish_approved(&token, n, &["9.9.9"]).await;
        }
        match body["metadata"]["nextCursor"].as_str() {
            Some(c) => cursor = Some(c.to_string()),
            None => break,
        }
    }
    let unique: HashSet<_> = seen.iter().cloned().collect();
    assert_eq!(unique.len(), seen.len(), "a version was returned twice");
    assert!(
        expected.is_subset(&unique),
        "{} of the 250 versions were not returned",
        expected.difference(&unique).count()
    );
}

/// Compiles a schema of `components.schemas` of the vendored official OpenAPI file.
fn openapi_validator(schema_name: &str) -> jsonschema::Validator {
    let yaml =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/schemas/openapi.yaml"))
            .unwrap();
    let doc: Value = serde_norway::from_str(&yaml).unwrap();
    let schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$ref": format!("#/components/schemas/{schema_name}"),
        "components": doc["components"],
    });
    jsonschema::validator_for(&schema).unwrap()
}

async fn answers_match_the_official_openapi_schemas(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let token = app.publisher("acme", &["com.example"]).await;
    app.publish_approved(&token, "com.example/weather", &["1.0.0", "1.1.0"])
        .await;
    let list_schema = openapi_validator("ServerList");
    let one_schema = openapi_validator("ServerResponse");

    for path in [
        "/v0.1/servers",
        "/v0.1/servers?limit=1",
        "/v0.1/servers/com.example%2Fweather/versions",
    ] {
        let body: Value = app.get(path, None).await.json().await.unwrap();
        let errors: Vec<String> = list_schema
            .iter_errors(&body)
            .map(|e| e.to_string())
            .collect();
        assert!(errors.is_empty(), "{path}: {errors:?}");
    }
    for path in [
        "/v0.1/servers/com.example%2Fweather/versions/1.0.0",
        "/v0.1/servers/com.example%2Fweather/versions/latest",
    ] {
        let body: Value = app.get(path, None).await.json().await.unwrap();
        let errors: Vec<String> = one_schema
            .iter_errors(&body)
            .map(|e| e.to_string())
            .collect();
        assert!(errors.is_empty(), "{path}: {errors:?}");
    }
    // A schema violation is detected (the validator is not vacuous).
    assert!(!one_schema.is_valid(&json!({"server": {}})));
}

async fn search_updated_since_and_latest_filter_the_list(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let token = app.publisher("acme", &["com.example"]).await;
    app.publish_approved(&token, "com.example/Weather-Pro", &["1.0.0"])
        .await;
    app.publish_approved(&token, "com.example/calendar", &["1.0.0"])
        .await;

    let found: Value = app
        .get("/v0.1/servers?search=weather", None)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(found["servers"].as_array().unwrap().len(), 1);
    let none: Value = app
        .get("/v0.1/servers?search=%25", None)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(none["servers"], json!([]), "LIKE wildcards are literal");

    let future: Value = app
        .get("/v0.1/servers?updated_since=2999-01-01T00:00:00Z", None)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(future["servers"], json!([]));
    let past: Value = app
        .get("/v0.1/servers?updated_since=2000-01-01T00:00:00Z", None)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(past["servers"].as_array().unwrap().len(), 2);

    assert_problem(
        app.get("/v0.1/servers?updated_since=yesterday", None).await,
        StatusCode::BAD_REQUEST,
    )
    .await;
    assert_problem(
        app.get("/v0.1/servers?limit=500", None).await,
        StatusCode::BAD_REQUEST,
    )
    .await;
    assert_problem(
        app.get("/v0.1/servers?cursor=garbage", None).await,
        StatusCode::BAD_REQUEST,
    )
    .await;

    let cors = app
        .client
        .get(format!("{}/v0.1/servers", app.address))
        .header("origin", "https://elsewhere.example")
        .send()
        .await
        .unwrap();
    assert_eq!(cors.headers()["access-control-allow-origin"], "*");
}
