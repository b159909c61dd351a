//! Crawling a server behind OAuth: protected resource metadata (RFC 9728),
//! authorisation server metadata (RFC 8414), the client-credentials grant and
//! token renewal, against an in-process authorisation server on another address
//! (another origin) that records every request it receives.

use crate::mcp_fixtures;

use std::net::{IpAddr, Ipv4Addr};

use gatehouse::discovery::{ClientAuth, CrawlOptions, NetPolicy, OAuthCredentials, crawl};
use gatehouse::snapshot::crawl_codes;
use mcp_fixtures::{
    ClientCheck, FixtureKind, OAUTH_CLIENT_ID, OAUTH_CLIENT_SECRET, catalogue, spawn_auth_server,
    spawn_auth_server_with, spawn_fixture,
};

fn credentials(secret: &str) -> OAuthCredentials {
    OAuthCredentials {
        client_id: OAUTH_CLIENT_ID.into(),
        auth: ClientAuth::Secret(secret.into()),
        issuer: None,
    }
}

fn options(oauth: Option<OAuthCredentials>) -> CrawlOptions {
    CrawlOptions {
        network: NetPolicy::allow_all(),
        oauth,
        headers: vec![("X-Static-Key".into(), "static-header-value".into())],
        ..CrawlOptions::default()
    }
}

/// The authorisation server listens on 127.0.0.2: another origin than the server.
const AUTH_IP: IpAddr = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2));

#[tokio::test]
async fn a_server_behind_oauth_is_crawled_with_a_client_credentials_token() {
    // Arrange
    let auth = spawn_auth_server(AUTH_IP, 3600).await;
    let fixture = spawn_fixture(FixtureKind::OAuthProtected {
        issuer: auth.issuer.clone(),
    })
    .await;

    // Act
    let snapshot = crawl(
        &fixture.url,
        &options(Some(credentials(OAUTH_CLIENT_SECRET))),
    )
    .await
    .unwrap();

    // Assert
    assert_eq!(snapshot.tools.len(), catalogue().tools.len());
    let info = snapshot.crawl.unwrap();
    assert!(info.errors.is_empty(), "{:?}", info.errors);
    let recorded = info.auth.expect("the OAuth flow is recorded");
    assert_eq!(recorded.scopes, ["mcp:read"]);
    assert_eq!(recorded.issuer.as_deref(), Some(auth.issuer.as_str()));
    assert_eq!(auth.tokens_issued(), 1);
    let token_request = auth
        .requests()
        .into_iter()
        .find(|r| r.path == "/token")
        .expect("a token request");
    // The token request carries the resource indicator and the scopes, never the
    // server's own headers (RFC 8707 §2; credentials stay with their origin).
    let form: String = token_request
        .headers
        .iter()
        .map(|(k, v)| format!("{k}: {v}\n"))
        .collect();
    assert!(!form.contains("static-header-value"), "{form}");
    assert!(!form.contains("Bearer"), "{form}");
}

#[tokio::test]
async fn credentials_go_only_to_their_own_origin() {
    // Arrange
    let auth = spawn_auth_server(AUTH_IP, 3600).await;
    let fixture = spawn_fixture(FixtureKind::OAuthProtected {
        issuer: auth.issuer.clone(),
    })
    .await;

    // Act
    crawl(
        &fixture.url,
        &options(Some(credentials(OAUTH_CLIENT_SECRET))),
    )
    .await
    .unwrap();

    // Assert: the server never sees the client secret; the authorisation server
    // never sees the bearer token nor the server's static header.
    let secret_b64 = {
        use base64::Engine;
        base64::engine::general_purpose::STANDARD
            .encode(format!("{OAUTH_CLIENT_ID}:{OAUTH_CLIENT_SECRET}"))
    };
    for request in fixture.requests() {
        let text = format!("{request:?}");
        assert!(!text.contains(OAUTH_CLIENT_SECRET), "{text}");
        assert!(!text.contains(&secret_b64), "{text}");
    }
    for request in auth.requests() {
        let text = format!("{request:?}");
        assert!(!text.contains("issued-"), "{text}");
        assert!(!text.contains("static-header-value"), "{text}");
    }
}

#[tokio::test]
async fn a_token_about_to_expire_is_renewed_during_the_crawl() {
    // Arrange: tokens live 30 s, inside the 30 s renewal margin, so every request renews.
    let auth = spawn_auth_server(AUTH_IP, 30).await;
    let fixture = spawn_fixture(FixtureKind::OAuthProtected {
        issuer: auth.issuer.clone(),
    })
    .await;

    // Act
    let snapshot = crawl(
        &fixture.url,
        &options(Some(credentials(OAUTH_CLIENT_SECRET))),
    )
    .await
    .unwrap();

    // Assert
    assert_eq!(snapshot.tools.len(), catalogue().tools.len());
    assert!(auth.tokens_issued() >= 2, "{}", auth.tokens_issued());
}

#[tokio::test]
async fn a_wrong_secret_is_a_clear_failure_that_does_not_show_the_secret() {
    // Arrange
    let auth = spawn_auth_server(AUTH_IP, 3600).await;
    let fixture = spawn_fixture(FixtureKind::OAuthProtected {
        issuer: auth.issuer.clone(),
    })
    .await;

    // Act
    let failure = crawl(
        &fixture.url,
        &options(Some(credentials("wrong-secret-xyz"))),
    )
    .await
    .unwrap_err();

    // Assert
    assert_eq!(failure.code, crawl_codes::AUTH);
    assert!(failure.message.contains("invalid_client"), "{failure}");
    assert!(!failure.message.contains("wrong-secret-xyz"), "{failure}");
}

#[tokio::test]
async fn credentials_bound_to_another_issuer_are_not_sent() {
    // Arrange
    let auth = spawn_auth_server(AUTH_IP, 3600).await;
    let fixture = spawn_fixture(FixtureKind::OAuthProtected {
        issuer: auth.issuer.clone(),
    })
    .await;
    let bound = OAuthCredentials {
        issuer: Some("https://other-issuer.example".into()),
        ..credentials(OAUTH_CLIENT_SECRET)
    };

    // Act
    let failure = crawl(&fixture.url, &options(Some(bound)))
        .await
        .unwrap_err();

    // Assert
    assert_eq!(failure.code, crawl_codes::AUTH);
    assert!(
        failure.message.contains("belong to the issuer"),
        "{failure}"
    );
    assert!(auth.requests().iter().all(|r| r.path != "/token"));
}

#[tokio::test]
async fn without_credentials_the_failure_names_the_scopes_the_server_asked_for() {
    // Arrange
    let auth = spawn_auth_server(AUTH_IP, 3600).await;
    let fixture = spawn_fixture(FixtureKind::OAuthProtected {
        issuer: auth.issuer.clone(),
    })
    .await;

    // Act
    let failure = crawl(&fixture.url, &options(None)).await.unwrap_err();

    // Assert
    assert_eq!(failure.code, crawl_codes::AUTH);
    assert!(
        failure
            .message
            .contains("requires OAuth; add crawl credentials"),
        "{failure}"
    );
    assert!(failure.message.contains("mcp:read"), "{failure}");
    // The worker stores these in the failed scan's snapshot (`crawl.auth`).
    assert_eq!(failure.auth.expect("auth info").scopes, ["mcp:read"]);
}

/// A fresh P-256 key: its PKCS#8 PEM and its SEC1 public key.
fn p256_key() -> (String, Vec<u8>) {
    use base64::Engine;
    use ring::signature::{ECDSA_P256_SHA256_FIXED_SIGNING, EcdsaKeyPair, KeyPair};
    let rng = ring::rand::SystemRandom::new();
    let pkcs8 = EcdsaKeyPair::generate_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, &rng).unwrap();
    let key =
        EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, pkcs8.as_ref(), &rng).unwrap();
    let body = base64::engine::general_purpose::STANDARD.encode(pkcs8.as_ref());
    (
        format!("-----BEGIN PRIVATE KEY-----\n{body}\n-----END PRIVATE KEY-----\n"),
        key.public_key().as_ref().to_vec(),
    )
}

#[tokio::test]
async fn a_server_behind_oauth_is_crawled_with_a_private_key_jwt_assertion() {
    // Arrange: the authorisation server accepts only ES256 client assertions.
    let (pem, public) = p256_key();
    let auth = spawn_auth_server_with(AUTH_IP, 3600, ClientCheck::Es256(public)).await;
    let fixture = spawn_fixture(FixtureKind::OAuthProtected {
        issuer: auth.issuer.clone(),
    })
    .await;
    let credentials = OAuthCredentials {
        client_id: OAUTH_CLIENT_ID.into(),
        auth: ClientAuth::PrivateKey(pem.clone()),
        issuer: None,
    };

    // Act
    let snapshot = crawl(&fixture.url, &options(Some(credentials)))
        .await
        .unwrap();

    // Assert
    assert_eq!(snapshot.tools.len(), catalogue().tools.len());
    assert_eq!(auth.tokens_issued(), 1);
    // The key itself goes nowhere: only the signature over the claims does.
    let key_body = pem.lines().nth(1).unwrap();
    for request in fixture.requests().iter().chain(auth.requests().iter()) {
        let text = format!("{request:?}");
        assert!(!text.contains(key_body), "{text}");
    }
}

#[tokio::test]
async fn an_assertion_signed_by_another_key_is_refused_by_the_authorisation_server() {
    // Arrange
    let (_, public) = p256_key();
    let (other_pem, _) = p256_key();
    let auth = spawn_auth_server_with(AUTH_IP, 3600, ClientCheck::Es256(public)).await;
    let fixture = spawn_fixture(FixtureKind::OAuthProtected {
        issuer: auth.issuer.clone(),
    })
    .await;
    let credentials = OAuthCredentials {
        client_id: OAUTH_CLIENT_ID.into(),
        auth: ClientAuth::PrivateKey(other_pem),
        issuer: None,
    };

    // Act
    let failure = crawl(&fixture.url, &options(Some(credentials)))
        .await
        .unwrap_err();

    // Assert
    assert_eq!(failure.code, crawl_codes::AUTH);
    assert!(failure.message.contains("invalid_client"), "{failure}");
    assert!(!failure.message.contains("PRIVATE KEY"), "{failure}");
}
