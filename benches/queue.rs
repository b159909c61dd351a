//! Job-queue benchmark: 100 fixture MCP servers × 50 tools, each published as
//! a version, scanned through the job queue (claim, crawl, analyse, store)
//! by the in-process workers of a registry started as `gatehouse serve`
//! starts it (8 of them), on a fresh SQLite database (and on PostgreSQL
//! when `GATEHOUSE_TEST_POSTGRES_URL` is set). Target: under 15 s on loopback.
//!
//! Run: `cargo bench --bench queue` (figures go to `BENCHMARKS.md`).

#[path = "../tests/support/mcp_fixtures.rs"]
mod mcp_fixtures;

use std::time::{Duration, Instant};

use gatehouse::config::Config;
use gatehouse::discovery::NetPolicy;
use gatehouse::startup::Application;
use mcp_fixtures::{FixtureKind, spawn_fixture};
use sqlx::Connection;

const SERVERS: usize = 100;
const TOOLS: usize = 50;
const CONCURRENCY: usize = 8;

#[tokio::main(flavor = "multi_thread")]
async fn main() {
    let dir = std::env::temp_dir().join(format!("gatehouse-queue-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut targets = vec![(
        "sqlite",
        format!("sqlite://{}", dir.join("bench.db").display()),
    )];
    if let Ok(base) = std::env::var("GATEHOUSE_TEST_POSTGRES_URL") {
        sqlx::any::install_default_drivers();
        let name = format!("gh_queue_bench_{}", std::process::id());
        let mut conn = sqlx::AnyConnection::connect(&base).await.unwrap();
        sqlx::query(&format!("CREATE DATABASE {name}"))
            .execute(&mut conn)
            .await
            .unwrap();
        let mut url = url::Url::parse(&base).unwrap();
        url.set_path(&name);
        targets.push(("postgres", url.to_string()));
    }
    let mut fixtures = Vec::new();
    for _ in 0..SERVERS {
        fixtures.push(
            spawn_fixture(FixtureKind::ManyTools {
                total: TOOLS,
                per_page: TOOLS,
            })
            .await,
        );
    }
    for (backend, url) in targets {
        // The registry as `gatehouse serve` starts it, with CONCURRENCY workers.
        let mut config = Config::new(dir.join(backend));
        config.database_url = Some(url.clone());
        config.scan_allow_private = Some("1".into());
        config.bootstrap_admin_password = Some("not-used-in-the-bench".into());
        config.workers = CONCURRENCY;
        // The queue's own cost: no ownership fetches beside the crawls.
        config.verify_remotes = false;
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let mut app = Application::build_with_listener(&config, listener)
            .await
            .unwrap();
        app.worker_config_mut().poll_interval = Duration::from_millis(20);
        let db = app.db().clone();
        let publisher =
            gatehouse::accounts::create_publisher(&db, "bench", &["com.bench".into()], "bench")
                .await
                .unwrap()
                .publisher;
        let net = NetPolicy::allow_all();
        for (i, f) in fixtures.iter().enumerate() {
            let doc = serde_json::json!({"name": format!("com.bench/s{i:03}"), "description": "bench", "version": "1.0.0",
                "remotes": [{"type": "streamable-http", "url": f.url}]});
            gatehouse::registry::publish::publish(
                &db,
                &net,
                &publisher,
                doc.to_string().as_bytes(),
            )
            .await
            .unwrap();
        }
        let started = Instant::now();
        let running = app.spawn();
        loop {
            let open = gatehouse::storage::jobs::count_open(&db).await.unwrap();
            if open == 0 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let wall = started.elapsed();
        let in_review: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM versions WHERE status = 'in_review'")
                .fetch_one(db.pool())
                .await
                .unwrap();
        running.shutdown().await.unwrap();
        println!(
            "queue/{backend}: {SERVERS} servers x {TOOLS} tools, concurrency {CONCURRENCY}: {:.2} s wall, {in_review} in review",
            wall.as_secs_f64()
        );
        assert_eq!(in_review as usize, SERVERS, "every scan completed");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
