//! Interop with real servers from the official SDKs.
//!
//! - `@modelcontextprotocol/server-everything` (TypeScript SDK), over Streamable
//!   HTTP and over the legacy SSE transport: the crawl must list exactly what the
//!   official TypeScript `Client` lists (`tests/interop/list.mjs`), item by item.
//! - A FastMCP server (Python SDK, `tests/interop/paged_server.py`) serving its
//!   tools over three pages.
//!
//! The peers are installed by `.ci/setup.d/20-mcp-peers.sh`, which exports
//! `GATEHOUSE_INTEROP_DIR`, `GATEHOUSE_INTEROP_NODE` and `GATEHOUSE_INTEROP_PYTHON`;
//! without them the tests look in `tests/interop`. A missing peer prints
//! `SKIPPED: …` on stderr, or fails the test when `GATEHOUSE_REQUIRE_PEERS=1`.

use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use gatehouse::discovery::{CrawlOptions, NetPolicy, TransportChoice, crawl};
use gatehouse::snapshot::Snapshot;
use serde_json::Value;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

/// How long a peer may take to start or the reference client to list.
const PEER_TIMEOUT: Duration = Duration::from_secs(60);

fn interop_dir() -> PathBuf {
    std::env::var_os("GATEHOUSE_INTEROP_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/interop"))
}

/// Skips (or, under `GATEHOUSE_REQUIRE_PEERS=1`, fails) a test whose peer is missing.
fn peer_missing(what: &str) {
    if std::env::var("GATEHOUSE_REQUIRE_PEERS").as_deref() == Ok("1") {
        panic!("{what} is missing and GATEHOUSE_REQUIRE_PEERS=1 (run .ci/setup.d/20-mcp-peers.sh)");
    }
    // Written to the real stderr, past the test harness's capture, so the skip is seen.
    let line = format!(
        "SKIPPED: {what} is missing; run .ci/setup.d/20-mcp-peers.sh to install the interop peers\n"
    );
    let _ = std::io::Write::write_all(&mut std::io::stderr(), line.as_bytes());
}

fn node() -> Option<PathBuf> {
    let node = std::env::var_os("GATEHOUSE_INTEROP_NODE")
        .map(PathBuf::from)
        .unwrap_or_else(|| "node".into());
    let everything =
        interop_dir().join("node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    let works = std::process::Command::new(&node)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    (works && everything.is_file()).then_some(node)
}

fn python() -> Option<PathBuf> {
    let python = std::env::var_os("GATEHOUSE_INTEROP_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| interop_dir().join(".venv/bin/python"));
    let works = std::process::Command::new(&python)
        .args(["-c", "import mcp.server.fastmcp"])
        .output()
        .is_ok_and(|o| o.status.success());
    works.then_some(python)
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Starts a peer with `PORT` set and waits for `ready` on its stderr.
async fn start_peer(program: &PathBuf, args: &[&str], port: u16, ready: &str) -> Child {
    let mut child = Command::new(program)
        .args(args)
        .current_dir(interop_dir())
        .env("PORT", port.to_string())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("start the peer");
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let seen = tokio::time::timeout(PEER_TIMEOUT, async {
        while let Ok(Some(line)) = lines.next_line().await {
            if line.contains(ready) {
                return true;
            }
        }
        false
    })
    .await;
    assert_eq!(seen, Ok(true), "the peer {args:?} did not report {ready:?}");
    // Keep draining stderr so a chatty peer never blocks on a full pipe.
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    child
}

/// The official TypeScript client's listing of `url`.
async fn reference_listing(node: &PathBuf, url: &str, transport: &str) -> Value {
    let output = tokio::time::timeout(
        PEER_TIMEOUT,
        Command::new(node)
            .arg("list.mjs")
            .arg(url)
            .arg(transport)
            .current_dir(interop_dir())
            .output(),
    )
    .await
    .expect("the reference client finished in time")
    .expect("run the reference client");
    assert!(
        output.status.success(),
        "list.mjs failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("list.mjs prints JSON")
}

fn loopback(transport: TransportChoice) -> CrawlOptions {
    CrawlOptions {
        transport,
        network: NetPolicy::allow_all(),
        ..CrawlOptions::default()
    }
}

/// Compares a crawl with the reference listing, item by item.
fn assert_same_listing(snapshot: &Snapshot, reference: &Value) {
    let ours = serde_json::to_value(snapshot).unwrap();
    assert_eq!(ours["serverInfo"], reference["serverInfo"]);
    assert_eq!(ours["capabilities"], reference["capabilities"]);
    assert_eq!(
        ours.get("instructions").unwrap_or(&Value::Null),
        &reference["instructions"]
    );
    for list in ["tools", "resources", "resourceTemplates", "prompts"] {
        let (ours, theirs) = (
            ours[list].as_array().unwrap(),
            reference[list].as_array().unwrap(),
        );
        assert_eq!(ours.len(), theirs.len(), "{list}: count differs");
        for (mine, reference) in ours.iter().zip(theirs) {
            assert_eq!(mine, reference, "{list}: an item differs");
        }
    }
    let errors = &snapshot.crawl.as_ref().unwrap().errors;
    assert!(errors.is_empty(), "{errors:?}");
    assert_honest(snapshot);
}

/// An honest server from the official SDKs draws no high or critical finding.
fn assert_honest(snapshot: &Snapshot) {
    let report = gatehouse::analysis::analyze(
        snapshot,
        &gatehouse::analysis::Context::default(),
        &gatehouse::analysis::RulesConfig::default(),
    );
    let loud: Vec<_> = report
        .findings
        .iter()
        .filter(|f| f.severity >= gatehouse::analysis::Severity::High)
        .collect();
    assert!(loud.is_empty(), "an honest server was flagged: {loud:#?}");
}

#[tokio::test]
async fn the_everything_server_over_streamable_http_lists_as_the_typescript_client_does() {
    // Arrange
    let Some(node) = node() else {
        return peer_missing("node with @modelcontextprotocol/server-everything");
    };
    let port = free_port();
    let _server = start_peer(
        &node,
        &[
            "node_modules/@modelcontextprotocol/server-everything/dist/index.js",
            "streamableHttp",
        ],
        port,
        "listening on port",
    )
    .await;
    let url = format!("http://127.0.0.1:{port}/mcp");
    let reference = reference_listing(&node, &url, "streamable-http").await;

    // Act
    let snapshot = crawl(&url, &loopback(TransportChoice::StreamableHttp))
        .await
        .unwrap();

    // Assert
    assert_same_listing(&snapshot, &reference);
    assert_eq!(snapshot.crawl.unwrap().transport, "streamable-http");
    assert!(!snapshot.tools.is_empty() && !snapshot.prompts.is_empty());
}

#[tokio::test]
async fn the_everything_server_over_sse_lists_as_the_typescript_client_does() {
    // Arrange
    let Some(node) = node() else {
        return peer_missing("node with @modelcontextprotocol/server-everything");
    };
    let port = free_port();
    let _server = start_peer(
        &node,
        &[
            "node_modules/@modelcontextprotocol/server-everything/dist/index.js",
            "sse",
        ],
        port,
        "running on port",
    )
    .await;
    let url = format!("http://127.0.0.1:{port}/sse");
    let reference = reference_listing(&node, &url, "sse").await;

    // Act
    let explicit = crawl(&url, &loopback(TransportChoice::Sse)).await.unwrap();
    let detected = crawl(&url, &loopback(TransportChoice::Auto)).await.unwrap();

    // Assert
    assert_same_listing(&explicit, &reference);
    assert_same_listing(&detected, &reference);
    assert_eq!(explicit.crawl.unwrap().transport, "sse");
    assert_eq!(detected.crawl.unwrap().transport, "sse");
}

#[tokio::test]
async fn a_fastmcp_server_with_three_pages_of_tools_is_crawled_completely() {
    // Arrange
    let Some(python) = python() else {
        return peer_missing("python with the mcp package");
    };
    let Some(node) = node() else {
        return peer_missing("node with @modelcontextprotocol/sdk");
    };
    let port = free_port();
    let _server = start_peer(&python, &["paged_server.py"], port, "Uvicorn running on").await;
    let url = format!("http://127.0.0.1:{port}/mcp");
    let reference = reference_listing(&node, &url, "streamable-http").await;

    // Act
    let snapshot = crawl(&url, &loopback(TransportChoice::Auto)).await.unwrap();

    // Assert
    assert_same_listing(&snapshot, &reference);
    let names: Vec<&str> = snapshot.tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "add", "subtract", "multiply", "upper", "lower", "reverse", "length"
        ]
    );
    assert_eq!(snapshot.crawl.as_ref().unwrap().pages["tools"], 3);
    assert_eq!(snapshot.prompts.len(), 1);
}

/// The Python that imports the official SDK 2.x (`mcp` 2.3.0, `MCPServer`), set
/// up by `.ci/setup.d/21-mcp-modern-peers.sh` in its own virtual environment.
fn modern_python() -> Option<PathBuf> {
    let python = std::env::var_os("GATEHOUSE_INTEROP_MODERN_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| interop_dir().join(".venv-modern/bin/python"));
    let works = std::process::Command::new(&python)
        .args(["-c", "from mcp.server.mcpserver import MCPServer"])
        .output()
        .is_ok_and(|o| o.status.success());
    works.then_some(python)
}

/// The Python SDK 2.x `Client`'s listing of `url` (`tests/interop/modern_list.py`).
async fn modern_reference_listing(python: &PathBuf, url: &str) -> Value {
    let output = tokio::time::timeout(
        PEER_TIMEOUT,
        Command::new(python)
            .arg("modern_list.py")
            .arg(url)
            .current_dir(interop_dir())
            .output(),
    )
    .await
    .expect("the reference client finished in time")
    .expect("run the reference client");
    assert!(
        output.status.success(),
        "modern_list.py failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("modern_list.py prints JSON")
}

/// Crawls the SDK 2.x `MCPServer` (behind the initialize-refusing front when
/// `modern_only`) and compares it with the SDK's own `Client`.
async fn crawl_modern_peer(modern_only: bool) {
    // Arrange
    let Some(python) = modern_python() else {
        return peer_missing("python with mcp 2.3.0 (MCPServer)");
    };
    let port = free_port();
    let args: &[&str] = if modern_only {
        &["modern_server.py", "--modern-only"]
    } else {
        &["modern_server.py"]
    };
    let _server = start_peer(&python, args, port, "Uvicorn running on").await;
    let url = format!("http://127.0.0.1:{port}/mcp");
    let reference = modern_reference_listing(&python, &url).await;

    // Act
    let snapshot = crawl(&url, &loopback(TransportChoice::Auto)).await.unwrap();

    // Assert
    assert_eq!(snapshot.protocol_version.as_deref(), Some("2026-07-28"));
    assert_eq!(reference["protocolVersion"], "2026-07-28");
    let info = snapshot.crawl.as_ref().unwrap();
    assert_eq!(info.era, "modern");
    assert!(info.errors.is_empty(), "{:?}", info.errors);
    assert!(info.cache.contains_key("tools"), "{:?}", info.cache);
    assert_eq!(
        snapshot.supported_versions.as_deref(),
        Some(&["2026-07-28".to_string()][..])
    );
    assert_eq!(
        snapshot.instructions.as_deref(),
        reference["instructions"].as_str()
    );
    assert_eq!(
        snapshot.server_info.as_ref().map(|i| i.name.as_str()),
        Some("gatehouse-interop-modern")
    );
    let ours = serde_json::to_value(&snapshot).unwrap();
    for list in ["tools", "resources", "resourceTemplates", "prompts"] {
        assert_eq!(ours[list], reference[list], "{list} differs");
    }
    assert!(!snapshot.tools.is_empty() && !snapshot.prompts.is_empty());
    assert!(!snapshot.resources.is_empty());
    assert_honest(&snapshot);
}

#[tokio::test]
async fn a_python_sdk_2_mcpserver_is_crawled_at_2026_07_28_as_its_own_client_lists_it() {
    crawl_modern_peer(false).await;
}

#[tokio::test]
async fn a_modern_only_server_that_refuses_initialize_is_crawled_the_same() {
    crawl_modern_peer(true).await;
}
