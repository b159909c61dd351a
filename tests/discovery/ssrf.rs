//! The SSRF guard: refused addresses, host names and redirects, with private
//! addresses not allowed except the one loopback address a fixture needs.
//!
//! Fixtures listen on 127.0.0.2 and the policy allows exactly `127.0.0.2/32`,
//! so 127.0.0.1 (and everything else private) stays refused: a redirect to it,
//! or a name resolving to it (`localhost`), must not be followed.

use crate::mcp_fixtures;

use std::net::{IpAddr, Ipv4Addr};

use gatehouse::discovery::{CrawlOptions, NetPolicy, crawl};
use gatehouse::snapshot::crawl_codes;
use mcp_fixtures::{FixtureKind, Hostility, spawn_fixture, spawn_fixture_on};

const FIXTURE_IP: IpAddr = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2));

fn only_the_fixture_allowed() -> CrawlOptions {
    CrawlOptions {
        network: NetPolicy::from_config(Some("127.0.0.2/32")).unwrap(),
        ..CrawlOptions::default()
    }
}

#[tokio::test]
async fn the_allowed_fixture_address_is_crawled() {
    // Arrange
    let fixture = spawn_fixture_on(FIXTURE_IP, FixtureKind::ToolsOnly).await;

    // Act
    let snapshot = crawl(&fixture.url, &only_the_fixture_allowed()).await;

    // Assert
    assert!(!snapshot.unwrap().tools.is_empty());
}

#[tokio::test]
async fn a_redirect_to_127_0_0_1_is_refused() {
    // Arrange: a real server waits on 127.0.0.1, so only the guard can stop the hop.
    let target = spawn_fixture(FixtureKind::ToolsOnly).await;
    let fixture = spawn_fixture_on(
        FIXTURE_IP,
        FixtureKind::Hostile(Hostility::RedirectTo(target.url.clone())),
    )
    .await;

    // Act
    let failure = crawl(&fixture.url, &only_the_fixture_allowed())
        .await
        .unwrap_err();

    // Assert
    assert_eq!(failure.code, crawl_codes::TRANSPORT);
    assert!(
        failure
            .message
            .contains("refused by the scan network policy"),
        "{failure}"
    );
    assert!(
        target.requests().is_empty(),
        "the redirect target was reached"
    );
}

#[tokio::test]
async fn a_redirect_to_the_cloud_metadata_address_is_refused() {
    // Arrange
    let target = "http://169.254.169.254/latest/meta-data/".to_string();
    let fixture = spawn_fixture_on(
        FIXTURE_IP,
        FixtureKind::Hostile(Hostility::RedirectTo(target)),
    )
    .await;

    // Act
    let failure = crawl(&fixture.url, &only_the_fixture_allowed())
        .await
        .unwrap_err();

    // Assert
    assert_eq!(failure.code, crawl_codes::TRANSPORT);
    assert!(failure.message.contains("169.254.169.254"), "{failure}");
}

#[tokio::test]
async fn a_redirect_to_a_metadata_host_name_is_refused() {
    // Arrange
    let target = "http://metadata.google.internal/computeMetadata/v1/".to_string();
    let fixture = spawn_fixture_on(
        FIXTURE_IP,
        FixtureKind::Hostile(Hostility::RedirectTo(target)),
    )
    .await;

    // Act
    let failure = crawl(&fixture.url, &only_the_fixture_allowed())
        .await
        .unwrap_err();

    // Assert
    assert!(failure.message.contains("cloud metadata name"), "{failure}");
}

#[tokio::test]
async fn a_host_name_resolving_to_127_0_0_1_is_refused_after_resolution() {
    // Arrange: a server really listens there, so a connection would succeed.
    let target = spawn_fixture(FixtureKind::ToolsOnly).await;
    let url = format!("http://localhost:{}/mcp", target.addr.port());

    // Act
    let failure = crawl(&url, &only_the_fixture_allowed()).await.unwrap_err();

    // Assert
    assert_eq!(failure.code, crawl_codes::TRANSPORT);
    assert!(
        failure
            .message
            .contains("resolves only to refused addresses"),
        "{failure}"
    );
    assert!(target.requests().is_empty());
}

#[tokio::test]
async fn a_literal_loopback_url_is_refused_by_the_default_policy() {
    // Arrange
    let target = spawn_fixture(FixtureKind::ToolsOnly).await;

    // Act
    let failure = crawl(&target.url, &CrawlOptions::default())
        .await
        .unwrap_err();

    // Assert
    assert_eq!(failure.code, crawl_codes::TRANSPORT);
    assert!(target.requests().is_empty());
}

#[tokio::test]
async fn an_ipv4_mapped_loopback_url_is_refused() {
    // Act
    let failure = crawl("http://[::ffff:127.0.0.1]:9/mcp", &CrawlOptions::default())
        .await
        .unwrap_err();

    // Assert
    assert!(
        failure
            .message
            .contains("refused by the scan network policy"),
        "{failure}"
    );
}

#[tokio::test]
async fn a_metadata_host_name_is_refused_before_any_lookup() {
    // Act
    let failure = crawl(
        "http://metadata.google.internal/mcp",
        &CrawlOptions::default(),
    )
    .await
    .unwrap_err();

    // Assert
    assert!(failure.message.contains("cloud metadata name"), "{failure}");
}

#[tokio::test]
async fn more_than_three_redirects_are_refused() {
    // Arrange: four fixtures redirecting in a chain to an honest one.
    let end = spawn_fixture_on(FIXTURE_IP, FixtureKind::ToolsOnly).await;
    let mut chain = Vec::new();
    let mut next = end.url.clone();
    for _ in 0..4 {
        let hop = spawn_fixture_on(
            FIXTURE_IP,
            FixtureKind::Hostile(Hostility::RedirectTo(next)),
        )
        .await;
        next = hop.url.clone();
        chain.push(hop);
    }

    // Act
    let failure = crawl(&next, &only_the_fixture_allowed()).await.unwrap_err();

    // Assert
    assert!(
        failure.message.contains("more than 3 redirects"),
        "{failure}"
    );
    assert!(end.requests().is_empty());
}

#[tokio::test]
async fn three_redirects_between_allowed_addresses_are_followed() {
    // Arrange: three fixtures redirecting `initialize` in a chain to an honest one.
    let end = spawn_fixture_on(FIXTURE_IP, FixtureKind::ToolsOnly).await;
    let mut chain = Vec::new();
    let mut next = end.url.clone();
    for _ in 0..3 {
        let hop = spawn_fixture_on(
            FIXTURE_IP,
            FixtureKind::Hostile(Hostility::RedirectTo(next)),
        )
        .await;
        next = hop.url.clone();
        chain.push(hop);
    }

    // Act
    let snapshot = crawl(&next, &only_the_fixture_allowed()).await;

    // Assert
    assert!(snapshot.is_ok(), "{snapshot:?}");
    assert_eq!(
        end.rpc_methods().first().map(String::as_str),
        Some("initialize")
    );
}

#[tokio::test]
async fn a_modern_server_discover_redirect_to_127_0_0_1_is_refused() {
    // Arrange: the modern probe itself is redirected to a real server on 127.0.0.1.
    let target = spawn_fixture(FixtureKind::ToolsOnly).await;
    let fixture = spawn_fixture_on(
        FIXTURE_IP,
        FixtureKind::HostileModern(Hostility::RedirectTo(target.url.clone())),
    )
    .await;

    // Act
    let failure = crawl(&fixture.url, &only_the_fixture_allowed())
        .await
        .unwrap_err();

    // Assert: a refused address is no era verdict: no fallback, nothing reached.
    assert_eq!(failure.code, crawl_codes::TRANSPORT);
    assert!(!failure.retryable);
    assert!(failure.message.contains("server/discover"), "{failure}");
    assert!(target.requests().is_empty());
    assert_eq!(fixture.rpc_methods(), ["server/discover"]);
}

#[tokio::test]
async fn oauth_metadata_on_a_refused_address_is_not_fetched() {
    // Arrange: the challenge points the protected resource metadata at 127.0.0.1.
    let auth = mcp_fixtures::spawn_auth_server(IpAddr::V4(Ipv4Addr::LOCALHOST), 3600).await;
    let fixture = spawn_fixture_on(
        FIXTURE_IP,
        FixtureKind::OAuthProtected {
            issuer: auth.issuer.clone(),
        },
    )
    .await;
    let options = CrawlOptions {
        oauth: Some(gatehouse::discovery::OAuthCredentials {
            client_id: mcp_fixtures::OAUTH_CLIENT_ID.into(),
            auth: gatehouse::discovery::ClientAuth::Secret(
                mcp_fixtures::OAUTH_CLIENT_SECRET.into(),
            ),
            issuer: None,
        }),
        ..only_the_fixture_allowed()
    };

    // Act
    let failure = crawl(&fixture.url, &options).await.unwrap_err();

    // Assert: the authorisation server on 127.0.0.1 was never contacted.
    assert_eq!(failure.code, crawl_codes::AUTH);
    assert!(failure.message.contains("refused"), "{failure}");
    assert!(auth.requests().is_empty());
}

#[tokio::test]
async fn allowing_every_private_address_still_refuses_cloud_metadata() {
    // Arrange: GATEHOUSE_SCAN_ALLOW_PRIVATE=1, and a server redirecting to the metadata service.
    let target = "http://169.254.169.254/latest/meta-data/".to_string();
    let fixture = spawn_fixture_on(
        FIXTURE_IP,
        FixtureKind::Hostile(Hostility::RedirectTo(target)),
    )
    .await;
    let open = CrawlOptions {
        network: NetPolicy::from_config(Some("1")).unwrap(),
        ..CrawlOptions::default()
    };

    // Act
    let by_address = crawl(&fixture.url, &open).await.unwrap_err();
    let by_name = crawl("http://metadata.google.internal/mcp", &open)
        .await
        .unwrap_err();

    // Assert
    assert!(
        by_address.message.contains("169.254.169.254"),
        "{by_address}"
    );
    assert!(by_name.message.contains("cloud metadata name"), "{by_name}");
}
