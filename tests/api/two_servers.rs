//! Two registries on one database: fifty approvals sent to both at once. The
//! allowlist versions clients see only increase, every version is signed
//! once, and both servers end up serving the final document with all fifty
//! servers.
//!
//! Each server is a whole application as `gatehouse serve` builds it
//! (`gatehouse::startup`): its own pool, signing-key store, allowlist cache,
//! refresher and two scan workers; they share only the database and the data
//! directory, as two processes would. Both listeners are bound before either
//! server starts, so no port can be taken in between.

use std::time::{Duration, Instant};

use base64::Engine;
use futures_util::future::join_all;
use gatehouse::config::Config;
use gatehouse::startup::{Application, Running};
use gatehouse::storage::Db;
use gatehouse::storage::accounts::Role;
use serde_json::{Value, json};
use sqlx::Connection;

/// Starts a registry on `listener` with the settings of the test's `gatehouse serve`.
async fn start_server(
    database_url: &str,
    data_dir: &std::path::Path,
    listener: tokio::net::TcpListener,
) -> (Running, String) {
    let mut config = Config::new(data_dir);
    config.database_url = Some(database_url.to_string());
    config.bootstrap_admin_password = Some("not-used-in-this-test".into());
    config.workers = 2;
    // The fixture packages do not exist: they are reported as not crawled.
    config.scan_packages = false;
    let running = Application::build_with_listener(&config, listener)
        .await
        .expect("the server starts")
        .spawn();
    let url = running.url();
    (running, url)
}

async fn allowlist_version(client: &reqwest::Client, base: &str) -> (u64, usize) {
    let env: Value = client
        .get(format!("{base}/v1/allowlist"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let payload = base64::engine::general_purpose::STANDARD
        .decode(env["payload"].as_str().unwrap())
        .unwrap();
    let payload: Value = serde_json::from_slice(&payload).unwrap();
    (
        payload["version"].as_u64().unwrap(),
        payload["servers"].as_array().unwrap().len(),
    )
}

async fn database_url(dir: &tempfile::TempDir) -> Option<String> {
    match std::env::var("GATEHOUSE_TEST_POSTGRES_URL") {
        Ok(base) if !base.is_empty() => {
            sqlx::any::install_default_drivers();
            let name = format!("gh_test_{}", uuid::Uuid::new_v4().simple());
            let mut conn = sqlx::AnyConnection::connect(&base).await.unwrap();
            sqlx::query(&format!("CREATE DATABASE {name}"))
                .execute(&mut conn)
                .await
                .unwrap();
            let mut url = url::Url::parse(&base).unwrap();
            url.set_path(&name);
            Some(url.to_string())
        }
        _ if std::env::var("GATEHOUSE_REQUIRE_PEERS").is_ok_and(|v| v == "1") => {
            panic!("GATEHOUSE_REQUIRE_PEERS=1 but GATEHOUSE_TEST_POSTGRES_URL is not set")
        }
        _ => {
            eprintln!(
                "SKIPPED: two servers on PostgreSQL (set GATEHOUSE_TEST_POSTGRES_URL); running on SQLite instead"
            );
            Some(format!(
                "sqlite://{}",
                dir.path().join("gatehouse.db").display()
            ))
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn fifty_concurrent_approvals_through_two_servers_only_increase_the_version() {
    // Arrange: the database, a publisher and an admin token, then two servers sharing database and keys.
    let dir = tempfile::tempdir().unwrap();
    let url = database_url(&dir).await.unwrap();
    let db = Db::connect(&url).await.unwrap();
    let publisher_token =
        gatehouse::accounts::create_publisher(&db, "acme", &["com.example".into()], "test")
            .await
            .unwrap()
            .token;
    let admin_token = gatehouse::accounts::create_staff_token(&db, "test", Role::Admin, "test")
        .await
        .unwrap();
    let (listen_a, listen_b) = (
        tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap(),
        tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap(),
    );
    let a = start_server(&url, dir.path(), listen_a).await;
    let b = start_server(&url, dir.path(), listen_b).await;
    let client = reqwest::Client::new();
    for i in 0..50 {
        let doc = json!({"name": format!("com.example/s{i:02}"), "description": "d", "version": "1.0.0",
            "packages": [{"registryType": "npm", "identifier": format!("@example/s{i}"), "version": "1.0.0", "transport": {"type": "stdio"}}]});
        let r = client
            .post(format!("{}/v0/publish", a.1))
            .bearer_auth(&publisher_token)
            .json(&doc)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 201);
    }
    // The two servers' own workers scan everything.
    let started = Instant::now();
    loop {
        let ready: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM versions WHERE status = 'in_review'")
                .fetch_one(db.pool())
                .await
                .unwrap();
        if ready == 50 {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "scans did not finish ({ready}/50)"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    // Act: fifty approvals at once, alternating between the servers, while a client polls both.
    let poller = {
        let (client, urls) = (client.clone(), [a.1.clone(), b.1.clone()]);
        tokio::spawn(async move {
            let mut seen = [Vec::new(), Vec::new()];
            for i in 0..120 {
                seen[i % 2].push(allowlist_version(&client, &urls[i % 2]).await.0);
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
            seen
        })
    };
    let approvals = (0..50).map(|i| {
        let base = if i % 2 == 0 { a.1.clone() } else { b.1.clone() };
        let (client, token) = (client.clone(), admin_token.clone());
        async move {
            client
                .post(format!(
                    "{base}/api/v1/admin/servers/com.example%2Fs{i:02}/versions/1.0.0/approve"
                ))
                .bearer_auth(token)
                .send()
                .await
                .unwrap()
                .status()
        }
    });
    let statuses = join_all(approvals).await;

    // Assert
    assert!(statuses.iter().all(|s| s.as_u16() == 200), "{statuses:?}");
    for (server, versions) in poller.await.unwrap().iter().enumerate() {
        assert!(
            versions.windows(2).all(|w| w[0] <= w[1]),
            "server {server} went back: {versions:?}"
        );
    }
    let signed: Vec<i64> = sqlx::query_scalar(
        "SELECT version FROM allowlist_documents WHERE audience = 'default' ORDER BY version",
    )
    .fetch_all(db.pool())
    .await
    .unwrap();
    let last = *signed.last().unwrap();
    assert_eq!(
        signed,
        (1..=last).collect::<Vec<_>>(),
        "no version skipped or reused"
    );
    for server in [&a, &b] {
        let started = Instant::now();
        loop {
            let (version, servers) = allowlist_version(&client, &server.1).await;
            if version as i64 == last {
                assert_eq!(servers, 50, "the final document lists every approval");
                break;
            }
            assert!(
                started.elapsed() < Duration::from_secs(5),
                "{} still serves version {version} of {last}",
                server.1
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    // Both stop cleanly: requests drained, workers done, pools closed.
    let (a, b) = (a.0, b.0);
    a.shutdown().await.unwrap();
    b.shutdown().await.unwrap();
}
