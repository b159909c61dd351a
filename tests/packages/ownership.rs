//! Remote-URL ownership (issue 15): a remote whose origin serves a Server
//! Card naming the server is `card`; one serving the publisher's challenge
//! token is `challenge`; one whose card names another server is
//! `unverified`; and a verified owner takes over a URL that an unverified
//! publisher holds, with an audit row and a `taken_over` delivery queued for
//! the previous holder's webhook. The fixture origins are loopback servers
//! (the network policy allows loopback in tests).

use std::sync::{Arc, Mutex};

use axum::Router;
use axum::http::header::CONTENT_TYPE;
use axum::response::IntoResponse;
use axum::routing::get;
use gatehouse::config::Config;
use gatehouse::discovery::NetPolicy;
use gatehouse::registry::ownership::{Verification, verify_remote};
use gatehouse::registry::publish::{PublishError, publish};
use serde_json::json;

use crate::helpers::{Backend, fresh_database_url};

/// What a fixture origin serves.
#[derive(Clone, Default)]
struct Origin {
    /// The `name` of the card at `/server-card`, if any.
    card_name: Option<String>,
    /// Whether the card is listed only in `/.well-known/ai-catalog.json`.
    via_catalog: bool,
    /// The body of `/.well-known/gatehouse-challenge`, if any.
    challenge: Arc<Mutex<Option<String>>>,
}

/// Serves `origin` on loopback; returns `http://127.0.0.1:PORT`.
async fn serve(origin: Origin) -> String {
    const CARD: &str = "application/mcp-server-card+json";
    let card = origin.card_name.clone().map(|name| {
        (
            [(CONTENT_TYPE, CARD)],
            json!({"name": name, "version": "1.0.0"}).to_string(),
        )
    });
    let mut app = Router::new();
    if let Some(card) = card {
        let path = if origin.via_catalog {
            "/cards/main.json"
        } else {
            "/server-card"
        };
        app = app.route(
            path,
            get(move || async move { card.clone().into_response() }),
        );
        if origin.via_catalog {
            let catalog = json!({"servers": [{"type": CARD, "url": "/cards/main.json"}]});
            app = app.route(
                "/.well-known/ai-catalog.json",
                get(move || async move { axum::Json(catalog.clone()) }),
            );
        }
    }
    let challenge = origin.challenge.clone();
    app = app.route(
        "/.well-known/gatehouse-challenge",
        get(move || {
            let body = challenge.lock().unwrap().clone();
            async move {
                match body {
                    Some(token) => token.into_response(),
                    None => axum::http::StatusCode::NOT_FOUND.into_response(),
                }
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    format!("http://{address}")
}

fn loopback() -> NetPolicy {
    NetPolicy::from_config(Some("1")).unwrap()
}

#[tokio::test]
async fn a_remote_serving_a_card_of_its_name_is_verified_by_card() {
    let name = "com.example/weather";
    for via_catalog in [false, true] {
        let origin = serve(Origin {
            card_name: Some(name.into()),
            via_catalog,
            ..Origin::default()
        })
        .await;
        let state = verify_remote(&format!("{origin}/mcp"), name, &[], None, &loopback()).await;
        assert_eq!(state, Verification::Card, "via catalog: {via_catalog}");
    }
}

#[tokio::test]
async fn a_remote_serving_the_challenge_token_is_verified_by_challenge() {
    let origin = Origin::default();
    *origin.challenge.lock().unwrap() = Some("token-123\n".into());
    let url = format!("{}/mcp", serve(origin).await);
    let net = loopback();
    let verify = |token| verify_remote(&url, "com.example/x", &[], Some(token), &net);
    assert_eq!(verify("token-123").await, Verification::Challenge);
    assert_eq!(verify("another-token").await, Verification::Unverified);
}

#[tokio::test]
async fn a_remote_whose_card_names_another_server_is_unverified() {
    let origin = serve(Origin {
        card_name: Some("com.other/server".into()),
        ..Origin::default()
    })
    .await;
    let state = verify_remote(
        &format!("{origin}/mcp"),
        "com.example/weather",
        &[],
        None,
        &loopback(),
    )
    .await;
    assert_eq!(state, Verification::Unverified);
    // A namespace whose domain covers the host is proof without any request.
    let state = verify_remote(
        "https://mcp.example.com/mcp",
        "com.example/weather",
        &["com.example".into()],
        None,
        &loopback(),
    )
    .await;
    assert_eq!(state, Verification::Domain);
}

async fn a_verified_owner_takes_over_a_url_an_unverified_publisher_holds(backend: Backend) {
    // Arrange: a squatter registers the owner's URL first; the owner has a webhook-less
    // account, the squatter a webhook of its own.
    let dir = tempfile::tempdir().unwrap();
    let mut config = Config::new(dir.path());
    config.database_url = Some(fresh_database_url(&backend, &dir).await);
    let db = gatehouse::startup::connect(&config).await.unwrap();
    let origin = Origin::default();
    let challenge = origin.challenge.clone();
    let url = format!("{}/mcp", serve(origin).await);
    let doc = |name: &str| {
        json!({"name": name, "description": "d", "version": "1.0.0",
            "remotes": [{"type": "streamable-http", "url": url}]})
        .to_string()
    };
    let create = |name: &'static str, ns: &'static str| {
        let db = db.clone();
        async move {
            gatehouse::accounts::create_publisher(&db, name, &[ns.into()], "test")
                .await
                .unwrap()
                .publisher
        }
    };
    let squatter = create("squatter", "com.squatter").await;
    let owner = create("owner", "com.owner").await;
    let bystander = create("bystander", "com.bystander").await;
    publish(
        &db,
        &loopback(),
        &squatter,
        doc("com.squatter/weather").as_bytes(),
    )
    .await
    .unwrap();
    let hook = gatehouse::monitor::webhooks::create_for(
        &db,
        &loopback(),
        "publisher:squatter",
        Some(&squatter.id),
        gatehouse::monitor::webhooks::NewWebhook {
            url: "http://127.0.0.1:9/hook".into(),
            secret: "0123456789abcdef0123".into(),
            events: vec!["taken_over".into()],
        },
    )
    .await
    .unwrap();

    // Act: a publisher without proof is refused; the owner serves its token and publishes.
    let refused = publish(
        &db,
        &loopback(),
        &bystander,
        doc("com.bystander/weather").as_bytes(),
    )
    .await;
    let origin = gatehouse::registry::ownership::origin_of(&url).unwrap();
    let token = gatehouse::storage::ownership::challenge_token(&db, &owner.id, &origin)
        .await
        .unwrap();
    *challenge.lock().unwrap() = Some(token);
    let taken = publish(
        &db,
        &loopback(),
        &owner,
        doc("com.owner/weather").as_bytes(),
    )
    .await;

    // Assert
    assert!(
        matches!(refused, Err(PublishError::RemoteTaken { .. })),
        "{refused:?}"
    );
    let version = taken.expect("the verified owner's publish");
    let remotes = gatehouse::storage::ownership::remotes_of(&db, &version.server_id)
        .await
        .unwrap();
    assert_eq!(remotes.len(), 1);
    assert_eq!(
        (remotes[0].url.as_str(), remotes[0].verification.as_str()),
        (url.as_str(), "challenge")
    );
    let audit = gatehouse::storage::audit::list(
        &db,
        &gatehouse::storage::audit::AuditFilter {
            action: Some("remote.takeover".into()),
            ..Default::default()
        },
        10,
    )
    .await
    .unwrap();
    assert_eq!(audit.len(), 1);
    assert_eq!(audit[0].detail["from"], "com.squatter/weather");
    assert_eq!(audit[0].detail["to"], "com.owner/weather");
    let deliveries = gatehouse::storage::webhooks::deliveries(&db, &hook.id, 10)
        .await
        .unwrap();
    assert_eq!(deliveries.len(), 1);
    assert_eq!(deliveries[0].event, "taken_over");
}

async fn a_scanned_remote_is_verified_reported_signed_and_can_gate_approval(backend: Backend) {
    // Arrange: a registry that verifies remotes, a server on a loopback fixture
    // that serves no card and no token.
    let dir = tempfile::tempdir().unwrap();
    let mut config = Config::new(dir.path());
    config.database_url = Some(fresh_database_url(&backend, &dir).await);
    config.scan_allow_private = Some("1".into());
    config.bootstrap_admin_password = Some("not used in this test".into());
    let running = crate::helpers::start(&config).await;
    let db = running.db().clone();
    let fixture =
        crate::mcp_fixtures::spawn_fixture(crate::mcp_fixtures::FixtureKind::ToolsOnly).await;
    let acme = gatehouse::accounts::create_publisher(&db, "acme", &["com.acme".into()], "test")
        .await
        .unwrap()
        .publisher;
    let doc = json!({"name": "com.acme/tools", "description": "d", "version": "1.0.0",
        "remotes": [{"type": "streamable-http", "url": fixture.url}]});
    let version = publish(&db, &loopback(), &acme, doc.to_string().as_bytes())
        .await
        .unwrap();
    let mut worker = gatehouse::startup::worker_config(&config).unwrap();
    worker.allowlists = running.state().map(|s| s.allowlists.clone());
    assert!(worker.verify_remotes);

    // Act: scan.
    gatehouse::jobs::run_until_idle(&db, &worker).await.unwrap();

    // Assert: the state is recorded and reported.
    let remotes = gatehouse::storage::ownership::remotes_of(&db, &version.server_id)
        .await
        .unwrap();
    assert_eq!(remotes[0].verification, "unverified");
    let scan = gatehouse::storage::versions::latest_scan(&db, &version.id)
        .await
        .unwrap()
        .unwrap();
    let report: serde_json::Value = serde_json::from_str(scan.report.as_deref().unwrap()).unwrap();
    let finding = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule"] == "GH-OWN-003")
        .unwrap_or_else(|| panic!("no GH-OWN-003 in {report}"));
    assert_eq!(
        (finding["severity"].as_str(), finding["evidence"].as_str()),
        (Some("medium"), Some(fixture.url.as_str()))
    );

    // Act and assert: the admin setting refuses the approval; without it the
    // signed allowlist entry carries the state.
    let allowlists = &running.state().unwrap().allowlists;
    let approve = || {
        gatehouse::review::act(
            &db,
            allowlists,
            "com.acme/tools",
            "1.0.0",
            "test:reviewer",
            gatehouse::review::Decision::Approve(Default::default()),
        )
    };
    let set = |required| {
        let db = db.clone();
        async move {
            let mut tx = db.begin().await.unwrap();
            gatehouse::storage::ownership::set_verification_required(&mut tx, required, "test")
                .await
                .unwrap();
            tx.commit().await.unwrap();
        }
    };
    set(true).await;
    let refused = approve().await;
    assert!(
        matches!(&refused, Err(gatehouse::review::ReviewError::Invalid(e)) if e[0].pointer == "/remotes"),
        "{refused:?}"
    );
    set(false).await;
    approve().await.expect("approved");
    let payload = crate::helpers::verified_allowlist(&running.url(), "default").await;
    let entry = payload
        .servers
        .iter()
        .find(|s| s.name == "com.acme/tools")
        .unwrap();
    assert_eq!(
        entry.match_.remotes[0].verification.as_deref(),
        Some("unverified")
    );
}

mod sqlite {
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn a_verified_owner_takes_over_a_url_an_unverified_publisher_holds() {
        super::a_verified_owner_takes_over_a_url_an_unverified_publisher_holds(
            crate::helpers::Backend::Sqlite,
        )
        .await
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn a_scanned_remote_is_verified_reported_signed_and_can_gate_approval() {
        super::a_scanned_remote_is_verified_reported_signed_and_can_gate_approval(
            crate::helpers::Backend::Sqlite,
        )
        .await
    }
}

mod postgres {
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn a_verified_owner_takes_over_a_url_an_unverified_publisher_holds() {
        if let Some(backend) = crate::helpers::Backend::postgres() {
            super::a_verified_owner_takes_over_a_url_an_unverified_publisher_holds(backend).await
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn a_scanned_remote_is_verified_reported_signed_and_can_gate_approval() {
        if let Some(backend) = crate::helpers::Backend::postgres() {
            super::a_scanned_remote_is_verified_reported_signed_and_can_gate_approval(backend).await
        }
    }
}
