//! `discovery::call_tool` and `gatehouse call`: one named tool, called over
//! the crawl's session, with the crawl's stream resumption and SSRF policy.

use crate::mcp_fixtures;

use std::net::{IpAddr, Ipv4Addr};
use std::process::Output;
use std::time::Duration;

use gatehouse::discovery::{CrawlOptions, NetPolicy, call_tool};
use gatehouse::snapshot::crawl_codes;
use mcp_fixtures::{FixtureKind, spawn_fixture, spawn_fixture_on};
use serde_json::Value;
use tokio::process::Command;

fn loopback() -> CrawlOptions {
    CrawlOptions {
        network: NetPolicy::allow_all(),
        ..CrawlOptions::default()
    }
}

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
async fn a_call_whose_stream_ends_after_priming_gets_its_answer_on_the_get_after_retry() {
    // Arrange: the call's SSE stream carries `id: call-N`, `retry: 300` and ends.
    let fixture = spawn_fixture(FixtureKind::ResumableSse).await;

    // Act
    let result = call_tool(&fixture.url, "echo", None, &loopback())
        .await
        .unwrap();

    // Assert: the answer came on the resumed stream.
    assert_eq!(result["content"][0]["text"], "resumed call");
    let requests = fixture.requests();
    let call = requests
        .iter()
        .find(|r| r.rpc_method.as_deref() == Some("tools/call"))
        .expect("tools/call was sent");
    let body = call.body.as_ref().unwrap();
    assert_eq!(body["params"]["name"], "echo");
    assert!(body["params"].get("arguments").is_none(), "{body}");
    let get = requests
        .iter()
        .find(|r| r.http_method == "GET")
        .expect("the call's stream was resumed with a GET");
    let last = get.headers.iter().find(|(k, _)| k == "last-event-id");
    assert_eq!(
        last.map(|(_, v)| v.as_str()),
        Some(format!("call-{}", body["id"]).as_str()),
        "{get:?}"
    );
    assert_eq!(get.session_id.as_deref(), Some("resumable-1"));
    assert_eq!(get.protocol_version.as_deref(), Some("2025-11-25"));
    // Not before the server's `retry` (the POST's stream ended at once).
    let waited = get.at.duration_since(call.at);
    assert!(waited >= Duration::from_millis(300), "{waited:?}");
    // Only the named tool, nothing listed, the session closed.
    let methods = fixture.rpc_methods();
    assert_eq!(
        methods.iter().filter(|m| *m == "tools/call").count(),
        1,
        "{methods:?}"
    );
    assert!(!methods.iter().any(|m| m.ends_with("/list")), "{methods:?}");
    assert_eq!(requests.last().unwrap().http_method, "DELETE");
}

#[tokio::test]
async fn gatehouse_call_prints_the_result_and_sends_the_arguments() {
    // Arrange
    let fixture = spawn_fixture(FixtureKind::ResumableSse).await;

    // Act
    let output = gatehouse(
        &[
            "call",
            &fixture.url,
            "echo",
            "--arguments",
            r#"{"city": "Oslo"}"#,
        ],
        true,
    )
    .await;

    // Assert
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let result: Value = serde_json::from_slice(&output.stdout).expect("JSON on stdout");
    assert_eq!(result["content"][0]["text"], "resumed call");
    let call = fixture
        .requests()
        .into_iter()
        .find(|r| r.rpc_method.as_deref() == Some("tools/call"))
        .unwrap();
    assert_eq!(call.body.unwrap()["params"]["arguments"]["city"], "Oslo");
}

#[tokio::test]
async fn gatehouse_call_exits_3_on_an_error_answer_and_2_on_bad_arguments() {
    // Arrange: rmcp's fixture has no tool called `nope`.
    let fixture = spawn_fixture(FixtureKind::ToolsOnly).await;

    // Act
    let failed = gatehouse(&["call", &fixture.url, "nope"], true).await;
    let bad = gatehouse(&["call", &fixture.url, "nope", "--arguments", "[1]"], true).await;

    // Assert
    assert_eq!(
        failed.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&failed.stderr)
    );
    assert!(failed.stdout.is_empty());
    assert_eq!(bad.status.code(), Some(2));
    let calls = fixture
        .rpc_methods()
        .into_iter()
        .filter(|m| m == "tools/call")
        .count();
    assert_eq!(calls, 1, "bad arguments never reach the server");
}

#[tokio::test]
async fn gatehouse_call_refuses_a_private_address_unless_allowed_like_scan() {
    // Arrange
    let fixture = spawn_fixture(FixtureKind::ResumableSse).await;

    // Act
    let output = gatehouse(&["call", &fixture.url, "echo"], false).await;

    // Assert
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("refused by the scan network policy"),
        "{stderr}"
    );
    assert!(fixture.requests().is_empty(), "nothing was sent");
}

#[tokio::test]
async fn call_tool_follows_the_policy_on_resolved_names_too() {
    // Arrange: only 127.0.0.2 is allowed; `localhost` resolves to 127.0.0.1.
    let allowed = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2));
    let options = CrawlOptions {
        network: NetPolicy::from_config(Some("127.0.0.2/32")).unwrap(),
        ..CrawlOptions::default()
    };
    let reachable = spawn_fixture_on(allowed, FixtureKind::ResumableSse).await;
    let refused = spawn_fixture(FixtureKind::ResumableSse).await;
    let by_name = format!("http://localhost:{}/mcp", refused.addr.port());

    // Act
    let ok = call_tool(&reachable.url, "echo", None, &options).await;
    let failure = call_tool(&by_name, "echo", None, &options)
        .await
        .unwrap_err();

    // Assert
    assert_eq!(ok.unwrap()["content"][0]["text"], "resumed call");
    assert_eq!(failure.code, crawl_codes::TRANSPORT);
    assert!(failure.refused(), "{failure}");
    assert!(refused.requests().is_empty());
}
