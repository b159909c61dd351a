//! Issue 11 in the web UI: honest badges for versions without a completed
//! scan, each finding shown once, sign-in throttling per account and per
//! address behind a trusted proxy.

use reqwest::StatusCode;

use crate::helpers::{Backend, FormClient, PASSWORD, POISON, TestApp, poison_finding, tool};
use crate::on_both_backends;
use gatehouse::registry::lifecycle::Status;

on_both_backends!(
    versions_never_scanned_or_whose_scan_failed_are_not_badged_clean_and_sort_above_clean_ones,
    the_review_page_shows_each_finding_once,
    failed_sign_ins_on_one_account_do_not_lock_out_the_address,
    behind_a_trusted_proxy_the_forwarded_address_is_throttled_not_the_proxy,
);

async fn versions_never_scanned_or_whose_scan_failed_are_not_badged_clean_and_sort_above_clean_ones(
    backend: Backend,
) {
    // Arrange: a clean scanned version, one whose scan failed, one never scanned.
    let app = TestApp::spawn(backend).await;
    let (publisher, _) = app.publisher("acme", &["com.example"]).await;
    app.seed_scanned_version(
        &publisher,
        "com.example/aa-clean",
        "1.0.0",
        vec![tool("get_time", "Returns the time.")],
        vec![],
    )
    .await;
    app.seed_scanned_version(&publisher, "com.example/bb-failed", "1.0.0", vec![], vec![])
        .await;
    let failed =
        gatehouse::storage::versions::get_version(&app.db, "com.example/bb-failed", "1.0.0")
            .await
            .unwrap()
            .unwrap();
    let mut tx = app.db.begin().await.unwrap();
    assert!(
        gatehouse::storage::versions::set_status(
            &mut tx,
            &failed.id,
            Status::InReview,
            Status::ScanFailed
        )
        .await
        .unwrap()
    );
    sqlx::query("UPDATE versions SET max_severity = NULL WHERE id = $1")
        .bind(&failed.id)
        .execute(tx.conn())
        .await
        .unwrap();
    tx.commit().await.unwrap();
    gatehouse::registry::publish::publish(
        &app.db,
        &gatehouse::discovery::NetPolicy::from_config(Some("1")).unwrap(),
        &publisher,
        crate::helpers::npm_server("com.example/cc-pending", "1.0.0")
            .to_string()
            .as_bytes(),
    )
    .await
    .unwrap();
    let mut reviewer = FormClient::new(&app);
    reviewer.sign_in("reviewer").await;

    // Act
    let page = reviewer.get("/admin/queue?status=all&sort=severity").await;

    // Assert
    assert_eq!(page.status, StatusCode::OK);
    let body = &page.body;
    assert!(
        body.contains(r#"class="badge sev-failed">scan failed<"#),
        "{body}"
    );
    assert!(
        body.contains(r#"class="badge sev-unscanned">not scanned<"#),
        "{body}"
    );
    let at = |name: &str| body.find(name).unwrap_or_else(|| panic!("{name} missing"));
    assert!(at("bb-failed") < at("aa-clean"), "failed above clean");
    assert!(at("cc-pending") < at("aa-clean"), "unscanned above clean");
    let clean_row = &body[at("aa-clean")..];
    let clean_row = &clean_row[..clean_row.find("</tr>").unwrap()];
    assert!(clean_row.contains("sev-none"), "{clean_row}");
}

async fn the_review_page_shows_each_finding_once(backend: Backend) {
    // Arrange
    let app = TestApp::spawn(backend).await;
    let (publisher, _) = app.publisher("acme", &["com.example"]).await;
    app.seed_scanned_version(
        &publisher,
        "com.example/calc",
        "1.0.0",
        vec![tool("add", POISON)],
        vec![poison_finding("add")],
    )
    .await;
    let mut reviewer = FormClient::new(&app);
    reviewer.sign_in("reviewer").await;

    // Act
    let page = reviewer
        .get(&format!(
            "/admin/servers/{}/versions/1.0.0",
            crate::helpers::enc("com.example/calc")
        ))
        .await;

    // Assert: the message once (with its capability); the urgent box only points at it.
    assert_eq!(page.status, StatusCode::OK);
    let message = "Instruction to read a local file and pass it to the tool";
    assert_eq!(page.body.matches(message).count(), 1, "{}", page.body);
    assert!(page.body.contains("id=\"urgent\""));
}

async fn failed_sign_ins_on_one_account_do_not_lock_out_the_address(backend: Backend) {
    // Arrange: five wrong passwords for one account from this address.
    let app = TestApp::spawn(backend).await;
    let mut browser = FormClient::new(&app);
    let csrf = browser.get("/admin/login").await.csrf();
    for _ in 0..5 {
        let wrong = browser
            .post(
                "/admin/login",
                &[
                    ("_csrf", &csrf),
                    ("name", "reviewer"),
                    ("password", "wrong password"),
                ],
            )
            .await;
        assert_eq!(wrong.status, StatusCode::UNAUTHORIZED);
    }

    // Act: someone else signs in from the same address.
    let other = browser
        .post(
            "/admin/login",
            &[("_csrf", &csrf), ("name", "admin"), ("password", PASSWORD)],
        )
        .await;

    // Assert
    assert_eq!(other.status, StatusCode::SEE_OTHER, "{}", other.body);
}

async fn behind_a_trusted_proxy_the_forwarded_address_is_throttled_not_the_proxy(backend: Backend) {
    // Arrange: the app trusts its loopback proxy; one client (203.0.113.5)
    // fails past the per-address allowance, across many account names.
    let app = TestApp::spawn_with_proxies(backend, &["127.0.0.1/32"]).await;
    let mut attacker = FormClient::new(&app);
    let csrf = attacker.get("/admin/login").await.csrf();
    let from = |ip: &'static str| [("x-forwarded-for", ip)];
    for i in 0..gatehouse::http::ui::session::MAX_ADDRESS_FAILURES {
        let name = format!("guess{i}");
        let wrong = attacker
            .post_with(
                "/admin/login",
                &[
                    ("_csrf", &csrf),
                    ("name", &name),
                    ("password", "wrong password"),
                ],
                &from("203.0.113.5"),
            )
            .await;
        assert_eq!(wrong.status, StatusCode::UNAUTHORIZED);
    }

    // Act
    let throttled = attacker
        .post_with(
            "/admin/login",
            &[("_csrf", &csrf), ("name", "admin"), ("password", PASSWORD)],
            &from("203.0.113.5"),
        )
        .await;
    let mut colleague = FormClient::new(&app);
    let csrf = colleague.get("/admin/login").await.csrf();
    let fine = colleague
        .post_with(
            "/admin/login",
            &[("_csrf", &csrf), ("name", "admin"), ("password", PASSWORD)],
            &from("203.0.113.6"),
        )
        .await;

    // Assert: the failing client waits; another client behind the same proxy does not.
    assert_eq!(throttled.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(
        throttled.body.contains("Try again in"),
        "{}",
        throttled.body
    );
    assert_eq!(fine.status, StatusCode::SEE_OTHER, "{}", fine.body);
    let counted: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM login_failures WHERE scope = 'ip:203.0.113.5'")
            .fetch_one(app.db.pool())
            .await
            .unwrap();
    assert_eq!(counted, gatehouse::http::ui::session::MAX_ADDRESS_FAILURES);
}
