//! The stdio transport: a server started as a child process is crawled with
//! the same era negotiation as over HTTP — `server/discover` first, then
//! `initialize` for an older server — and its lists are read as over HTTP.
//! The fixture (`tests/fixtures/stdio/server.py`, standard library only)
//! writes every method it receives to a log, so the order is checked.

use std::path::PathBuf;
use std::time::Duration;

use gatehouse::discovery::{CrawlLimits, CrawlOptions, crawl_stdio};

/// `python3 server.py MODE LOG`, or `None` (skipped loudly) without python3.
fn fixture(mode: &str, log: &std::path::Path) -> Option<Vec<String>> {
    let works = std::process::Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !works {
        if std::env::var("GATEHOUSE_REQUIRE_PEERS").as_deref() == Ok("1") {
            panic!("python3 is missing and GATEHOUSE_REQUIRE_PEERS=1");
        }
        let line = "SKIPPED: python3 is missing; the stdio fixture server cannot run\n";
        let _ = std::io::Write::write_all(&mut std::io::stderr(), line.as_bytes());
        return None;
    }
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/stdio/server.py");
    Some(vec![
        "python3".into(),
        script.display().to_string(),
        mode.into(),
        log.display().to_string(),
    ])
}

fn received(log: &std::path::Path) -> Vec<String> {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect()
}

#[tokio::test]
async fn an_older_stdio_server_is_probed_with_server_discover_then_initialised() {
    // Arrange
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("methods.log");
    let Some(command) = fixture("legacy", &log) else {
        return;
    };

    // Act
    let snapshot = crawl_stdio(&command, &CrawlOptions::default())
        .await
        .unwrap();

    // Assert
    assert_eq!(
        received(&log),
        [
            "server/discover",
            "initialize",
            "response",
            "notifications/initialized",
            "tools/list"
        ],
        "the probe comes first; the server's roots/list request is answered"
    );
    let crawl = snapshot.crawl.as_ref().unwrap();
    assert_eq!(
        (crawl.era.as_str(), crawl.transport.as_str()),
        ("legacy", "stdio")
    );
    assert_eq!(snapshot.protocol_version.as_deref(), Some("2025-11-25"));
    assert_eq!(snapshot.tools.len(), 2);
    assert!(crawl.errors.is_empty(), "{:?}", crawl.errors);
}

#[tokio::test]
async fn a_modern_stdio_server_is_crawled_without_initialize() {
    // Arrange
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("methods.log");
    let Some(command) = fixture("modern", &log) else {
        return;
    };

    // Act
    let snapshot = crawl_stdio(&command, &CrawlOptions::default())
        .await
        .unwrap();

    // Assert
    assert_eq!(received(&log), ["server/discover", "tools/list"]);
    let crawl = snapshot.crawl.as_ref().unwrap();
    assert_eq!(crawl.era, "modern");
    assert_eq!(snapshot.protocol_version.as_deref(), Some("2026-07-28"));
    assert_eq!(snapshot.tools.len(), 2);
    assert!(crawl.errors.is_empty(), "{:?}", crawl.errors);
}

#[tokio::test]
async fn a_stdio_server_silent_to_the_probe_falls_back_after_the_request_timeout() {
    // Arrange
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("methods.log");
    let Some(command) = fixture("silent", &log) else {
        return;
    };
    let options = CrawlOptions {
        limits: CrawlLimits {
            request_timeout: Duration::from_millis(500),
            ..CrawlLimits::default()
        },
        ..CrawlOptions::default()
    };

    // Act
    let snapshot = crawl_stdio(&command, &options).await.unwrap();

    // Assert
    assert_eq!(received(&log)[..2], ["server/discover", "initialize"]);
    assert_eq!(snapshot.crawl.as_ref().unwrap().era, "legacy");
    assert_eq!(snapshot.tools.len(), 2);
}

#[tokio::test]
async fn a_command_that_cannot_start_is_a_clear_failure() {
    let failure = crawl_stdio(
        &["/nonexistent/mcp-server".to_string()],
        &CrawlOptions::default(),
    )
    .await
    .unwrap_err();
    assert!(failure.message.contains("starting"), "{failure}");
}
