//! Sessions, CSRF, roles, throttling and headers of the web UI, over plain HTTP.

use reqwest::StatusCode;

use crate::helpers::{Backend, FormClient, PASSWORD, TestApp, enc, poison_finding, tool};
use crate::on_both_backends;

on_both_backends!(
    an_anonymous_visitor_is_sent_to_the_sign_in_page,
    a_post_without_the_sessions_csrf_token_is_refused_and_changes_nothing,
    a_reviewer_gets_403_on_admin_pages_and_actions,
    signing_in_rotates_the_session_and_signing_out_ends_it,
    sign_ins_are_throttled_per_account_after_five_failures,
    pages_carry_a_strict_csp_and_a_hardened_session_cookie,
    a_reviewer_rejects_through_the_form_and_the_audit_names_them,
);

async fn an_anonymous_visitor_is_sent_to_the_sign_in_page(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let mut anon = FormClient::new(&app);

    for path in [
        "/admin",
        "/admin/queue",
        "/admin/publishers",
        "/admin/audit",
    ] {
        let answer = anon.get(path).await;

        assert_eq!(answer.status, StatusCode::SEE_OTHER, "{path}");
        assert!(
            answer
                .location
                .as_deref()
                .is_some_and(|l| l.starts_with("/admin/login")),
            "{path}: {:?}",
            answer.location
        );
    }
    let portal = anon.get("/publisher").await;
    assert_eq!(portal.location.as_deref(), Some("/publisher/login"));
    let post = anon
        .post("/admin/servers/x%2Fy/versions/1/approve", &[("_csrf", "x")])
        .await;
    assert_eq!(post.status, StatusCode::SEE_OTHER);
}

async fn a_post_without_the_sessions_csrf_token_is_refused_and_changes_nothing(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (publisher, _) = app.publisher("acme", &["com.example"]).await;
    app.seed_scanned_version(
        &publisher,
        "com.example/calc",
        "1.0.0",
        vec![tool("add", "Adds numbers.")],
        vec![],
    )
    .await;
    let mut alice = FormClient::new(&app);
    alice.sign_in("admin").await;
    let mut bob = FormClient::new(&app);
    bob.sign_in("reviewer").await;
    let bobs_token = bob.csrf_of("/admin/queue").await;
    let audit_before = app.count("audit_log").await;
    let path = format!(
        "/admin/servers/{}/versions/1.0.0/reject",
        enc("com.example/calc")
    );

    let missing = alice.post(&path, &[("reason", "no")]).await;
    let foreign = alice
        .post(&path, &[("_csrf", &bobs_token), ("reason", "no")])
        .await;
    let publisher_form = alice
        .post(
            "/admin/publishers",
            &[
                ("_csrf", "forged"),
                ("name", "evil"),
                ("namespaces", "com.evil"),
            ],
        )
        .await;

    assert_eq!(missing.status, StatusCode::FORBIDDEN);
    assert_eq!(foreign.status, StatusCode::FORBIDDEN);
    assert_eq!(publisher_form.status, StatusCode::FORBIDDEN);
    assert!(missing.body.contains("CSRF"));
    assert_eq!(
        app.version_detail("com.example/calc", "1.0.0").await["status"],
        "in_review"
    );
    assert_eq!(app.count("audit_log").await, audit_before);
    assert_eq!(app.count("publishers").await, 1);
}

async fn a_reviewer_gets_403_on_admin_pages_and_actions(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (publisher, _) = app.publisher("acme", &["com.example"]).await;
    let mut reviewer = FormClient::new(&app);
    reviewer.sign_in("reviewer").await;
    let csrf = reviewer.csrf_of("/admin/queue").await;

    for path in [
        "/admin/publishers",
        "/admin/users",
        "/admin/keys",
        "/admin/audit",
    ] {
        assert_eq!(
            reviewer.get(path).await.status,
            StatusCode::FORBIDDEN,
            "{path}"
        );
    }
    let create = reviewer
        .post(
            "/admin/publishers",
            &[
                ("_csrf", &csrf),
                ("name", "evil"),
                ("namespaces", "com.evil"),
            ],
        )
        .await;
    let token = reviewer
        .post(
            &format!("/admin/publishers/{}/tokens", publisher.id),
            &[("_csrf", &csrf)],
        )
        .await;
    let user = reviewer
        .post(
            "/admin/users",
            &[
                ("_csrf", &csrf),
                ("name", "mallory"),
                ("role", "admin"),
                ("password", PASSWORD),
            ],
        )
        .await;

    assert_eq!(create.status, StatusCode::FORBIDDEN);
    assert_eq!(token.status, StatusCode::FORBIDDEN);
    assert_eq!(user.status, StatusCode::FORBIDDEN);
    assert_eq!(app.count("publishers").await, 1);
    assert_eq!(app.count("api_tokens").await, 2);
    assert_eq!(app.count("users").await, 2);
    // Review pages stay open to reviewers.
    assert_eq!(reviewer.get("/admin").await.status, StatusCode::OK);
    assert_eq!(reviewer.get("/admin/rules").await.status, StatusCode::OK);
}

async fn signing_in_rotates_the_session_and_signing_out_ends_it(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let mut browser = FormClient::new(&app);
    let audited_before = app.count("audit_log").await;
    let form = browser.get("/admin/login").await;
    let before = browser.cookie.clone().expect("the form sets a session");

    let done = browser
        .post(
            "/admin/login",
            &[
                ("_csrf", &form.csrf()),
                ("name", "admin"),
                ("password", PASSWORD),
            ],
        )
        .await;
    let after = browser.cookie.clone().unwrap();
    let csrf = browser.csrf_of("/admin").await;
    let out = browser.post("/admin/logout", &[("_csrf", &csrf)]).await;
    let mut replay = FormClient::new(&app);
    replay.cookie = Some(after.clone());

    assert_eq!(done.status, StatusCode::SEE_OTHER);
    assert_eq!(done.location.as_deref(), Some("/admin"));
    assert_ne!(before, after, "the session id changes at sign-in");
    assert_eq!(out.location.as_deref(), Some("/admin/login"));
    assert_eq!(replay.get("/admin").await.status, StatusCode::SEE_OTHER);
    assert_eq!(
        app.count("audit_log").await,
        audited_before + 1,
        "the sign-in is audited"
    );
}

async fn sign_ins_are_throttled_per_account_after_five_failures(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let mut browser = FormClient::new(&app);
    let csrf = browser.get("/admin/login").await.csrf();

    for _ in 0..5 {
        let wrong = browser
            .post(
                "/admin/login",
                &[
                    ("_csrf", &csrf),
                    ("name", "admin"),
                    ("password", "wrong password"),
                ],
            )
            .await;
        assert_eq!(wrong.status, StatusCode::UNAUTHORIZED);
    }
    let right = browser
        .post(
            "/admin/login",
            &[("_csrf", &csrf), ("name", "admin"), ("password", PASSWORD)],
        )
        .await;

    assert_eq!(right.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(right.body.contains("Too many failed sign-ins"));
    assert_eq!(
        app.count("login_failures").await,
        10,
        "per account and per address"
    );
}

async fn pages_carry_a_strict_csp_and_a_hardened_session_cookie(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let mut browser = FormClient::new(&app);

    let login = browser.get("/admin/login").await;
    let api = reqwest::get(format!("{}/v0.1/servers", app.address))
        .await
        .unwrap();

    let csp = login.headers["content-security-policy"].to_str().unwrap();
    assert!(
        csp.contains("script-src 'self'") && !csp.contains("unsafe-inline"),
        "{csp}"
    );
    assert!(csp.contains("frame-ancestors 'none'"));
    assert_eq!(login.headers["x-content-type-options"], "nosniff");
    assert_eq!(login.headers["referrer-policy"], "no-referrer");
    let cookie = login.headers["set-cookie"].to_str().unwrap();
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"),
        "{cookie}"
    );
    assert!(
        !cookie.contains("Secure"),
        "plain http public URL: {cookie}"
    );
    assert_eq!(
        api.headers()["content-security-policy"],
        "default-src 'none'; frame-ancestors 'none'"
    );
}

async fn a_reviewer_rejects_through_the_form_and_the_audit_names_them(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (publisher, _) = app.publisher("acme", &["com.example"]).await;
    app.seed_scanned_version(
        &publisher,
        "com.example/calc",
        "1.0.0",
        vec![tool("add", crate::helpers::POISON)],
        vec![poison_finding("add")],
    )
    .await;
    let mut reviewer = FormClient::new(&app);
    reviewer.sign_in("reviewer").await;
    let page = format!("/admin/servers/{}/versions/1.0.0", enc("com.example/calc"));
    let csrf = reviewer.csrf_of(&page).await;

    let empty = reviewer
        .post(
            &format!("{page}/reject"),
            &[("_csrf", &csrf), ("reason", " ")],
        )
        .await;
    let shown = reviewer.get(&page).await;
    let done = reviewer
        .post(
            &format!("{page}/reject"),
            &[("_csrf", &csrf), ("reason", "exfiltrates the MCP config")],
        )
        .await;

    assert_eq!(empty.status, StatusCode::SEE_OTHER);
    assert!(shown.body.contains("Not done"), "the refusal is shown");
    assert_eq!(done.location.as_deref(), Some(page.as_str()));
    let detail = app.version_detail("com.example/calc", "1.0.0").await;
    assert_eq!(detail["status"], "rejected");
    let audit: serde_json::Value = reqwest::Client::new()
        .get(format!(
            "{}/api/v1/audit?action=version.reject",
            app.address
        ))
        .bearer_auth(&app.admin_token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(audit["entries"][0]["actor"], "user:reviewer");
    assert_eq!(
        audit["entries"][0]["detail"]["reason"],
        "exfiltrates the MCP config"
    );
}
