//! The scan queue survives a worker dying mid-crawl: a `gatehouse worker`
//! process killed with SIGKILL during a slow scan leaves its job leased; once
//! the lease expires another worker claims it, and exactly one completed scan
//! is stored.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use gatehouse::analysis::RulesConfig;
use gatehouse::config::Config;
use gatehouse::discovery::NetPolicy;
use gatehouse::jobs;
use gatehouse::startup;
use gatehouse::storage::Db;
use serde_json::{Value, json};

/// A minimal Streamable HTTP MCP server whose `tools/list` answer takes `delay_ms`.
#[derive(Clone, Default)]
struct SlowServer {
    delay_ms: Arc<AtomicU64>,
    lists_started: Arc<AtomicUsize>,
}

async fn handle(
    State(s): State<SlowServer>,
    _headers: HeaderMap,
    Json(req): Json<Value>,
) -> Response {
    let id = req.get("id").cloned();
    let result = match req["method"].as_str().unwrap_or_default() {
        "initialize" => json!({
            "protocolVersion": "2025-06-18",
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "slow-clock", "version": "1.0.0"}
        }),
        "tools/list" => {
            s.lists_started.fetch_add(1, Ordering::SeqCst);
            tokio::time::sleep(Duration::from_millis(s.delay_ms.load(Ordering::SeqCst))).await;
            json!({"tools": [{"name": "get_time", "description": "Returns the current time in ISO 8601 format", "inputSchema": {"type": "object", "properties": {}}}]})
        }
        _ if id.is_none() => return StatusCode::ACCEPTED.into_response(),
        _ => return Json(json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": "no such method"}})).into_response(),
    };
    Json(json!({"jsonrpc": "2.0", "id": id, "result": result})).into_response()
}

async fn spawn_slow_server(server: SlowServer) -> String {
    let app = axum::Router::new()
        .route("/mcp", post(handle).delete(|| async { StatusCode::OK }))
        .with_state(server);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    url
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_job_whose_worker_was_killed_is_claimed_again_and_scanned_once() {
    kill_a_worker_mid_crawl_and_reclaim(Some(2)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn with_the_default_lease_a_killed_workers_job_restarts_within_30_seconds() {
    // The lease is short because a live worker renews it by heartbeat.
    let waited = kill_a_worker_mid_crawl_and_reclaim(None).await;
    assert!(
        waited < Duration::from_secs(30),
        "reclaimed after {waited:?}"
    );
}

/// A fresh SQLite registry (in a directory a worker process can share) with
/// `com.example/clock` 1.0.0 published, its remote at `url`.
struct Published {
    dir: tempfile::TempDir,
    database_url: String,
    /// The registry's settings (the scanner may reach loopback).
    config: Config,
    db: Db,
    version: gatehouse::storage::versions::VersionRow,
}

async fn publish_clock(url: &str) -> Published {
    let dir = tempfile::tempdir().unwrap();
    let database_url = format!("sqlite://{}", dir.path().join("gatehouse.db").display());
    let mut config = Config::new(dir.path());
    config.database_url = Some(database_url.clone());
    config.scan_allow_private = Some("1".into());
    config.verify_remotes = false;
    let db = startup::connect(&config).await.unwrap();
    let publisher =
        gatehouse::accounts::create_publisher(&db, "acme", &["com.example".into()], "test")
            .await
            .unwrap()
            .publisher;
    let doc = json!({"name": "com.example/clock", "description": "Clock", "version": "1.0.0",
        "remotes": [{"type": "streamable-http", "url": url}]});
    let net = NetPolicy::from_config(Some("1")).unwrap();
    let version =
        gatehouse::registry::publish::publish(&db, &net, &publisher, doc.to_string().as_bytes())
            .await
            .unwrap();
    Published {
        dir,
        database_url,
        config,
        db,
        version,
    }
}

/// Publishes a version on a slow server, lets a `gatehouse worker` process
/// (with `lease_secs`, or the default lease) claim it and kills it mid-crawl,
/// then runs a worker with the same lease until it reclaims the job; returns
/// how long after the kill the job was claimed again.
async fn kill_a_worker_mid_crawl_and_reclaim(lease_secs: Option<u64>) -> Duration {
    // Arrange: a slow server, a published version pointing at it, a database file shared with a worker process.
    let slow = SlowServer::default();
    slow.delay_ms.store(60_000, Ordering::SeqCst);
    let url = spawn_slow_server(slow.clone()).await;
    let Published {
        dir,
        database_url,
        mut config,
        db,
        version,
    } = publish_clock(&url).await;

    // Act 1: a real worker process claims the job and is killed mid-crawl.
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_gatehouse"));
    command
        .arg("worker")
        .env("GATEHOUSE_DATABASE_URL", &database_url)
        .env("GATEHOUSE_DATA_DIR", dir.path())
        .env("GATEHOUSE_SCAN_ALLOW_PRIVATE", "1")
        .env("GATEHOUSE_VERIFY_REMOTES", "false")
        .env_remove("GATEHOUSE_JOB_LEASE_SECS")
        .env("GATEHOUSE_WORKERS", "1")
        .env("GATEHOUSE_LOG", "warn");
    if let Some(secs) = lease_secs {
        command.env("GATEHOUSE_JOB_LEASE_SECS", secs.to_string());
    }
    let mut worker = command.spawn().unwrap();
    let started = Instant::now();
    while slow.lists_started.load(Ordering::SeqCst) == 0 {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the worker never reached tools/list"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    worker.kill().unwrap(); // SIGKILL
    worker.wait().unwrap();
    let killed = Instant::now();
    let (state, attempts): (String, i64) = sqlx::query_as("SELECT state, attempts FROM jobs")
        .fetch_one(db.pool())
        .await
        .unwrap();
    assert_eq!(
        (state.as_str(), attempts),
        ("running", 1),
        "the dead worker's claim is still held"
    );
    assert_eq!(
        gatehouse::storage::versions::count_scans(&db, &version.id)
            .await
            .unwrap(),
        0
    );

    // Act 2: the server answers promptly now; another worker takes over once the lease expires.
    slow.delay_ms.store(0, Ordering::SeqCst);
    if let Some(secs) = lease_secs {
        config.job_lease_secs = secs;
    }
    let config = startup::worker_config(&config).unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while jobs::run_next(&db, &config).await.unwrap() == jobs::Outcome::Idle {
        assert!(
            Instant::now() < deadline,
            "the expired lease was never reclaimed"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let waited = killed.elapsed();
    jobs::run_until_idle(&db, &config).await.unwrap();

    // Assert: one completed scan, the version in review, the job done after two attempts.
    assert_eq!(
        gatehouse::storage::versions::count_scans(&db, &version.id)
            .await
            .unwrap(),
        1
    );
    let (state, attempts): (String, i64) = sqlx::query_as("SELECT state, attempts FROM jobs")
        .fetch_one(db.pool())
        .await
        .unwrap();
    assert_eq!((state.as_str(), attempts), ("done", 2));
    let v = gatehouse::storage::versions::get_version(&db, "com.example/clock", "1.0.0")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(v.status.as_str(), "in_review");
    let scan = gatehouse::storage::versions::latest_scan(&db, &version.id)
        .await
        .unwrap()
        .unwrap();
    let snapshot: gatehouse::snapshot::Snapshot =
        serde_json::from_str(&scan.snapshot.unwrap()).unwrap();
    assert_eq!(snapshot.tools[0].name, "get_time");
    waited
}

fn panicking_analysis(
    _: &gatehouse::snapshot::Snapshot,
    _: &gatehouse::analysis::Context,
    _: &RulesConfig,
) -> gatehouse::analysis::Report {
    panic!("index out of range in a rule")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_panicking_analysis_leaves_the_version_in_review_with_the_failure_visible() {
    let url = spawn_slow_server(SlowServer::default()).await;
    let Published {
        dir: _dir,
        config,
        db,
        version,
        ..
    } = publish_clock(&url).await;
    let mut config = startup::worker_config(&config).unwrap();
    config.analyzer = panicking_analysis;

    assert_eq!(jobs::run_until_idle(&db, &config).await.unwrap(), 1);

    let v = gatehouse::storage::versions::get_version(&db, "com.example/clock", "1.0.0")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(v.status.as_str(), "in_review", "never left in scanning");
    assert_eq!(
        v.max_severity.as_deref(),
        Some("high"),
        "the queue shows the failure"
    );
    let (state, attempts): (String, i64) = sqlx::query_as("SELECT state, attempts FROM jobs")
        .fetch_one(db.pool())
        .await
        .unwrap();
    assert_eq!((state.as_str(), attempts), ("done", 1), "no retry loop");
    let scan = gatehouse::storage::versions::latest_scan(&db, &version.id)
        .await
        .unwrap()
        .unwrap();
    let report: gatehouse::analysis::Report = serde_json::from_str(&scan.report.unwrap()).unwrap();
    let failed: Vec<_> = report
        .findings
        .iter()
        .filter(|f| f.rule == "GH-ANA-001")
        .collect();
    assert_eq!(failed.len(), 1, "{:?}", report.findings);
    assert_eq!(failed[0].severity, gatehouse::analysis::Severity::High);
    assert!(failed[0].evidence.contains("index out of range"));
    assert_eq!(report.server.name, "com.example/clock");
    // The snapshot is kept, so a reviewer can read what was not analysed.
    assert!(scan.snapshot.unwrap().contains("get_time"));
}
