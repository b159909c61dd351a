//! The portal's crawl-credentials page: a publisher stores and deletes the
//! OAuth client credentials of an own server; the value never comes back, and
//! another publisher cannot reach the page.

use reqwest::StatusCode;

use crate::helpers::{Backend, FormClient, TestApp, enc};
use crate::on_both_backends;

const SECRET: &str = "portal-s3cret-never-rendered";

async fn portal_of(app: &TestApp, token: &str) -> FormClient {
    let mut portal = FormClient::new(app);
    let form = portal.get("/publisher/login").await;
    portal
        .post(
            "/publisher/login",
            &[("_csrf", &form.csrf()), ("token", token)],
        )
        .await;
    portal
}

async fn a_publisher_stores_crawl_credentials_that_are_never_shown_again(backend: Backend) {
    // Arrange
    let app = TestApp::spawn(backend).await;
    let (acme, token) = app.publisher("acme", &["com.example"]).await;
    let (_, other_token) = app.publisher("other", &["org.other"]).await;
    app.seed_scanned_version(&acme, "com.example/calc", "1.0.0", vec![], vec![])
        .await;
    let page = format!(
        "/publisher/servers/{}/crawl-credentials",
        enc("com.example/calc")
    );
    let mut portal = portal_of(&app, &token).await;

    // Act
    let before = portal.get(&page).await;
    let stored = portal
        .post(
            &page,
            &[
                ("_csrf", &before.csrf()),
                ("op", "set-oauth"),
                ("client_id", "calc-crawler"),
                ("client_secret", SECRET),
            ],
        )
        .await;
    let after = portal.get(&page).await;
    let mut rival = portal_of(&app, &other_token).await;
    let foreign = rival.get(&page).await;
    let deleted = portal
        .post(&page, &[("_csrf", &after.csrf()), ("op", "delete-oauth")])
        .await;
    let last = portal.get(&page).await;

    // Assert
    assert_eq!(before.status, StatusCode::OK);
    assert!(before.body.contains("Not set."), "{}", before.body);
    assert_eq!(stored.status, StatusCode::SEE_OTHER);
    assert!(after.body.contains("calc-crawler"), "{}", after.body);
    assert!(after.body.contains("client_secret"), "{}", after.body);
    assert!(after.body.contains("publisher:acme"), "{}", after.body);
    for body in [&before.body, &after.body, &last.body] {
        assert!(!body.contains(SECRET));
    }
    assert_eq!(foreign.status, StatusCode::NOT_FOUND);
    assert_eq!(deleted.status, StatusCode::SEE_OTHER);
    assert!(last.body.contains("Not set."), "{}", last.body);
}

on_both_backends!(a_publisher_stores_crawl_credentials_that_are_never_shown_again);
