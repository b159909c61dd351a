//! Crawling honest fixture servers (rmcp and the hand-written legacy SSE server):
//! lifecycle, declared categories only, pagination, headers and both transports.

use crate::mcp_fixtures;

use gatehouse::discovery::{CrawlOptions, EraChoice, NetPolicy, TransportChoice, crawl};
use gatehouse::snapshot::{Snapshot, crawl_codes};
use mcp_fixtures::{Catalogue, FixtureKind, Hostility, catalogue, spawn_fixture};
use serde_json::{Value, json};

/// Options for loopback fixtures: private addresses allowed, everything else default.
fn loopback_options(transport: TransportChoice) -> CrawlOptions {
    CrawlOptions {
        transport,
        network: NetPolicy::allow_all(),
        ..CrawlOptions::default()
    }
}

fn as_json<T: serde::Serialize>(items: &[T]) -> Vec<Value> {
    items
        .iter()
        .map(|i| serde_json::to_value(i).unwrap())
        .collect()
}

/// Asserts that a snapshot holds exactly the fixture catalogue, item by item.
fn assert_matches_catalogue(snapshot: &Snapshot, expected: &Catalogue) {
    assert_eq!(
        serde_json::to_value(snapshot.server_info.as_ref().unwrap()).unwrap(),
        expected.server_info
    );
    assert_eq!(
        snapshot.instructions.as_deref(),
        Some(expected.instructions.as_str())
    );
    assert_eq!(as_json(&snapshot.tools), expected.tools);
    assert_eq!(as_json(&snapshot.resources), expected.resources);
    assert_eq!(
        as_json(&snapshot.resource_templates),
        expected.resource_templates
    );
    assert_eq!(as_json(&snapshot.prompts), expected.prompts);
}

#[tokio::test]
async fn crawl_collects_every_category_across_pages_over_streamable_http_with_sse_bodies() {
    // Arrange
    let fixture = spawn_fixture(FixtureKind::Everything).await;

    // Act
    let snapshot = crawl(
        &fixture.url,
        &loopback_options(TransportChoice::StreamableHttp),
    )
    .await
    .unwrap();

    // Assert
    assert_matches_catalogue(&snapshot, &catalogue());
    let info = snapshot.crawl.as_ref().unwrap();
    assert_eq!(info.transport, "streamable-http");
    assert!(info.errors.is_empty(), "{:?}", info.errors);
    assert_eq!(info.pages["tools"], 3);
    assert_eq!(info.pages["resources"], 2);
    assert_eq!(info.pages["resourceTemplates"], 1);
    assert_eq!(info.pages["prompts"], 1);
    // rmcp serves both eras: the crawl records the modern revision.
    assert_eq!(snapshot.protocol_version.as_deref(), Some("2026-07-28"));
    assert_eq!(info.era, "modern");
}

#[tokio::test]
async fn a_dual_era_server_is_crawled_at_the_modern_revision_without_a_handshake() {
    // Arrange
    let fixture = spawn_fixture(FixtureKind::Everything).await;

    // Act
    let snapshot = crawl(&fixture.url, &loopback_options(TransportChoice::Auto))
        .await
        .unwrap();

    // Assert
    assert_matches_catalogue(&snapshot, &catalogue());
    assert_eq!(snapshot.protocol_version.as_deref(), Some("2026-07-28"));
    assert!(
        snapshot
            .supported_versions
            .as_ref()
            .is_some_and(|v| v.iter().any(|v| v == "2026-07-28")),
        "{:?}",
        snapshot.supported_versions
    );
    // rmcp sends caching hints on its lists but no resultType there; an absent
    // resultType is "complete" (2026-07-28, Basic §ResultType), so nothing is recorded.
    let info = snapshot.crawl.as_ref().unwrap();
    assert!(info.errors.is_empty(), "{:?}", info.errors);
    let tools = &info.cache["tools"];
    assert_eq!(tools.ttl_ms, Some(0));
    assert_eq!(tools.cache_scope.as_deref(), Some("private"));
    assert!(info.cache.contains_key("discover"));
    let requests = fixture.requests();
    assert_eq!(requests[0].rpc_method.as_deref(), Some("server/discover"));
    for request in &requests {
        let method = request.rpc_method.clone().expect("only JSON-RPC POSTs");
        assert_ne!(method, "initialize");
        assert_eq!(
            request.http_method, "POST",
            "no DELETE, no GET: {request:?}"
        );
        assert_eq!(request.session_id, None);
        assert_eq!(request.protocol_version.as_deref(), Some("2026-07-28"));
        let header = request.headers.iter().find(|(k, _)| k == "mcp-method");
        assert_eq!(header.map(|(_, v)| v.as_str()), Some(method.as_str()));
        let meta = &request.body.as_ref().unwrap()["params"]["_meta"];
        assert_eq!(
            meta["io.modelcontextprotocol/protocolVersion"],
            "2026-07-28"
        );
        assert_eq!(
            meta["io.modelcontextprotocol/clientInfo"]["name"],
            "gatehouse"
        );
        assert!(meta["io.modelcontextprotocol/clientCapabilities"].is_object());
    }
}

#[tokio::test]
async fn the_legacy_era_can_be_forced_and_records_the_older_revision() {
    // Arrange
    let fixture = spawn_fixture(FixtureKind::Everything).await;
    let options = CrawlOptions {
        era: EraChoice::Legacy,
        ..loopback_options(TransportChoice::Auto)
    };

    // Act
    let snapshot = crawl(&fixture.url, &options).await.unwrap();

    // Assert
    assert_matches_catalogue(&snapshot, &catalogue());
    assert_eq!(snapshot.protocol_version.as_deref(), Some("2025-11-25"));
    assert_eq!(snapshot.crawl.unwrap().era, "legacy");
    assert_eq!(fixture.rpc_methods()[0], "initialize");
}

#[tokio::test]
async fn an_sse_response_that_ends_early_is_resumed_with_last_event_id_after_retry() {
    // Arrange
    let fixture = spawn_fixture(FixtureKind::ResumableSse).await;
    let started = std::time::Instant::now();

    // Act
    let snapshot = crawl(&fixture.url, &loopback_options(TransportChoice::Auto))
        .await
        .unwrap();

    // Assert
    let names: Vec<&str> = snapshot.tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["resumed"]);
    let get = fixture
        .requests()
        .into_iter()
        .find(|r| r.http_method == "GET")
        .expect("the stream was resumed with a GET");
    let last = get.headers.iter().find(|(k, _)| k == "last-event-id");
    assert!(
        last.is_some_and(|(_, v)| v.starts_with("tools-")),
        "{get:?}"
    );
    assert_eq!(get.session_id.as_deref(), Some("resumable-1"));
    assert!(started.elapsed() >= std::time::Duration::from_millis(300));
}

#[tokio::test]
async fn crawl_reads_json_response_bodies_from_a_stateless_server() {
    // Arrange
    let fixture = spawn_fixture(FixtureKind::EverythingJson).await;

    // Act
    let snapshot = crawl(&fixture.url, &loopback_options(TransportChoice::Auto))
        .await
        .unwrap();

    // Assert
    assert_matches_catalogue(&snapshot, &catalogue());
    assert!(snapshot.crawl.unwrap().errors.is_empty());
}

#[tokio::test]
async fn crawl_follows_the_lifecycle_and_closes_the_session() {
    // Arrange
    let fixture = spawn_fixture(FixtureKind::Everything).await;

    // Act: the older handshake, forced on this dual-era server.
    let options = CrawlOptions {
        era: EraChoice::Legacy,
        ..loopback_options(TransportChoice::StreamableHttp)
    };
    crawl(&fixture.url, &options).await.unwrap();

    // Assert
    let requests = fixture.requests();
    let methods = fixture.rpc_methods();
    assert_eq!(methods[0], "initialize");
    assert_eq!(methods[1], "notifications/initialized");
    let init = requests[0].body.as_ref().unwrap();
    assert_eq!(init["params"]["protocolVersion"], "2025-11-25");
    assert_eq!(init["params"]["clientInfo"]["name"], "gatehouse");
    assert!(init["params"]["clientInfo"]["version"].is_string());
    let session = requests[1]
        .session_id
        .clone()
        .expect("the session id is echoed");
    for later in &requests[1..] {
        assert_eq!(
            later.session_id.as_deref(),
            Some(session.as_str()),
            "{later:?}"
        );
        assert_eq!(
            later.protocol_version.as_deref(),
            Some("2025-11-25"),
            "{later:?}"
        );
    }
    let last = requests.last().unwrap();
    assert_eq!(last.http_method, "DELETE");
    assert!(
        !methods
            .iter()
            .any(|m| m == "tools/call" || m == "resources/read" || m == "prompts/get")
    );
}

#[tokio::test]
async fn a_server_declaring_only_tools_receives_no_resource_or_prompt_request() {
    // Arrange
    let fixture = spawn_fixture(FixtureKind::ToolsOnly).await;

    // Act
    let snapshot = crawl(&fixture.url, &loopback_options(TransportChoice::Auto))
        .await
        .unwrap();

    // Assert
    let methods = fixture.rpc_methods();
    assert!(methods.iter().any(|m| m == "tools/list"));
    assert!(
        !methods
            .iter()
            .any(|m| m.starts_with("resources/") || m.starts_with("prompts/")),
        "{methods:?}"
    );
    assert!(!methods.iter().any(|m| m == "tools/call"));
    assert_eq!(snapshot.tools.len(), catalogue().tools.len());
    assert!(snapshot.resources.is_empty() && snapshot.prompts.is_empty());
}

#[tokio::test]
async fn crawl_speaks_the_legacy_sse_transport_when_asked() {
    // Arrange
    let fixture = spawn_fixture(FixtureKind::LegacySse).await;

    // Act
    let snapshot = crawl(&fixture.url, &loopback_options(TransportChoice::Sse))
        .await
        .unwrap();

    // Assert
    assert_matches_catalogue(&snapshot, &catalogue());
    let info = snapshot.crawl.unwrap();
    assert_eq!(info.transport, "sse");
    assert_eq!(info.pages["tools"], 3);
    assert_eq!(snapshot.protocol_version.as_deref(), Some("2024-11-05"));
}

#[tokio::test]
async fn auto_mode_falls_back_to_legacy_sse_after_a_4xx_to_initialize() {
    // Arrange: the legacy server answers the Streamable HTTP POST to /sse with 405.
    let fixture = spawn_fixture(FixtureKind::LegacySse).await;

    // Act
    let snapshot = crawl(&fixture.url, &loopback_options(TransportChoice::Auto))
        .await
        .unwrap();

    // Assert
    assert_eq!(snapshot.crawl.unwrap().transport, "sse");
    assert_eq!(snapshot.tools.len(), catalogue().tools.len());
    // The modern probe and initialize are both refused before the GET.
    let requests = fixture.requests();
    assert_eq!(requests[0].rpc_method.as_deref(), Some("server/discover"));
    assert_eq!(requests[1].rpc_method.as_deref(), Some("initialize"));
    assert_eq!(
        (requests[1].http_method.as_str(), requests[1].path.as_str()),
        ("POST", "/sse")
    );
    assert_eq!(
        (requests[2].http_method.as_str(), requests[2].path.as_str()),
        ("GET", "/sse")
    );
}

#[tokio::test]
async fn streamable_http_only_does_not_fall_back() {
    // Arrange
    let fixture = spawn_fixture(FixtureKind::LegacySse).await;

    // Act
    let failure = crawl(
        &fixture.url,
        &loopback_options(TransportChoice::StreamableHttp),
    )
    .await
    .unwrap_err();

    // Assert
    assert_eq!(failure.code, crawl_codes::INITIALIZE);
    assert!(fixture.requests().iter().all(|r| r.http_method == "POST"));
}

#[tokio::test]
async fn caller_headers_reach_every_request() {
    // Arrange
    let fixture = spawn_fixture(FixtureKind::ToolsOnly).await;
    let options = CrawlOptions {
        headers: vec![("Authorization".into(), "Bearer fixture-token".into())],
        ..loopback_options(TransportChoice::Auto)
    };

    // Act
    crawl(&fixture.url, &options).await.unwrap();

    // Assert
    for request in fixture.requests() {
        assert!(
            request
                .headers
                .iter()
                .any(|(k, v)| k == "authorization" && v == "Bearer fixture-token"),
            "{request:?}"
        );
    }
}

#[tokio::test]
async fn invalid_duplicate_and_badly_named_tools_are_recorded() {
    // Arrange
    let fixture = spawn_fixture(FixtureKind::Hostile(Hostility::BadItems)).await;

    // Act
    let snapshot = crawl(&fixture.url, &loopback_options(TransportChoice::Auto))
        .await
        .unwrap();

    // Assert
    let names: Vec<&str> = snapshot.tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["dup", "dup", "has space", "fine"]);
    let codes: Vec<&str> = snapshot
        .crawl
        .as_ref()
        .unwrap()
        .errors
        .iter()
        .map(|e| e.code.as_str())
        .collect();
    assert_eq!(
        codes,
        [
            crawl_codes::DUPLICATE_NAME,
            crawl_codes::INVALID_NAME,
            crawl_codes::INVALID_ITEM,
            crawl_codes::INVALID_ITEM
        ]
    );
    let json = serde_json::to_value(&snapshot).unwrap();
    assert_eq!(
        json["crawl"]["errors"][0]["target"],
        json!({"kind": "tool", "name": "dup"})
    );
}

#[tokio::test]
async fn initialize_fields_named_like_snapshot_fields_are_not_kept() {
    // Arrange: the hostile server's initialize result also carries `tools` and `crawl`.
    let fixture = spawn_fixture(FixtureKind::Hostile(Hostility::BadItems)).await;

    // Act
    let snapshot = crawl(&fixture.url, &loopback_options(TransportChoice::Auto))
        .await
        .unwrap();

    // Assert
    let text = serde_json::to_string(&snapshot).unwrap();
    assert!(!text.contains("planted"), "{text}");
    assert_eq!(text.matches("\"crawl\"").count(), 1);
    assert_eq!(snapshot.extra["_meta"], json!({"kept": true}));
}
