//! Stored crawl credentials, end to end (issue 13): a publisher sets them
//! through the API, the worker crawls a server behind OAuth and a secret
//! header with them, and the secret is found nowhere it should not be — not in
//! the database (SQLite file bytes, every PostgreSQL row), not in any API
//! answer or audit entry, not in any log line of the whole cycle, and not at
//! any origin but the server's and its token endpoint's.
//!
//! The whole binary logs at TRACE into one buffer (a global subscriber set
//! before anything else runs), so every test's logs are searched, not just
//! one's.

#[path = "api/helpers.rs"]
#[allow(dead_code)] // shared with the API tests, which use the rest
mod helpers;
#[path = "support/mcp_fixtures.rs"]
mod mcp_fixtures;

use std::io::Write;
use std::net::{IpAddr, Ipv4Addr};
use std::sync::{Arc, Mutex, OnceLock};

use axum::response::IntoResponse;
use helpers::{Backend, TestApp, enc};
use mcp_fixtures::{
    FixtureKind, LoggedRequest, OAUTH_CLIENT_ID, OAUTH_CLIENT_SECRET, spawn_auth_server,
    spawn_fixture,
};
use reqwest::StatusCode;
use serde_json::{Value, json};

/// The secret header value a publisher stores.
const HEADER_SECRET: &str = "hdr-v4lue-that-must-stay-sealed";

/// The authorisation server: another origin than the MCP server.
const AUTH_IP: IpAddr = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2));
/// A host that must never hear from the crawler.
const OTHER_IP: IpAddr = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 3));

const NAME: &str = "com.example/protected";

// ---------------------------------------------------------------- log capture

#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Every log line of this test binary, at TRACE, from every crate.
fn logs() -> &'static Captured {
    static LOGS: OnceLock<Captured> = OnceLock::new();
    LOGS.get_or_init(|| {
        let captured = Captured::default();
        let writer = captured.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_max_level(tracing::Level::TRACE)
            .with_ansi(false)
            .with_writer(move || writer.clone())
            .finish();
        tracing::subscriber::set_global_default(subscriber).expect("first subscriber");
        captured
    })
}

fn log_text() -> String {
    String::from_utf8_lossy(&logs().0.lock().unwrap()).into_owned()
}

// ------------------------------------------------------------------- helpers

/// What a stored secret must never appear as.
fn secret_forms() -> Vec<String> {
    use base64::Engine;
    let b64 = base64::engine::general_purpose::STANDARD;
    vec![
        OAUTH_CLIENT_SECRET.to_string(),
        HEADER_SECRET.to_string(),
        b64.encode(OAUTH_CLIENT_SECRET),
        b64.encode(HEADER_SECRET),
        b64.encode(format!("{OAUTH_CLIENT_ID}:{OAUTH_CLIENT_SECRET}")),
    ]
}

fn assert_no_secret(what: &str, text: &str) {
    for secret in secret_forms() {
        assert!(!text.contains(&secret), "{what} contains a secret: {text}");
    }
}

/// A server.json whose remote declares `X-Api-Key` secret.
fn protected_server(version: &str, url: &str) -> Value {
    json!({
        "$schema": "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
        "name": NAME,
        "description": "A server behind OAuth and an API key",
        "version": version,
        "remotes": [{
            "type": "streamable-http",
            "url": url,
            "headers": [{"name": "X-Api-Key", "description": "API key", "isRequired": true, "isSecret": true}]
        }]
    })
}

fn base() -> String {
    format!("/api/v1/servers/{}/crawl-credentials", enc(NAME))
}

async fn put(app: &TestApp, path: &str, token: &str, body: &Value) -> reqwest::Response {
    app.client
        .put(format!("{}{path}", app.address))
        .bearer_auth(token)
        .json(body)
        .send()
        .await
        .unwrap()
}

async fn delete(app: &TestApp, path: &str, token: &str) -> reqwest::Response {
    app.client
        .delete(format!("{}{path}", app.address))
        .bearer_auth(token)
        .send()
        .await
        .unwrap()
}

async fn set_both(app: &TestApp, token: &str) {
    let r = put(
        app,
        &format!("{}/oauth", base()),
        token,
        &json!({"clientId": OAUTH_CLIENT_ID, "clientSecret": OAUTH_CLIENT_SECRET}),
    )
    .await;
    assert_eq!(r.status(), StatusCode::OK);
    let text = r.text().await.unwrap();
    assert_no_secret("PUT oauth answer", &text);
    let answer: Value = serde_json::from_str(&text).unwrap();
    assert!(answer["rescanned"].is_array(), "{answer:#}");
    let r = put(
        app,
        &format!("{}/headers/X-Api-Key", base()),
        token,
        &json!({"value": HEADER_SECRET}),
    )
    .await;
    assert_eq!(r.status(), StatusCode::OK);
    assert_no_secret("PUT header answer", &r.text().await.unwrap());
}

async fn version_detail(app: &TestApp, version: &str) -> Value {
    app.get(
        &format!("/api/v1/admin/servers/{}/versions/{version}", enc(NAME)),
        Some(&app.admin_token),
    )
    .await
    .json()
    .await
    .unwrap()
}

/// Every stored byte: the SQLite file and its WAL, or every PostgreSQL row as text.
async fn database_dump(app: &TestApp) -> String {
    match app.db.backend() {
        gatehouse::storage::Backend::Sqlite => {
            let mut bytes = Vec::new();
            for entry in std::fs::read_dir(&app.data_dir).unwrap().flatten() {
                let name = entry.file_name().to_string_lossy().into_owned();
                if name.contains(".db") || name.ends_with("-wal") {
                    bytes.extend(std::fs::read(entry.path()).unwrap_or_default());
                }
            }
            assert!(!bytes.is_empty(), "no database file found");
            String::from_utf8_lossy(&bytes).into_owned()
        }
        gatehouse::storage::Backend::Postgres => {
            let tables: Vec<String> = sqlx::query_scalar(
                "SELECT table_name::text FROM information_schema.tables WHERE table_schema = 'public'",
            )
            .fetch_all(app.db.pool())
            .await
            .unwrap();
            let mut text = String::new();
            for table in tables {
                let rows: Vec<String> =
                    sqlx::query_scalar(&format!("SELECT t::text FROM \"{table}\" t"))
                        .fetch_all(app.db.pool())
                        .await
                        .unwrap();
                text.push_str(&rows.join("\n"));
            }
            assert!(text.contains("crawl_credentials") || text.contains(NAME));
            text
        }
    }
}

fn requests_text(requests: &[LoggedRequest]) -> String {
    requests.iter().map(|r| format!("{r:?}\n")).collect()
}

// --------------------------------------------------------------------- tests

async fn a_server_needing_oauth_fails_clearly_then_is_crawled_with_stored_credentials(
    backend: Backend,
) {
    logs();
    // Arrange
    let app = TestApp::spawn(backend).await;
    let auth = spawn_auth_server(AUTH_IP, 3600).await;
    let fixture = spawn_fixture(FixtureKind::OAuthProtected {
        issuer: auth.issuer.clone(),
    })
    .await;
    let publisher = app.publisher("acme", &["com.example"]).await;
    let r = app
        .publish(&publisher, &protected_server("1.0.0", &fixture.url))
        .await;
    assert_eq!(
        r.status(),
        StatusCode::CREATED,
        "{}",
        r.text().await.unwrap()
    );

    // Act 1: no credentials yet.
    app.drain_jobs().await;

    // Assert 1: scan_failed, with the reason and the scopes asked for.
    let detail = version_detail(&app, "1.0.0").await;
    assert_eq!(detail["status"], "scan_failed", "{detail:#}");
    let text = detail.to_string();
    assert!(
        text.contains("requires OAuth; add crawl credentials"),
        "{detail:#}"
    );
    let own: Value = app
        .get(
            &format!("/api/v1/publisher/servers/{}/versions/1.0.0", enc(NAME)),
            Some(&publisher),
        )
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        own["scan"]["error"], "the server requires OAuth; add crawl credentials",
        "{own:#}"
    );
    let scopes = &detail["snapshot"]["crawl"]["auth"]["scopes"];
    assert_eq!(scopes, &json!(["mcp:read"]), "{detail:#}");

    // Act 2: the publisher stores credentials, which queues the failed scan again.
    set_both(&app, &publisher).await;
    app.drain_jobs().await;

    // Assert 2: crawled, the issuer bound, the secrets nowhere.
    let detail = version_detail(&app, "1.0.0").await;
    assert_eq!(detail["status"], "in_review", "{detail:#}");
    let audit = app
        .get("/api/v1/audit?limit=200", Some(&app.admin_token))
        .await
        .text()
        .await
        .unwrap();
    assert!(
        audit.contains("version.rescan"),
        "the rescan is audited: {audit}"
    );
    assert!(!detail["snapshot"]["tools"].as_array().unwrap().is_empty());
    assert_no_secret("version detail", &detail.to_string());
    let summary: Value = app
        .get(&base(), Some(&publisher))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(summary["oauth"]["set"], true);
    assert_eq!(summary["oauth"]["clientId"], OAUTH_CLIENT_ID);
    assert_eq!(summary["oauth"]["issuer"], auth.issuer.as_str());
    assert_eq!(summary["headers"][0]["name"], "x-api-key");
    assert_eq!(summary["headers"][0]["set"], true);
    assert_no_secret("summary", &summary.to_string());
    let audit = app
        .get("/api/v1/audit?limit=200", Some(&app.admin_token))
        .await
        .text()
        .await
        .unwrap();
    assert!(audit.contains("server.crawl_credentials.set"), "{audit}");
    assert!(
        audit.contains("server.crawl_credentials.bind_issuer"),
        "{audit}"
    );
    assert_no_secret("audit log", &audit);
    // The dump is real: what is stored in the clear (the client id) is in it.
    let dump = database_dump(&app).await;
    assert!(
        dump.contains(OAUTH_CLIENT_ID),
        "the dump holds the stored rows"
    );
    assert_no_secret("database", &dump);

    // The header and the token went to the server only; the secret to the token endpoint only.
    let server_side = requests_text(&fixture.requests());
    assert!(server_side.contains(HEADER_SECRET), "the header was sent");
    assert!(!server_side.contains(OAUTH_CLIENT_SECRET));
    let auth_side = requests_text(&auth.requests());
    assert!(!auth_side.contains(HEADER_SECRET), "{auth_side}");
    assert!(!auth_side.contains("issued-"), "{auth_side}");

    // Deleting is audited and leaves "not set".
    assert_eq!(
        delete(&app, &format!("{}/oauth", base()), &publisher)
            .await
            .status(),
        StatusCode::NO_CONTENT
    );
    let summary: Value = app
        .get(&base(), Some(&app.admin_token))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(summary["oauth"], json!({"set": false}));
    let audit = app
        .get("/api/v1/audit?limit=200", Some(&app.admin_token))
        .await
        .text()
        .await
        .unwrap();
    assert!(audit.contains("server.crawl_credentials.delete"), "{audit}");

    // Every log line of the cycle, at TRACE (the capture works: the crawl's own line is there).
    assert!(log_text().contains("crawl finished"), "logs were captured");
    assert_no_secret("logs", &log_text());
    assert!(
        !log_text().contains("issued-1"),
        "an access token was logged"
    );
}

async fn only_the_owner_and_admins_may_manage_crawl_credentials(backend: Backend) {
    logs();
    // Arrange
    let app = TestApp::spawn(backend).await;
    let owner = app.publisher("acme", &["com.example"]).await;
    let other = app.publisher("rival", &["org.rival"]).await;
    let r = app
        .publish(
            &owner,
            &protected_server("1.0.0", "https://mcp.example.com/mcp"),
        )
        .await;
    assert_eq!(
        r.status(),
        StatusCode::CREATED,
        "{}",
        r.text().await.unwrap()
    );
    let oauth = format!("{}/oauth", base());
    let header = format!("{}/headers/x-api-key", base());
    let body = json!({"clientId": "c", "clientSecret": OAUTH_CLIENT_SECRET});

    // Act / Assert: who may set, read and delete.
    for (who, token, set, read, del) in [
        ("other publisher", &other, 404, 404, 404),
        ("reviewer", &app.reviewer_token, 403, 403, 403),
    ] {
        assert_eq!(
            put(&app, &oauth, token, &body).await.status(),
            set,
            "{who} set"
        );
        assert_eq!(
            app.get(&base(), Some(token)).await.status(),
            read,
            "{who} read"
        );
        assert_eq!(
            delete(&app, &oauth, token).await.status(),
            del,
            "{who} delete"
        );
    }
    assert_eq!(
        app.get(&base(), None).await.status(),
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(put(&app, &oauth, &owner, &body).await.status(), 200);
    assert_eq!(
        put(
            &app,
            &header,
            &app.admin_token,
            &json!({"value": HEADER_SECRET})
        )
        .await
        .status(),
        200
    );
    assert_eq!(app.get(&base(), Some(&app.admin_token)).await.status(), 200);
    // The other publisher's and the reviewer's attempts changed nothing.
    let summary: Value = app.get(&base(), Some(&owner)).await.json().await.unwrap();
    assert_eq!(summary["oauth"]["clientId"], "c");
    assert_eq!(summary["oauth"]["setBy"], "publisher:acme");
    assert_eq!(delete(&app, &header, &app.admin_token).await.status(), 204);
    assert_eq!(delete(&app, &header, &app.admin_token).await.status(), 404);

    // A header no version declares secret, a bad key and a bad body are refused
    // with messages that do not repeat what was sent.
    let r = put(
        &app,
        &format!("{}/headers/authorization", base()),
        &owner,
        &json!({"value": HEADER_SECRET}),
    )
    .await;
    assert_eq!(r.status(), 422);
    assert_no_secret("refusal", &r.text().await.unwrap());
    let r = put(
        &app,
        &oauth,
        &owner,
        &json!({"clientId": "c", "privateKey": format!("-----BEGIN PRIVATE KEY-----\n{HEADER_SECRET}\n-----END PRIVATE KEY-----")}),
    )
    .await;
    assert_eq!(r.status(), 422);
    assert_no_secret("refusal", &r.text().await.unwrap());
    let r = put(
        &app,
        &oauth,
        &owner,
        &json!({"clientId": "c", "clientSecret": 12345678987654321u64}),
    )
    .await;
    assert_eq!(r.status(), 400);
    assert!(!r.text().await.unwrap().contains("12345678987654321"));
    assert_no_secret("logs", &log_text());
}

/// A host that answers every request with a redirect to `target`.
async fn spawn_redirector(target: String) -> String {
    let app = axum::Router::new().fallback(move || {
        let target = target.clone();
        async move {
            (
                axum::http::StatusCode::TEMPORARY_REDIRECT,
                [(axum::http::header::LOCATION, target)],
            )
                .into_response()
        }
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    url
}

async fn a_redirect_to_another_origin_receives_no_credential(backend: Backend) {
    logs();
    // Arrange: the registered remote redirects to another host that records requests.
    let app = TestApp::spawn(backend).await;
    let elsewhere = mcp_fixtures::spawn_fixture_on(OTHER_IP, FixtureKind::Everything).await;
    let redirector = spawn_redirector(elsewhere.url.clone()).await;
    let publisher = app.publisher("acme", &["com.example"]).await;
    let r = app
        .publish(&publisher, &protected_server("1.0.0", &redirector))
        .await;
    assert_eq!(
        r.status(),
        StatusCode::CREATED,
        "{}",
        r.text().await.unwrap()
    );
    set_both(&app, &publisher).await;

    // Act
    app.drain_jobs().await;

    // Assert: the crawl stopped at the redirect; the other host heard nothing secret.
    let detail = version_detail(&app, "1.0.0").await;
    assert_eq!(detail["status"], "scan_failed", "{detail:#}");
    assert!(detail.to_string().contains("another origin"), "{detail:#}");
    assert_no_secret("the other origin", &requests_text(&elsewhere.requests()));
    assert!(
        elsewhere.requests().is_empty(),
        "{:?}",
        elsewhere.requests()
    );
}

on_both_backends!(
    a_server_needing_oauth_fails_clearly_then_is_crawled_with_stored_credentials,
    only_the_owner_and_admins_may_manage_crawl_credentials,
    a_redirect_to_another_origin_receives_no_credential,
);
