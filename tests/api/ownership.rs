//! Remote-URL ownership endpoints (issue 15): a publisher's challenge token
//! per origin, a publisher's own webhook, and the admin setting that requires
//! verified remotes before approval.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{Backend, TestApp, assert_problem};
use crate::on_both_backends;

on_both_backends!(
    a_publisher_gets_one_challenge_token_per_origin,
    only_admins_require_verified_remotes,
);

async fn a_publisher_gets_one_challenge_token_per_origin(backend: Backend) {
    // Arrange
    let app = TestApp::spawn(backend).await;
    let token = app.publisher("acme", &["com.acme"]).await;
    let other = app.publisher("other", &["com.other"]).await;
    let ask = |who: String, origin: &'static str| {
        let app = &app;
        async move {
            app.post(
                "/api/v1/publisher/challenges",
                Some(&who),
                Some(&json!({ "origin": origin })),
            )
            .await
        }
    };

    // Act
    let first: Value = ask(token.clone(), "https://mcp.acme.test/mcp?x=1")
        .await
        .json()
        .await
        .unwrap();
    let again: Value = ask(token.clone(), "https://mcp.acme.test")
        .await
        .json()
        .await
        .unwrap();
    let theirs: Value = ask(other, "https://mcp.acme.test")
        .await
        .json()
        .await
        .unwrap();
    let bad = ask(token.clone(), "file:///etc/passwd").await;
    let staff = ask(app.admin_token.clone(), "https://mcp.acme.test").await;

    // Assert
    assert_eq!(first["origin"], "https://mcp.acme.test");
    assert_eq!(
        first["url"],
        "https://mcp.acme.test/.well-known/gatehouse-challenge"
    );
    assert_eq!(first["token"].as_str().unwrap().len(), 48);
    assert_eq!(first["token"], again["token"]);
    assert_ne!(first["token"], theirs["token"]);
    assert_problem(bad, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(staff.status(), StatusCode::FORBIDDEN);
}

async fn only_admins_require_verified_remotes(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let path = "/api/v1/admin/settings/remote-verification";
    let before: Value = app
        .get(path, Some(&app.admin_token))
        .await
        .json()
        .await
        .unwrap();
    let put = |token: &str| {
        app.client
            .put(format!("{}{path}", app.address))
            .bearer_auth(token)
            .json(&json!({"required": true}))
            .send()
    };
    let by_reviewer = put(&app.reviewer_token).await.unwrap();
    let by_admin = put(&app.admin_token).await.unwrap();
    let after: Value = app
        .get(path, Some(&app.admin_token))
        .await
        .json()
        .await
        .unwrap();

    assert_eq!(before["required"], false);
    assert_eq!(by_reviewer.status(), StatusCode::FORBIDDEN);
    assert_eq!(by_admin.status(), StatusCode::OK);
    assert_eq!(after["required"], true);
}
