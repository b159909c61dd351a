//! Request logging (`http::trace`): every request is logged with its method,
//! route template, status and latency, and never with its query string or a
//! header — a token a client put in either stays out of the log.

use std::io::Write;
use std::sync::{Arc, Mutex};

use crate::helpers::{Backend, TestApp};

/// A log sink the test can read.
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

impl Captured {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
}

// A current-thread runtime: the server's tasks run on this thread, where the
// capturing subscriber is the default.
#[tokio::test]
async fn requests_are_logged_by_route_template_without_query_strings_or_tokens() {
    // Arrange
    let captured = Captured::default();
    let sink = captured.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_max_level(tracing::Level::DEBUG)
        .with_ansi(false)
        .with_writer(move || sink.clone())
        .finish();
    let _guard = tracing::subscriber::set_default(subscriber);
    let app = TestApp::spawn(Backend::Sqlite).await;

    // Act: a token in the query string, one in the Authorization header, a name in a path.
    let listed = app
        .get("/v0.1/servers?search=x&token=query-secret-4711", None)
        .await;
    let queued = app
        .get(
            "/api/v1/admin/queue?token=query-secret-4712",
            Some(&app.admin_token),
        )
        .await;
    let refused = app
        .get("/api/v1/admin/queue", Some("ghs_not-a-valid-token-4713"))
        .await;
    let versions = app
        .get(
            "/v0.1/servers/com.example%2Fhidden-name-4714/versions",
            None,
        )
        .await;

    // Assert
    assert_eq!(listed.status(), 200);
    assert_eq!(queued.status(), 200);
    assert_eq!(refused.status(), 401);
    assert_eq!(versions.status(), 404);
    let log = captured.text();
    for expected in [
        r#"route="/v0.1/servers"}"#,
        r#"route="/api/v1/admin/queue"}"#,
        r#"route="/v0.1/servers/{name}/versions"}"#,
        "method=GET",
        "status=200",
        "status=401",
        "latency_us=",
    ] {
        assert!(log.contains(expected), "{expected} not in the log:\n{log}");
    }
    for secret in [
        "query-secret",
        "search=",
        &app.admin_token,
        "ghs_not-a-valid-token",
        "hidden-name",
    ] {
        assert!(
            !log.contains(secret),
            "{secret:?} leaked into the log:\n{log}"
        );
    }
}
