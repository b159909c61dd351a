//! `gatehouse scan URL` end to end: the real binary crawling fixture servers.

use crate::mcp_fixtures;

use std::process::Output;

use mcp_fixtures::{FixtureKind, Hostility, catalogue, spawn_fixture};
use serde_json::Value;
use tokio::process::Command;

/// Runs the binary with `args`; `allow_private` sets `GATEHOUSE_SCAN_ALLOW_PRIVATE=1`.
async fn gatehouse(args: &[&str], allow_private: bool) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_gatehouse"));
    command
        .args(args)
        .env_remove("GATEHOUSE_SCAN_ALLOW_PRIVATE")
        .env("GATEHOUSE_DATA_DIR", std::env::temp_dir());
    if allow_private {
        command.env("GATEHOUSE_SCAN_ALLOW_PRIVATE", "1");
    }
    command.output().await.expect("run gatehouse")
}

#[tokio::test]
async fn scan_prints_the_report_with_the_crawled_snapshot_as_json() {
    // Arrange
    let fixture = spawn_fixture(FixtureKind::Everything).await;

    // Act
    let output = gatehouse(&["scan", &fixture.url, "--format", "json"], true).await;

    // Assert
    assert_ne!(
        output.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report: Value = serde_json::from_slice(&output.stdout).expect("JSON on stdout");
    assert_eq!(report["server"]["name"], "gatehouse-fixture");
    let snapshot = &report["snapshot"];
    assert_eq!(
        snapshot["tools"].as_array().unwrap().len(),
        catalogue().tools.len()
    );
    assert_eq!(snapshot["crawl"]["transport"], "streamable-http");
}

#[tokio::test]
async fn scan_passes_headers_and_the_transport_choice() {
    // Arrange
    let fixture = spawn_fixture(FixtureKind::LegacySse).await;

    // Act
    let output = gatehouse(
        &[
            "scan",
            &fixture.url,
            "--transport",
            "sse",
            "--header",
            "X-Scan: yes",
            "--format",
            "json",
        ],
        true,
    )
    .await;

    // Assert
    assert_ne!(
        output.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["snapshot"]["crawl"]["transport"], "sse");
    assert!(
        fixture
            .requests()
            .iter()
            .all(|r| r.headers.iter().any(|(k, v)| k == "x-scan" && v == "yes"))
    );
    assert!(
        fixture
            .requests()
            .iter()
            .all(|r| r.path == "/sse" || r.path == "/message")
    );
}

#[tokio::test]
async fn scan_exits_2_when_the_network_policy_refuses_the_server() {
    // Arrange
    let fixture = spawn_fixture(FixtureKind::ToolsOnly).await;

    // Act
    let output = gatehouse(&["scan", &fixture.url], false).await;

    // Assert
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("refused by the scan network policy"));
    assert!(fixture.requests().is_empty());
}

#[tokio::test]
async fn scan_exits_2_on_a_malformed_header() {
    // Act
    let output = gatehouse(
        &["scan", "http://127.0.0.1:9/mcp", "--header", "no colon"],
        true,
    )
    .await;

    // Assert
    assert_eq!(output.status.code(), Some(2));
}

/// Runs the binary against `url` with the default bounds and returns its exit
/// code and peak RSS in bytes, as the kernel accounted them (wait4's rusage).
#[allow(
    clippy::zombie_processes,
    reason = "the child is reaped by wait4, which std cannot do"
)]
async fn scan_peak_rss(url: &str) -> (Option<i32>, u64) {
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_gatehouse"))
        .args(["scan", url, "--format", "json"])
        .env("GATEHOUSE_SCAN_ALLOW_PRIVATE", "1")
        .env("GATEHOUSE_DATA_DIR", std::env::temp_dir())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("run gatehouse");
    let pid = child.id() as libc::pid_t;
    // wait4 blocks, and the fixture serving the scan runs on this runtime.
    tokio::task::spawn_blocking(move || {
        let mut status = 0;
        // SAFETY: zeroed rusage is a valid value of this plain C struct.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: `pid` is our own child, not yet reaped (the Child is never waited on).
        let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        assert_eq!(reaped, pid, "wait4 failed");
        let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
        // ru_maxrss is in KiB on Linux.
        let peak = usage.ru_maxrss as u64 * 1024;
        eprintln!("gatehouse scan peak RSS: {:.1} MB", peak as f64 / 1e6);
        (code, peak)
    })
    .await
    .unwrap()
}

#[tokio::test]
async fn the_scan_process_stays_under_200_mb_against_a_one_gib_body() {
    // Arrange
    let fixture = spawn_fixture(FixtureKind::Hostile(Hostility::HugeBody)).await;

    // Act
    let (code, peak) = scan_peak_rss(&fixture.url).await;

    // Assert: the process exits on its own (no OOM kill), and since the bound
    // left the declared tools list unread, it reports a crawl error.
    assert_eq!(
        code,
        Some(2),
        "a bound hit on a declared list is a crawl error"
    );
    assert!(peak < 200 << 20, "peak RSS {peak} bytes");
}

#[tokio::test]
async fn the_scan_process_stays_under_200_mb_against_pages_of_wide_arrays() {
    // Arrange
    let fixture = spawn_fixture(FixtureKind::Hostile(Hostility::WideArrays)).await;

    // Act
    let (code, peak) = scan_peak_rss(&fixture.url).await;

    // Assert: the process exits on its own (no OOM kill), and since the bound
    // left the declared tools list unread, it reports a crawl error.
    assert_eq!(
        code,
        Some(2),
        "a bound hit on a declared list is a crawl error"
    );
    assert!(peak < 200 << 20, "peak RSS {peak} bytes");
}

#[tokio::test]
async fn scan_of_a_file_that_is_not_a_snapshot_exits_2() {
    // Arrange: `{}`, a saved report, and a snapshot with a repeated key.
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("empty.json", "{}".to_string(), "not a snapshot"),
        (
            "report.json",
            r#"{"server": {"name": "x", "version": "1"}, "summary": {"maxSeverity": null, "counts": {}}, "findings": []}"#.to_string(),
            "saved report",
        ),
        (
            "dup.json",
            r#"{"tools": [], "tools": [{"name": "x", "inputSchema": {}}]}"#.to_string(),
            "/tools",
        ),
        ("list.json", "[]".to_string(), "not a snapshot"),
    ];
    for (file, text, words) in cases {
        let path = dir.path().join(file);
        std::fs::write(&path, text).unwrap();

        // Act
        let out = gatehouse(&["scan", "--snapshot", path.to_str().unwrap()], false).await;

        // Assert
        assert_eq!(out.status.code(), Some(2), "{file}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(words), "{file}: {stderr}");
        assert!(!String::from_utf8_lossy(&out.stdout).contains("0 findings"));
    }
}

#[tokio::test]
async fn scan_exits_2_when_a_declared_list_could_not_be_read() {
    // Arrange: prompts are declared, and prompts/list fails.
    let fixture = spawn_fixture(FixtureKind::Hostile(Hostility::FailingPrompts)).await;

    // Act
    let out = gatehouse(&["scan", &fixture.url, "--format", "json"], true).await;

    // Assert
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("prompts") && stderr.contains("could not be read"),
        "{stderr}"
    );
    let report: Value = serde_json::from_slice(&out.stdout).expect("the report is still printed");
    assert_eq!(report["snapshot"]["crawl"]["unread"][0], "prompts");
}
