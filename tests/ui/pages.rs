//! Pages and forms of the web UI over plain HTTP: tokens shown once, session
//! timeouts, queue filters, revocation, the publisher portal.

use reqwest::StatusCode;

use crate::helpers::{Backend, FormClient, POISON, TestApp, enc, poison_finding, tool};
use crate::on_both_backends;

on_both_backends!(
    a_new_publisher_token_is_shown_once_and_opens_the_portal,
    an_idle_session_ends_and_sends_the_user_to_sign_in,
    the_queue_filters_by_severity_and_links_each_row_to_its_review,
    revoking_needs_a_confirmation_and_a_reason,
    a_publisher_sees_only_its_own_versions_with_their_findings,
    the_review_page_shows_what_changed_since_the_last_approval,
    a_session_ends_after_its_absolute_lifetime_however_busy,
    a_rescan_from_the_review_page_queues_a_scan_job,
    rotating_the_key_from_the_keys_page_re_signs_the_allowlist_under_a_new_root,
    an_unreadable_stored_scan_is_an_error_on_the_page_never_an_empty_review,
    approving_over_an_ownership_finding_needs_its_own_checkbox,
);

async fn a_new_publisher_token_is_shown_once_and_opens_the_portal(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let mut admin = FormClient::new(&app);
    admin.sign_in("admin").await;
    let csrf = admin.csrf_of("/admin/publishers").await;

    let created = admin
        .post(
            "/admin/publishers",
            &[
                ("_csrf", &csrf),
                ("name", "acme"),
                ("namespaces", "com.example, io.example"),
            ],
        )
        .await;
    let first = admin.get("/admin/publishers").await;
    let second = admin.get("/admin/publishers").await;

    assert_eq!(created.location.as_deref(), Some("/admin/publishers"));
    let re = regex::Regex::new(r#"value="(ghs_[A-Za-z0-9_-]+)""#).unwrap();
    let token = re.captures(&first.body).expect("the token is shown")[1].to_string();
    assert!(
        !second.body.contains(&token),
        "the token is shown only once"
    );
    assert!(second.body.contains("io.example"));
    let mut portal = FormClient::new(&app);
    let form = portal.get("/publisher/login").await;
    let signed_in = portal
        .post(
            "/publisher/login",
            &[("_csrf", &form.csrf()), ("token", &token)],
        )
        .await;
    assert_eq!(signed_in.location.as_deref(), Some("/publisher"));
    assert_eq!(portal.get("/publisher").await.status, StatusCode::OK);

    // Revoking the token ends the portal session made with it.
    let page = admin.get("/admin/publishers").await;
    let token_id = regex::Regex::new(r#"action="/admin/tokens/([^/]+)/revoke""#)
        .unwrap()
        .captures(&page.body)
        .unwrap()[1]
        .to_string();
    let revoked = admin
        .post(
            &format!("/admin/tokens/{token_id}/revoke"),
            &[("_csrf", &page.csrf())],
        )
        .await;
    assert_eq!(revoked.status, StatusCode::SEE_OTHER);
    assert_eq!(
        portal.get("/publisher").await.location.as_deref(),
        Some("/publisher/login")
    );
}

async fn an_idle_session_ends_and_sends_the_user_to_sign_in(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let mut admin = FormClient::new(&app);
    admin.sign_in("admin").await;
    assert_eq!(admin.get("/admin").await.status, StatusCode::OK);

    sqlx::query("UPDATE ui_sessions SET last_seen_at = '2000-01-01T00:00:00.000000Z'")
        .execute(app.db.pool())
        .await
        .unwrap();
    let after = admin.get("/admin").await;

    assert_eq!(after.status, StatusCode::SEE_OTHER);
    assert!(after.location.unwrap().starts_with("/admin/login"));
    assert_eq!(
        app.count("ui_sessions").await,
        0,
        "the expired row is deleted"
    );
}

async fn the_queue_filters_by_severity_and_links_each_row_to_its_review(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (publisher, _) = app.publisher("acme", &["com.example"]).await;
    app.seed_scanned_version(
        &publisher,
        "com.example/poisoned",
        "1.0.0",
        vec![tool("add", POISON)],
        vec![poison_finding("add")],
    )
    .await;
    app.seed_scanned_version(
        &publisher,
        "com.example/clean",
        "1.0.0",
        vec![tool("add", "Adds.")],
        vec![],
    )
    .await;
    let mut reviewer = FormClient::new(&app);
    reviewer.sign_in("reviewer").await;

    let all = reviewer.get("/admin/queue").await;
    let high = reviewer
        .get("/admin/queue?severity=high&sort=severity")
        .await;
    let approved = reviewer.get("/admin/queue?status=approved").await;

    assert!(all.body.contains("com.example/poisoned") && all.body.contains("com.example/clean"));
    assert!(high.body.contains("com.example/poisoned"));
    assert!(!high.body.contains("com.example/clean"));
    assert!(approved.body.contains("Nothing matches"));
    let link = format!(
        "/admin/servers/{}/versions/1.0.0",
        enc("com.example/poisoned")
    );
    assert!(
        high.body.contains(&format!("href=\"{link}\"")),
        "{}",
        high.body
    );
    let review = reviewer.get(&link).await;
    assert_eq!(review.status, StatusCode::OK);
    assert!(review.body.contains("GH-INJ-001"));
    assert!(
        review.body.contains("U+200B"),
        "the invisible character is spelled out"
    );
    assert!(!review.body.contains('\u{200B}'), "and not sent raw");
}

async fn revoking_needs_a_confirmation_and_a_reason(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (publisher, _) = app.publisher("acme", &["com.example"]).await;
    app.seed_scanned_version(
        &publisher,
        "com.example/calc",
        "1.0.0",
        vec![tool("add", "Adds.")],
        vec![],
    )
    .await;
    let mut admin = FormClient::new(&app);
    admin.sign_in("admin").await;
    let page = format!("/admin/servers/{}/versions/1.0.0", enc("com.example/calc"));
    let review = admin.get(&page).await;
    let csrf = review.csrf();
    let scan = regex::Regex::new(r#"name="scan" value="([^"]*)""#)
        .unwrap()
        .captures(&review.body)
        .unwrap()[1]
        .to_string();
    let approved = admin
        .post(
            &format!("{page}/approve"),
            &[
                ("_csrf", &csrf),
                ("scan", &scan),
                ("tool", "0"),
                ("audiences", "default"),
            ],
        )
        .await;
    assert_eq!(approved.status, StatusCode::SEE_OTHER);
    assert_eq!(
        app.version_detail("com.example/calc", "1.0.0").await["status"],
        "approved"
    );

    let unconfirmed = admin
        .post(
            &format!("{page}/revoke"),
            &[("_csrf", &csrf), ("reason", "compromised")],
        )
        .await;
    let still = app.version_detail("com.example/calc", "1.0.0").await;
    let confirmed = admin
        .post(
            &format!("{page}/revoke"),
            &[
                ("_csrf", &csrf),
                ("reason", "compromised"),
                ("confirm", "1"),
            ],
        )
        .await;

    assert_eq!(unconfirmed.status, StatusCode::SEE_OTHER);
    assert_eq!(still["status"], "approved");
    assert_eq!(confirmed.status, StatusCode::SEE_OTHER);
    assert_eq!(
        app.version_detail("com.example/calc", "1.0.0").await["status"],
        "revoked"
    );
}

async fn a_publisher_sees_only_its_own_versions_with_their_findings(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (acme, token) = app.publisher("acme", &["com.example"]).await;
    let (other, _) = app.publisher("other", &["org.other"]).await;
    app.seed_scanned_version(
        &acme,
        "com.example/calc",
        "1.0.0",
        vec![tool("add", POISON)],
        vec![poison_finding("add")],
    )
    .await;
    app.seed_scanned_version(&other, "org.other/secret", "1.0.0", vec![], vec![])
        .await;
    let mut portal = FormClient::new(&app);
    let form = portal.get("/publisher/login").await;
    portal
        .post(
            "/publisher/login",
            &[("_csrf", &form.csrf()), ("token", &token)],
        )
        .await;

    let home = portal.get("/publisher").await;
    let own = portal
        .get(&format!(
            "/publisher/servers/{}/versions/1.0.0",
            enc("com.example/calc")
        ))
        .await;
    let foreign = portal
        .get(&format!(
            "/publisher/servers/{}/versions/1.0.0",
            enc("org.other/secret")
        ))
        .await;
    let admin_page = portal.get("/admin/queue").await;

    assert!(home.body.contains("com.example/calc"));
    assert!(!home.body.contains("org.other/secret"));
    assert!(own.body.contains("GH-INJ-001"));
    assert_eq!(foreign.status, StatusCode::NOT_FOUND);
    assert_eq!(
        admin_page.status,
        StatusCode::SEE_OTHER,
        "a publisher session is not a reviewer"
    );
}

async fn the_review_page_shows_what_changed_since_the_last_approval(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (publisher, _) = app.publisher("acme", &["com.example"]).await;
    app.seed_scanned_version(
        &publisher,
        "com.example/calc",
        "1.0.0",
        vec![tool("add", "Adds two numbers."), tool("gone", "Old tool.")],
        vec![],
    )
    .await;
    let mut admin = FormClient::new(&app);
    admin.sign_in("admin").await;
    let first = format!("/admin/servers/{}/versions/1.0.0", enc("com.example/calc"));
    let review = admin.get(&first).await;
    let scan = regex::Regex::new(r#"name="scan" value="([^"]*)""#)
        .unwrap()
        .captures(&review.body)
        .unwrap()[1]
        .to_string();
    admin
        .post(
            &format!("{first}/approve"),
            &[
                ("_csrf", &review.csrf()),
                ("scan", &scan),
                ("tool", "0"),
                ("tool", "1"),
            ],
        )
        .await;
    app.seed_scanned_version(
        &publisher,
        "com.example/calc",
        "2.0.0",
        vec![tool("add", POISON), tool("new_tool", "Brand new.")],
        vec![poison_finding("add")],
    )
    .await;

    let second = admin
        .get(&format!(
            "/admin/servers/{}/versions/2.0.0",
            enc("com.example/calc")
        ))
        .await;

    let body = &second.body;
    assert!(body.contains("Compared with"), "a diff is shown");
    assert!(
        body.contains("class=\"added\""),
        "new_tool is listed as added"
    );
    assert!(
        body.contains("class=\"removed\""),
        "gone is listed as removed"
    );
    assert!(body.contains("<ins>"), "the inserted words are marked");
    assert!(body.contains("new_tool") && body.contains("gone"));
}

async fn a_session_ends_after_its_absolute_lifetime_however_busy(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let mut admin = FormClient::new(&app);
    admin.sign_in("admin").await;

    sqlx::query("UPDATE ui_sessions SET created_at = '2000-01-01T00:00:00.000000Z'")
        .execute(app.db.pool())
        .await
        .unwrap();
    let after = admin.get("/admin").await;

    assert_eq!(after.status, StatusCode::SEE_OTHER);
}

async fn a_rescan_from_the_review_page_queues_a_scan_job(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (publisher, _) = app.publisher("acme", &["com.example"]).await;
    app.seed_scanned_version(&publisher, "com.example/calc", "1.0.0", vec![], vec![])
        .await;
    let jobs_before = app.count("jobs").await;
    let mut reviewer = FormClient::new(&app);
    reviewer.sign_in("reviewer").await;
    let page = format!("/admin/servers/{}/versions/1.0.0", enc("com.example/calc"));
    let csrf = reviewer.csrf_of(&page).await;

    let done = reviewer
        .post(&format!("{page}/rescan"), &[("_csrf", &csrf)])
        .await;

    assert_eq!(done.location.as_deref(), Some(page.as_str()));
    assert_eq!(
        app.version_detail("com.example/calc", "1.0.0").await["status"],
        "pending"
    );
    assert_eq!(app.count("jobs").await, jobs_before + 1);
    assert!(reviewer.get(&page).await.body.contains("Rescan queued"));
}

async fn rotating_the_key_from_the_keys_page_re_signs_the_allowlist_under_a_new_root(
    backend: Backend,
) {
    let app = TestApp::spawn(backend).await;
    let before = app.verified_allowlist("default").await;
    let root_v1 = reqwest::get(format!("{}/v1/root/1.json", app.address))
        .await
        .unwrap()
        .bytes()
        .await
        .unwrap();
    let mut admin = FormClient::new(&app);
    admin.sign_in("admin").await;
    let page = admin.get("/admin/keys").await;
    assert!(page.body.contains("Root version"), "{}", page.body);
    let csrf = page.csrf();

    let done = admin.post("/admin/keys/rotate", &[("_csrf", &csrf)]).await;

    assert_eq!(done.location.as_deref(), Some("/admin/keys"));
    assert!(
        admin
            .get("/admin/keys")
            .await
            .body
            .contains("root version 2 published")
    );
    // A client pinned to root v1 walks to v2 and accepts the re-signed document.
    let root_v2 = reqwest::get(format!("{}/v1/root/2.json", app.address))
        .await
        .unwrap()
        .bytes()
        .await
        .unwrap();
    let envelope = reqwest::get(format!("{}/v1/allowlist", app.address))
        .await
        .unwrap()
        .bytes()
        .await
        .unwrap();
    let mut state = gatehouse::allowlist::ClientState::default();
    let after = gatehouse::allowlist::verify_allowlist(
        &root_v1,
        &[root_v2.to_vec()],
        &envelope,
        "default",
        &mut state,
        chrono::Utc::now(),
    )
    .expect("the rotated document verifies from the old root");
    assert!(after.payload.version > before.version);
    assert_eq!(after.root_version, 2);
    // A reviewer may not rotate keys.
    let mut reviewer = FormClient::new(&app);
    reviewer.sign_in("reviewer").await;
    let csrf = reviewer.csrf_of("/admin/queue").await;
    assert_eq!(
        reviewer
            .post("/admin/keys/rotate", &[("_csrf", &csrf)])
            .await
            .status,
        StatusCode::FORBIDDEN
    );
}

async fn an_unreadable_stored_scan_is_an_error_on_the_page_never_an_empty_review(backend: Backend) {
    // Arrange: a scanned version whose stored report no longer decodes.
    let app = TestApp::spawn(backend).await;
    let (publisher, token) = app.publisher("acme", &["com.example"]).await;
    app.seed_scanned_version(
        &publisher,
        "com.example/calc",
        "1.0.0",
        vec![tool("add", POISON)],
        vec![poison_finding("add")],
    )
    .await;
    sqlx::query("UPDATE scans SET report = '{\"findings\": \"none\"}'")
        .execute(app.db.pool())
        .await
        .unwrap();
    let mut reviewer = FormClient::new(&app);
    reviewer.sign_in("reviewer").await;
    let mut portal = FormClient::new(&app);
    let form = portal.get("/publisher/login").await;
    portal
        .post(
            "/publisher/login",
            &[("_csrf", &form.csrf()), ("token", &token)],
        )
        .await;

    // Act
    let review = reviewer
        .get(&format!(
            "/admin/servers/{}/versions/1.0.0",
            enc("com.example/calc")
        ))
        .await;
    let own = portal
        .get(&format!(
            "/publisher/servers/{}/versions/1.0.0",
            enc("com.example/calc")
        ))
        .await;

    // Assert: an error that says what is wrong, not a page without findings.
    for page in [&review, &own] {
        assert_eq!(page.status, StatusCode::INTERNAL_SERVER_ERROR);
        assert!(
            page.body.contains("Stored data unreadable"),
            "{}",
            page.body
        );
        assert!(
            page.body
                .contains("report of com.example/calc@1.0.0 cannot be read"),
            "{}",
            page.body
        );
    }
    assert!(!review.body.contains("Approve"), "{}", review.body);
}

async fn approving_over_an_ownership_finding_needs_its_own_checkbox(backend: Backend) {
    // Arrange: a scan whose package names another server (GH-OWN-001).
    let app = TestApp::spawn(backend).await;
    let (publisher, _) = app.publisher("acme", &["com.example"]).await;
    let ownership = gatehouse::analysis::Finding {
        rule: "GH-OWN-001".into(),
        category: gatehouse::analysis::Category::Impersonation,
        severity: gatehouse::analysis::Severity::High,
        target: gatehouse::snapshot::Target::server(),
        field: "packages".into(),
        message: "The npm package's package.json names another server in mcpName".into(),
        evidence: "io.github.someone-else/weather".into(),
    };
    app.seed_scanned_version(
        &publisher,
        "com.example/weather",
        "1.0.0",
        vec![tool("forecast", "Forecasts.")],
        vec![ownership],
    )
    .await;
    let mut admin = FormClient::new(&app);
    admin.sign_in("admin").await;
    let page = format!(
        "/admin/servers/{}/versions/1.0.0",
        enc("com.example/weather")
    );
    let review = admin.get(&page).await;
    let csrf = review.csrf();
    let scan = regex::Regex::new(r#"name="scan" value="([^"]*)""#)
        .unwrap()
        .captures(&review.body)
        .unwrap()[1]
        .to_string();
    let fields = |extra: &'static [(&'static str, &'static str)]| {
        let mut all = vec![
            ("_csrf", csrf.clone()),
            ("scan", scan.clone()),
            ("tool", "0".to_string()),
            ("audiences", "default".to_string()),
            ("ack", "1".to_string()),
        ];
        all.extend(extra.iter().map(|(k, v)| (*k, v.to_string())));
        all
    };

    // Act: approve with the high findings acknowledged, without and then with the override.
    let without = fields(&[]);
    let without: Vec<(&str, &str)> = without.iter().map(|(k, v)| (*k, v.as_str())).collect();
    admin.post(&format!("{page}/approve"), &without).await;
    let status_without = app.version_detail("com.example/weather", "1.0.0").await["status"].clone();
    let with = fields(&[("override_ownership", "1")]);
    let with: Vec<(&str, &str)> = with.iter().map(|(k, v)| (*k, v.as_str())).collect();
    admin.post(&format!("{page}/approve"), &with).await;

    // Assert
    assert!(
        review.body.contains(r#"name="override_ownership""#),
        "{}",
        review.body
    );
    assert_eq!(status_without, "in_review");
    assert_eq!(
        app.version_detail("com.example/weather", "1.0.0").await["status"],
        "approved"
    );
}
