//! Review decisions through the admin API and the scan job lifecycle.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{Backend, TestApp, assert_problem, npm_server, remote_server};
use crate::on_both_backends;

on_both_backends!(
    decisions_follow_the_lifecycle_and_are_audited,
    a_scan_that_keeps_failing_ends_in_scan_failed_and_needs_force,
    the_queue_filters_and_the_detail_has_everything_a_reviewer_needs,
    an_unreadable_stored_scan_answers_a_titled_500_and_is_never_approved,
);

const BASE: &str = "/api/v1/admin/servers/com.example%2Fweather/versions";

async fn decisions_follow_the_lifecycle_and_are_audited(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let token = app.publisher("acme", &["com.example"]).await;
    app.publish(&token, &npm_server("com.example/weather", "1.0.0"))
        .await;

    // Not scanned yet: approval is refused with a hint.
    let p = assert_problem(
        app.post(
            &format!("{BASE}/1.0.0/approve"),
            Some(&app.admin_token),
            None,
        )
        .await,
        StatusCode::CONFLICT,
    )
    .await;
    assert!(p["detail"].as_str().unwrap().contains("pending"), "{p}");

    app.drain_jobs().await;
    // Bad input changes nothing.
    assert_problem(
        app.post(
            &format!("{BASE}/1.0.0/reject"),
            Some(&app.admin_token),
            Some(&json!({"reason": ""})),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_problem(
        app.post(
            &format!("{BASE}/1.0.0/approve"),
            Some(&app.admin_token),
            Some(&json!({"audiences": ["Bad Name!"]})),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_problem(
        app.post(
            &format!("{BASE}/1.0.0/approve"),
            Some(&app.admin_token),
            Some(&json!({"tools": ["nope"]})),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_problem(
        app.post(
            &format!("{BASE}/1.0.0/approve"),
            Some(&app.admin_token),
            Some(&json!({"unknown": 1})),
        )
        .await,
        StatusCode::BAD_REQUEST,
    )
    .await;
    assert_problem(
        app.post(
            &format!("{BASE}/1.0.0/teleport"),
            Some(&app.admin_token),
            None,
        )
        .await,
        StatusCode::NOT_FOUND,
    )
    .await;
    assert_problem(
        app.post(
            &format!("{BASE}/9.9.9/approve"),
            Some(&app.admin_token),
            None,
        )
        .await,
        StatusCode::NOT_FOUND,
    )
    .await;
    let approvals_before: i64 = app.count("approvals").await;
    assert_eq!(approvals_before, 0);

    let ok = app
        .post(
            &format!("{BASE}/1.0.0/approve"),
            Some(&app.reviewer_token),
            Some(&json!({"audiences": ["default", "internal"], "note": "looks fine"})),
        )
        .await;
    assert_eq!(ok.status(), StatusCode::OK);
    let body: Value = ok.json().await.unwrap();
    assert_eq!(body["status"], "approved");
    // Approving twice is a conflict, revoking is final.
    assert_problem(
        app.post(
            &format!("{BASE}/1.0.0/approve"),
            Some(&app.admin_token),
            None,
        )
        .await,
        StatusCode::CONFLICT,
    )
    .await;
    assert_eq!(
        app.post(
            &format!("{BASE}/1.0.0/revoke"),
            Some(&app.admin_token),
            Some(&json!({"reason": "key leaked"}))
        )
        .await
        .status(),
        StatusCode::OK
    );
    assert_problem(
        app.post(
            &format!("{BASE}/1.0.0/rescan"),
            Some(&app.admin_token),
            None,
        )
        .await,
        StatusCode::CONFLICT,
    )
    .await;

    let audit: Value = app
        .get("/api/v1/audit?limit=100", Some(&app.admin_token))
        .await
        .json()
        .await
        .unwrap();
    let actions: Vec<&str> = audit["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["action"].as_str().unwrap())
        .collect();
    for expected in [
        "version.publish",
        "version.status",
        "version.approve",
        "version.revoke",
    ] {
        assert!(
            actions.contains(&expected),
            "{expected} missing from {actions:?}"
        );
    }
    let approve = audit["entries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["action"] == "version.approve")
        .unwrap();
    assert_eq!(approve["actor"], "token:test-reviewer");
    assert_eq!(
        approve["detail"]["audiences"],
        json!(["default", "internal"])
    );
    // Newest first, and paging by id works.
    let ids: Vec<i64> = audit["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["id"].as_i64().unwrap())
        .collect();
    assert!(ids.windows(2).all(|w| w[0] > w[1]));
    let page: Value = app
        .get("/api/v1/audit?limit=2", Some(&app.admin_token))
        .await
        .json()
        .await
        .unwrap();
    let next = page["nextBefore"].as_i64().unwrap();
    let page2: Value = app
        .get(
            &format!("/api/v1/audit?limit=2&before={next}"),
            Some(&app.admin_token),
        )
        .await
        .json()
        .await
        .unwrap();
    assert!(page2["entries"][0]["id"].as_i64().unwrap() < next);

    // The audit log refuses changes at the database level.
    assert!(
        sqlx::query("DELETE FROM audit_log")
            .execute(app.db.pool())
            .await
            .is_err()
    );
}

async fn a_scan_that_keeps_failing_ends_in_scan_failed_and_needs_force(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let token = app.publisher("acme", &["com.example"]).await;
    // Nothing listens on port 9 of loopback: every attempt fails to connect.
    let r = app
        .publish(
            &token,
            &remote_server("com.example/weather", "1.0.0", "http://127.0.0.1:9/mcp"),
        )
        .await;
    assert_eq!(r.status(), StatusCode::CREATED);
    assert_eq!(app.drain_jobs().await, 3, "three attempts, then give up");

    let detail: Value = app
        .get(&format!("{BASE}/1.0.0"), Some(&app.admin_token))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(detail["status"], "scan_failed");
    assert!(
        detail["scan"]["error"]
            .as_str()
            .is_some_and(|e| !e.is_empty())
    );
    assert_problem(
        app.post(
            &format!("{BASE}/1.0.0/approve"),
            Some(&app.admin_token),
            None,
        )
        .await,
        StatusCode::CONFLICT,
    )
    .await;
    let forced = app
        .post(
            &format!("{BASE}/1.0.0/approve"),
            Some(&app.admin_token),
            Some(&json!({"force": true, "note": "vendor vouched"})),
        )
        .await;
    assert_eq!(forced.status(), StatusCode::OK);
}

async fn the_queue_filters_and_the_detail_has_everything_a_reviewer_needs(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let token = app.publisher("acme", &["com.example"]).await;
    app.publish(&token, &npm_server("com.example/weather", "1.0.0"))
        .await;
    app.publish(&token, &npm_server("com.example/weather", "1.1.0"))
        .await;
    app.drain_jobs().await;

    let queue: Value = app
        .get("/api/v1/admin/queue", Some(&app.reviewer_token))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(queue["total"], 2);
    let info: Value = app
        .get(
            "/api/v1/admin/queue?severity=info&sort=newest",
            Some(&app.reviewer_token),
        )
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(info["total"], 2);
    assert_eq!(info["versions"][0]["version"], "1.1.0");
    let high: Value = app
        .get(
            "/api/v1/admin/queue?severity=high",
            Some(&app.reviewer_token),
        )
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(high["total"], 0);
    assert_problem(
        app.get(
            "/api/v1/admin/queue?status=bogus",
            Some(&app.reviewer_token),
        )
        .await,
        StatusCode::BAD_REQUEST,
    )
    .await;

    let detail: Value = app
        .get(&format!("{BASE}/1.1.0"), Some(&app.reviewer_token))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(detail["status"], "in_review");
    assert_eq!(detail["serverJson"]["version"], "1.1.0");
    assert_eq!(detail["findings"][0]["severity"], "info");
    assert!(detail.get("snapshot").is_some() && detail.get("diff").is_some());
}

async fn an_unreadable_stored_scan_answers_a_titled_500_and_is_never_approved(backend: Backend) {
    // Arrange: a scanned version whose stored snapshot no longer decodes.
    let app = TestApp::spawn(backend).await;
    let token = app.publisher("acme", &["com.example"]).await;
    app.publish(&token, &npm_server("com.example/weather", "1.0.0"))
        .await;
    app.drain_jobs().await;
    assert!(app.count("scans").await > 0);
    sqlx::query("UPDATE scans SET snapshot = '{\"tools\": 7}'")
        .execute(app.db.pool())
        .await
        .unwrap();

    // Act
    let admin = app
        .get(&format!("{BASE}/1.0.0"), Some(&app.admin_token))
        .await;
    let own = app
        .get(
            "/api/v1/publisher/servers/com.example%2Fweather/versions/1.0.0",
            Some(&token),
        )
        .await;
    let approve = app.approve("com.example/weather", "1.0.0").await;

    // Assert: each says what is wrong; nothing is approved on a scan nobody can read.
    for response in [admin, own, approve] {
        let p = assert_problem(response, StatusCode::INTERNAL_SERVER_ERROR).await;
        assert_eq!(p["title"], "Stored data unreadable", "{p}");
        assert!(
            p["type"]
                .as_str()
                .unwrap()
                .ends_with("/stored-data-unreadable"),
            "{p}"
        );
        assert!(
            p["detail"]
                .as_str()
                .unwrap()
                .contains("snapshot of com.example/weather@1.0.0"),
            "{p}"
        );
    }
    let v = gatehouse::storage::versions::get_version(&app.db, "com.example/weather", "1.0.0")
        .await
        .unwrap()
        .unwrap();
    assert_ne!(v.status.as_str(), "approved");
}
