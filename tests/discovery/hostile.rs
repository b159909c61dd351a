//! Hostile fixture servers: every one must end in a bounded, recorded failure
//! inside the deadline, with the process staying under 200 MB of resident memory.

use crate::mcp_fixtures;

use std::time::{Duration, Instant};

use gatehouse::discovery::{CrawlLimits, CrawlOptions, NetPolicy, crawl};
use gatehouse::snapshot::{CrawlError, Snapshot, crawl_codes};
use mcp_fixtures::{FixtureKind, Hostility, peak_rss_bytes, spawn_fixture};

const RSS_CEILING: u64 = 200 << 20;

/// Small bounds so each hostile case ends in seconds.
fn small_limits() -> CrawlLimits {
    CrawlLimits {
        request_timeout: Duration::from_secs(2),
        deadline: Duration::from_secs(5),
        max_message_bytes: 1 << 20,
        max_crawl_bytes: 8 << 20,
        max_pages: 20,
        max_items: 1_000,
        ..CrawlLimits::default()
    }
}

fn options(limits: CrawlLimits) -> CrawlOptions {
    CrawlOptions {
        network: NetPolicy::allow_all(),
        limits,
        ..CrawlOptions::default()
    }
}

/// Crawls a hostile fixture and returns the snapshot and the wall time.
async fn crawl_hostile(hostility: Hostility, limits: CrawlLimits) -> (Snapshot, Duration) {
    let fixture = spawn_fixture(FixtureKind::Hostile(hostility)).await;
    let started = Instant::now();
    let snapshot = crawl(&fixture.url, &options(limits))
        .await
        .expect("initialize succeeded");
    (snapshot, started.elapsed())
}

fn errors(snapshot: &Snapshot) -> &[CrawlError] {
    &snapshot
        .crawl
        .as_ref()
        .expect("a live crawl has crawl info")
        .errors
}

/// Asserts one recorded error with `code` whose message mentions `words`, and the memory ceiling.
fn assert_recorded(snapshot: &Snapshot, code: &str, words: &str) {
    let found = errors(snapshot)
        .iter()
        .any(|e| e.code == code && e.message.contains(words));
    assert!(
        found,
        "expected a {code:?} error mentioning {words:?}, got {:?}",
        errors(snapshot)
    );
    assert!(
        peak_rss_bytes() < RSS_CEILING,
        "peak RSS {} bytes",
        peak_rss_bytes()
    );
}

#[tokio::test]
async fn endless_pagination_stops_at_the_page_bound() {
    // Arrange
    let limits = small_limits();

    // Act
    let (snapshot, elapsed) = crawl_hostile(Hostility::EndlessPagination, limits.clone()).await;

    // Assert
    assert_recorded(&snapshot, crawl_codes::BOUND, "more than 20 pages");
    assert_eq!(snapshot.tools.len(), 20);
    assert_eq!(snapshot.crawl.as_ref().unwrap().pages["tools"], 20);
    assert!(elapsed < limits.deadline);
}

#[tokio::test]
async fn endless_pagination_stops_at_the_item_bound() {
    // Arrange
    let limits = CrawlLimits {
        max_items: 5,
        ..small_limits()
    };

    // Act
    let (snapshot, _) = crawl_hostile(Hostility::EndlessPagination, limits).await;

    // Assert
    assert_recorded(&snapshot, crawl_codes::BOUND, "more than 5 items");
    assert_eq!(snapshot.tools.len(), 5);
}

#[tokio::test]
async fn a_repeated_cursor_is_detected_on_its_first_repeat() {
    // Act
    let (snapshot, _) = crawl_hostile(Hostility::RepeatedCursor, small_limits()).await;

    // Assert
    assert_recorded(&snapshot, crawl_codes::BOUND, "repeated a cursor");
    assert_eq!(snapshot.crawl.as_ref().unwrap().pages["tools"], 2);
}

#[tokio::test]
async fn a_one_gib_body_is_cut_at_the_default_message_bound() {
    // Arrange: the default bounds (4 MiB a message).
    let limits = CrawlLimits::default();

    // Act
    let (snapshot, elapsed) = crawl_hostile(Hostility::HugeBody, limits).await;

    // Assert
    assert_recorded(&snapshot, crawl_codes::BOUND, "exceeded 4194304 bytes");
    assert!(elapsed < Duration::from_secs(10), "{elapsed:?}");
}

#[tokio::test]
async fn a_one_gib_body_is_cut_at_the_crawl_bound_when_that_is_smaller() {
    // Arrange
    let limits = CrawlLimits {
        max_message_bytes: 8 << 20,
        max_crawl_bytes: 2 << 20,
        ..small_limits()
    };

    // Act
    let (snapshot, _) = crawl_hostile(Hostility::HugeBody, limits).await;

    // Assert
    assert_recorded(
        &snapshot,
        crawl_codes::BOUND,
        "the crawl read more than 2097152 bytes",
    );
}

#[tokio::test]
async fn a_one_byte_per_second_drip_ends_at_the_request_timeout() {
    // Arrange
    let limits = small_limits();

    // Act
    let (snapshot, elapsed) = crawl_hostile(Hostility::Drip, limits.clone()).await;

    // Assert
    assert_recorded(
        &snapshot,
        crawl_codes::BOUND,
        "no complete answer to tools/list within 2 s",
    );
    assert!(
        elapsed >= limits.request_timeout && elapsed < limits.deadline,
        "{elapsed:?}"
    );
}

#[tokio::test]
async fn a_drip_longer_than_the_deadline_ends_at_the_deadline() {
    // Arrange
    let limits = CrawlLimits {
        request_timeout: Duration::from_secs(30),
        deadline: Duration::from_secs(2),
        ..small_limits()
    };

    // Act
    let (snapshot, elapsed) = crawl_hostile(Hostility::Drip, limits).await;

    // Assert
    assert_recorded(&snapshot, crawl_codes::BOUND, "deadline");
    assert!(elapsed < Duration::from_secs(5), "{elapsed:?}");
}

#[tokio::test]
async fn invalid_json_is_recorded_as_an_invalid_response() {
    // Act
    let (snapshot, _) = crawl_hostile(Hostility::InvalidJson, small_limits()).await;

    // Assert
    assert_recorded(&snapshot, crawl_codes::INVALID_RESPONSE, "not valid JSON");
    assert!(snapshot.tools.is_empty());
}

#[tokio::test]
async fn a_hundred_thousand_deep_document_hits_the_depth_bound() {
    // Act
    let (snapshot, _) = crawl_hostile(Hostility::DeepNesting, small_limits()).await;

    // Assert
    assert_recorded(&snapshot, crawl_codes::BOUND, "nested deeper than 64");
}

#[tokio::test]
async fn an_unsupported_protocol_version_is_recorded_and_nothing_is_listed() {
    // Arrange
    let fixture = spawn_fixture(FixtureKind::Hostile(Hostility::UnsupportedVersion)).await;

    // Act
    let snapshot = crawl(&fixture.url, &options(small_limits())).await.unwrap();

    // Assert
    assert_recorded(&snapshot, crawl_codes::PROTOCOL_VERSION, "\"1999-01-01\"");
    assert_eq!(snapshot.protocol_version.as_deref(), Some("1999-01-01"));
    assert_eq!(fixture.rpc_methods(), ["server/discover", "initialize"]);
}

#[tokio::test]
async fn no_answer_to_initialize_is_a_crawl_failure_at_the_request_timeout() {
    // Arrange
    let fixture = spawn_fixture(FixtureKind::Hostile(Hostility::SilentInitialize)).await;
    let limits = small_limits();
    let started = Instant::now();

    // Act
    let failure = crawl(&fixture.url, &options(limits.clone()))
        .await
        .unwrap_err();

    // Assert
    assert_eq!(failure.code, crawl_codes::BOUND);
    assert!(failure.retryable);
    assert!(failure.message.contains("initialize"), "{failure}");
    let elapsed = started.elapsed();
    assert!(
        elapsed >= limits.request_timeout && elapsed < limits.deadline,
        "{elapsed:?}"
    );
}

#[tokio::test]
async fn an_sse_stream_that_never_answers_ends_at_the_request_timeout() {
    // Act
    let (snapshot, elapsed) = crawl_hostile(Hostility::EndlessSse, small_limits()).await;

    // Assert
    assert_recorded(
        &snapshot,
        crawl_codes::BOUND,
        "no complete answer to tools/list",
    );
    assert!(elapsed < small_limits().deadline);
}

#[tokio::test]
async fn an_sse_stream_that_never_answers_ends_at_the_crawl_byte_bound_when_that_comes_first() {
    // Arrange: 16 KiB is about 130 notifications (under a second); the time
    // bounds are far away so that only the byte bound can end the crawl, however
    // loaded the machine.
    let limits = CrawlLimits {
        max_crawl_bytes: 16 << 10,
        request_timeout: Duration::from_secs(30),
        deadline: Duration::from_secs(60),
        ..small_limits()
    };

    // Act
    let (snapshot, _) = crawl_hostile(Hostility::EndlessSse, limits).await;

    // Assert
    assert_recorded(
        &snapshot,
        crawl_codes::BOUND,
        "the crawl read more than 16384 bytes",
    );
}

#[tokio::test]
async fn a_one_gib_sse_line_is_cut_at_the_message_bound() {
    // Act
    let (snapshot, _) = crawl_hostile(Hostility::HugeSseEvent, small_limits()).await;

    // Assert
    assert_recorded(
        &snapshot,
        crawl_codes::BOUND,
        "an SSE line exceeded 1048576 bytes",
    );
}

#[tokio::test]
async fn a_declared_list_that_fails_is_recorded_and_the_rest_is_kept() {
    // Act
    let (snapshot, _) = crawl_hostile(Hostility::FailingPrompts, small_limits()).await;

    // Assert
    assert_recorded(
        &snapshot,
        crawl_codes::LIST_FAILED,
        "prompts/list: JSON-RPC error -32601",
    );
    assert_eq!(snapshot.tools.len(), 1);
}

#[tokio::test]
async fn pages_of_wide_arrays_stop_at_the_json_value_budget_under_the_memory_ceiling() {
    // Arrange: the default bounds; each 1.2 MB page fits every byte bound.
    let limits = CrawlLimits::default();

    // Act
    let (snapshot, _) = crawl_hostile(Hostility::WideArrays, limits).await;

    // Assert: the second page takes the crawl past 1,000,000 values; the first is kept.
    assert_recorded(&snapshot, crawl_codes::BOUND, "more than 1000000 values");
    assert_eq!(snapshot.tools.len(), 1);
}

// ---------------------------------------------------------------------------
// The same bounds on the modern path (MCP 2026-07-28: server/discover, no handshake)
// ---------------------------------------------------------------------------

/// Crawls a modern-only hostile fixture and returns the snapshot and the wall time.
async fn crawl_hostile_modern(hostility: Hostility, limits: CrawlLimits) -> (Snapshot, Duration) {
    let fixture = spawn_fixture(FixtureKind::HostileModern(hostility)).await;
    let started = Instant::now();
    let snapshot = crawl(&fixture.url, &options(limits))
        .await
        .expect("server/discover succeeded");
    assert_eq!(snapshot.crawl.as_ref().unwrap().era, "modern");
    assert!(!fixture.rpc_methods().iter().any(|m| m == "initialize"));
    (snapshot, started.elapsed())
}

#[tokio::test]
async fn modern_endless_pagination_stops_at_the_page_bound() {
    let (snapshot, _) = crawl_hostile_modern(Hostility::EndlessPagination, small_limits()).await;
    assert_recorded(&snapshot, crawl_codes::BOUND, "more than 20 pages");
    assert_eq!(snapshot.tools.len(), 20);
}

#[tokio::test]
async fn modern_repeated_cursor_is_detected_on_its_first_repeat() {
    let (snapshot, _) = crawl_hostile_modern(Hostility::RepeatedCursor, small_limits()).await;
    assert_recorded(&snapshot, crawl_codes::BOUND, "repeated a cursor");
}

#[tokio::test]
async fn modern_one_gib_body_is_cut_at_the_message_bound() {
    let (snapshot, elapsed) = crawl_hostile_modern(Hostility::HugeBody, small_limits()).await;
    assert_recorded(&snapshot, crawl_codes::BOUND, "exceeded");
    assert!(elapsed < Duration::from_secs(5), "{elapsed:?}");
}

#[tokio::test]
async fn modern_drip_ends_at_the_request_timeout() {
    let (snapshot, elapsed) = crawl_hostile_modern(Hostility::Drip, small_limits()).await;
    assert_recorded(&snapshot, crawl_codes::BOUND, "within 2 s");
    assert!(elapsed < small_limits().deadline, "{elapsed:?}");
}

#[tokio::test]
async fn modern_deep_nesting_hits_the_depth_bound() {
    let (snapshot, _) = crawl_hostile_modern(Hostility::DeepNesting, small_limits()).await;
    assert_recorded(&snapshot, crawl_codes::BOUND, "nested deeper");
}

#[tokio::test]
async fn a_list_result_that_is_not_complete_is_recorded_and_not_used() {
    // Act
    let (snapshot, _) = crawl_hostile_modern(Hostility::WrongResultType, small_limits()).await;

    // Assert
    assert_recorded(&snapshot, crawl_codes::RESULT_TYPE, "\"input_required\"");
    assert!(snapshot.tools.is_empty());
}

#[tokio::test]
async fn absent_caching_hints_are_not_recorded_but_invalid_or_changing_ones_are() {
    // Act
    let (snapshot, _) = crawl_hostile_modern(Hostility::CacheHints, small_limits()).await;

    // Assert: the first page has no hints, and that is no anomaly (Caching
    // §Time-to-Live gives clients a default); the other two break the spec's rules.
    assert_eq!(snapshot.tools.len(), 3);
    let hints: Vec<&str> = errors(&snapshot)
        .iter()
        .filter(|e| e.code == crawl_codes::CACHE_HINT)
        .map(|e| e.message.as_str())
        .collect();
    assert_eq!(hints.len(), 2, "{hints:?}");
    assert_recorded(&snapshot, crawl_codes::CACHE_HINT, "ttlMs is negative");
    assert_recorded(
        &snapshot,
        crawl_codes::CACHE_HINT,
        "ttlMs is not an integer",
    );
    assert_recorded(
        &snapshot,
        crawl_codes::CACHE_HINT,
        "cacheScope changed from private to public",
    );
    let tools = &snapshot.crawl.as_ref().unwrap().cache["tools"];
    assert_eq!(tools.ttl_ms, Some(0));
    assert_eq!(tools.cache_scope.as_deref(), Some("private"));
}

#[tokio::test]
async fn a_silent_server_discover_falls_back_to_initialize_at_the_request_timeout() {
    // Arrange: an older server that never answers the unknown method.
    let fixture = spawn_fixture(FixtureKind::Hostile(Hostility::SilentDiscover)).await;
    let limits = small_limits();
    let started = Instant::now();

    // Act
    let snapshot = crawl(&fixture.url, &options(limits.clone())).await.unwrap();

    // Assert
    let elapsed = started.elapsed();
    assert!(
        elapsed >= limits.request_timeout && elapsed < limits.deadline,
        "{elapsed:?}"
    );
    assert_eq!(snapshot.crawl.as_ref().unwrap().era, "legacy");
    assert_eq!(
        &fixture.rpc_methods()[..2],
        ["server/discover", "initialize"]
    );
}

#[tokio::test]
async fn a_silent_modern_only_server_is_a_crawl_failure_within_the_deadline() {
    // Arrange
    let fixture = spawn_fixture(FixtureKind::HostileModern(Hostility::SilentDiscover)).await;
    let limits = small_limits();
    let started = Instant::now();

    // Act
    let failure = crawl(&fixture.url, &options(limits.clone()))
        .await
        .unwrap_err();

    // Assert: the probe timed out, the fallback was refused, nothing hung.
    assert_eq!(failure.code, crawl_codes::INITIALIZE, "{failure}");
    assert!(started.elapsed() < limits.deadline);
}

#[tokio::test]
async fn a_modern_server_speaking_only_unknown_versions_fails_without_a_fallback() {
    // Arrange
    let fixture = spawn_fixture(FixtureKind::HostileModern(Hostility::FutureVersionsOnly)).await;

    // Act
    let failure = crawl(&fixture.url, &options(small_limits()))
        .await
        .unwrap_err();

    // Assert
    assert_eq!(failure.code, crawl_codes::PROTOCOL_VERSION);
    assert!(failure.message.contains("\"2099-01-01\""), "{failure}");
    assert_eq!(fixture.rpc_methods(), ["server/discover"]);
}

#[tokio::test]
async fn a_server_behind_oauth_without_credentials_fails_with_a_clear_reason_and_its_scopes() {
    // Arrange
    let fixture = spawn_fixture(FixtureKind::Hostile(Hostility::RequiresOAuth)).await;

    // Act
    let failure = crawl(&fixture.url, &options(small_limits()))
        .await
        .unwrap_err();

    // Assert
    assert_eq!(failure.code, crawl_codes::AUTH);
    assert!(!failure.retryable);
    assert!(
        failure
            .message
            .contains("requires OAuth; add crawl credentials"),
        "{failure}"
    );
    assert!(failure.message.contains("mcp:read"), "{failure}");
}

#[tokio::test]
async fn icons_with_unsafe_schemes_are_dropped_and_recorded_on_both_paths() {
    for kind in [
        FixtureKind::Hostile(Hostility::Icons),
        FixtureKind::HostileModern(Hostility::Icons),
    ] {
        // Act
        let fixture = spawn_fixture(kind).await;
        let snapshot = crawl(&fixture.url, &options(small_limits())).await.unwrap();

        // Assert
        let icons = snapshot.tools[0].extra["icons"].as_array().unwrap();
        assert_eq!(icons.len(), 1);
        assert_eq!(icons[0]["src"], "https://example.com/icon.png");
        assert_recorded(&snapshot, crawl_codes::INVALID_ICON, "\"javascript\"");
        assert_recorded(&snapshot, crawl_codes::INVALID_ICON, "\"http\"");
    }
}
/// The declared lists a crawl could not read to the end.
fn unread(snapshot: &Snapshot) -> Vec<String> {
    snapshot
        .crawl
        .as_ref()
        .map(|c| c.unread.clone())
        .unwrap_or_default()
}

#[tokio::test]
async fn a_declared_list_that_fails_is_marked_unread() {
    // Act
    let (snapshot, _) = crawl_hostile(Hostility::FailingPrompts, small_limits()).await;

    // Assert: tools were read, prompts were declared and not.
    assert_eq!(unread(&snapshot), ["prompts"]);
}

#[tokio::test]
async fn a_tarpit_or_a_bound_leaves_the_declared_list_unread() {
    for hostility in [
        Hostility::EndlessSse,
        Hostility::DeepNesting,
        Hostility::EndlessPagination,
    ] {
        // Act
        let (snapshot, _) = crawl_hostile(hostility.clone(), small_limits()).await;

        // Assert
        assert_eq!(unread(&snapshot), ["tools"], "{hostility:?}");
    }
}

#[tokio::test]
async fn an_unsupported_protocol_version_leaves_every_declared_list_unread() {
    // Act
    let (snapshot, _) = crawl_hostile(Hostility::UnsupportedVersion, small_limits()).await;

    // Assert
    assert_eq!(unread(&snapshot), ["tools"]);
}

#[tokio::test]
async fn a_duplicate_key_in_a_crawled_answer_is_recorded_as_an_anomaly() {
    // Act
    let (snapshot, _) = crawl_hostile(Hostility::DuplicateKeys, small_limits()).await;

    // Assert: recorded with its pointer, and the analysis reports it as a protocol finding.
    assert_recorded(
        &snapshot,
        crawl_codes::DUPLICATE_KEY,
        "/result/tools/0/description",
    );
    assert!(unread(&snapshot).is_empty());
    let report = gatehouse::analysis::analyze(
        &snapshot,
        &gatehouse::analysis::Context::default(),
        &gatehouse::analysis::RulesConfig::default(),
    );
    assert!(
        report
            .findings
            .iter()
            .any(|f| f.rule == "GH-PRO-003" && f.evidence.contains("duplicate_key")),
        "{:?}",
        report.findings
    );
}
