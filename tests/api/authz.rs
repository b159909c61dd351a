//! The authorisation matrix: every API route × {anonymous, publisher A,
//! publisher B, reviewer, admin} → the expected status.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::helpers::{Backend, TestApp, npm_server};
use crate::on_both_backends;

on_both_backends!(every_route_answers_each_principal_as_expected);

async fn every_route_answers_each_principal_as_expected(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let a = app.publisher("a", &["com.a"]).await;
    let b = app.publisher("b", &["com.b"]).await;
    app.publish_approved(&a, "com.a/approved", &["1.0.0"]).await;
    for v in ["1.0.0", "2.0.0", "3.0.0"] {
        app.publish(&a, &npm_server("com.a/review", v)).await;
    }
    app.drain_jobs().await;

    let principals: [(&str, Option<&str>); 5] = [
        ("anonymous", None),
        ("publisher A", Some(&a)),
        ("publisher B", Some(&b)),
        ("reviewer", Some(&app.reviewer_token)),
        ("admin", Some(&app.admin_token)),
    ];
    use StatusCode as S;
    // (method, path, body, expected per principal in the order above)
    let reject = |v: &str| format!("/api/v1/admin/servers/com.a%2Freview/versions/{v}/reject");
    let matrix: Vec<(Method, String, Option<Value>, [StatusCode; 5])> = vec![
        (Method::GET, "/v0.1/servers".into(), None, [S::OK; 5]),
        (
            Method::GET,
            "/v0.1/servers/com.a%2Fapproved/versions".into(),
            None,
            [S::OK; 5],
        ),
        (
            Method::GET,
            "/v0.1/servers/com.a%2Fapproved/versions/latest".into(),
            None,
            [S::OK; 5],
        ),
        (
            Method::GET,
            "/api/v1/publisher/versions".into(),
            None,
            [S::UNAUTHORIZED, S::OK, S::OK, S::FORBIDDEN, S::FORBIDDEN],
        ),
        (
            Method::GET,
            "/api/v1/publisher/servers/com.a%2Freview/versions/1.0.0".into(),
            None,
            [
                S::UNAUTHORIZED,
                S::OK,
                S::NOT_FOUND,
                S::FORBIDDEN,
                S::FORBIDDEN,
            ],
        ),
        (
            Method::GET,
            "/api/v1/admin/queue".into(),
            None,
            [S::UNAUTHORIZED, S::FORBIDDEN, S::FORBIDDEN, S::OK, S::OK],
        ),
        (
            Method::GET,
            "/api/v1/admin/servers/com.a%2Freview/versions/1.0.0".into(),
            None,
            [S::UNAUTHORIZED, S::FORBIDDEN, S::FORBIDDEN, S::OK, S::OK],
        ),
        (
            Method::GET,
            "/api/v1/audit".into(),
            None,
            [
                S::UNAUTHORIZED,
                S::FORBIDDEN,
                S::FORBIDDEN,
                S::FORBIDDEN,
                S::OK,
            ],
        ),
        (Method::GET, "/healthz".into(), None, [S::OK; 5]),
        (Method::GET, "/readyz".into(), None, [S::OK; 5]),
        (Method::GET, "/metrics".into(), None, [S::OK; 5]),
        (Method::GET, "/openapi.json".into(), None, [S::OK; 5]),
    ];
    for (method, path, body, expected) in &matrix {
        for ((who, token), want) in principals.iter().zip(expected) {
            let mut req = app
                .client
                .request(method.clone(), format!("{}{path}", app.address));
            if let Some(t) = token {
                req = req.bearer_auth(t);
            }
            if let Some(b) = body {
                req = req.json(b);
            }
            let got = req.send().await.unwrap().status();
            assert_eq!(got, *want, "{method} {path} as {who}");
        }
    }

    // State-changing routes: each principal acts on its own fresh target so an
    // allowed call by one does not change what the next one sees.
    for (i, ((who, token), want)) in principals
        .iter()
        .zip([
            S::UNAUTHORIZED,
            S::CREATED,
            S::FORBIDDEN,
            S::FORBIDDEN,
            S::FORBIDDEN,
        ])
        .enumerate()
    {
        let r = match token {
            Some(t) => app
                .publish(t, &npm_server("com.a/matrix", &format!("0.0.{i}")))
                .await
                .status(),
            None => app
                .client
                .post(format!("{}/v0/publish", app.address))
                .json(&npm_server("com.a/matrix", "0.0.9"))
                .send()
                .await
                .unwrap()
                .status(),
        };
        assert_eq!(r, want, "POST /v0/publish as {who}");
    }
    let decisions = [
        (principals[0], "1.0.0", S::UNAUTHORIZED),
        (principals[1], "1.0.0", S::FORBIDDEN),
        (principals[2], "1.0.0", S::FORBIDDEN),
        (principals[3], "2.0.0", S::OK),
        (principals[4], "3.0.0", S::OK),
    ];
    for ((who, token), version, want) in decisions {
        let got = app
            .post(&reject(version), token, Some(&json!({"reason": "matrix"})))
            .await
            .status();
        assert_eq!(got, want, "POST reject as {who}");
    }
    let status: String = sqlx::query_scalar(
        "SELECT status FROM versions WHERE server_name = 'com.a/review' AND version = '1.0.0'",
    )
    .fetch_one(app.db.pool())
    .await
    .unwrap();
    assert_eq!(status, "in_review", "refused calls changed nothing");
}
