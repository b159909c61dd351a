//! Monitor benchmark (issue 14; `bench/monitor.sh` runs it, figures in
//! BENCHMARKS.md "Monitor"). Three modes:
//!
//! - `fixture PORT N`: N fixture MCP servers (older revision, 10 tools each,
//!   a GET notification stream each) on one loopback port, at
//!   `/mcp/0` … `/mcp/N-1`; `GET /stats` says how many streams are open.
//! - `seed DATABASE_URL DATA_DIR BASE N`: publishes the N servers, scans them
//!   through the job queue and approves them (as reviewers do), gives every
//!   version its schedule row and makes them all due now.
//! - `wait DATABASE_URL N`: waits until every version has been rescanned once
//!   more and prints the pass: first monitor scan started → last finished.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use gatehouse::review::{self, ApproveRequest, Decision};
use gatehouse::storage::Db;
use serde_json::{Value, json};

#[tokio::main(flavor = "multi_thread")]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("fixture") => fixture(args[2].parse()?, args[3].parse()?).await,
        Some("seed") => seed(&args[2], &args[3], &args[4], args[5].parse()?).await,
        Some("wait") => wait(&args[2], args[3].parse()?).await,
        _ => anyhow::bail!(
            "usage: monitor_bench fixture PORT N | seed DB DATA_DIR BASE N | wait DB N"
        ),
    }
}

#[derive(Clone, Default)]
struct Fixture {
    streams: Arc<AtomicUsize>,
}

/// Ten tools of server `i`. Names are distinct across servers and far apart
/// (a hash suffix): the same ten names on a thousand servers would make every
/// rescan report ten thousand tool-name conflicts with the other approved
/// servers, which is the analysis of a pathological registry, not a rescan.
fn tools(i: usize) -> Vec<Value> {
    const VERBS: [&str; 5] = ["get", "list", "create", "update", "search"];
    const NOUNS: [&str; 5] = ["issue", "invoice", "forecast", "ticket", "record"];
    (0..10)
        .map(|t| {
            let mut h: u64 = 0xcbf2_9ce4_8422_2325;
            for b in format!("{i}/{t}").bytes() {
                h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
            }
            let (verb, noun) = (VERBS[t % 5], NOUNS[(t / 5 + i) % 5]);
            json!({"name": format!("{verb}_{noun}_{:08x}", h as u32),
                "description": format!("{} the {noun} with the given id and returns it as JSON.", verb[..1].to_uppercase() + &verb[1..]),
                "inputSchema": {"type": "object", "properties": {"id": {"type": "string", "description": format!("The id of the {noun}.")}},
                    "required": ["id"]}})
        })
        .collect()
}

async fn post(Path(i): Path<usize>, body: Bytes) -> Response {
    let Ok(request) = serde_json::from_slice::<Value>(&body) else {
        return axum::http::StatusCode::BAD_REQUEST.into_response();
    };
    let Some(id) = request.get("id").cloned() else {
        return axum::http::StatusCode::ACCEPTED.into_response();
    };
    let mut answer = match request["method"].as_str().unwrap_or_default() {
        "initialize" => json!({"result": {"protocolVersion": "2025-06-18",
            "capabilities": {"tools": {"listChanged": true}},
            "serverInfo": {"name": format!("bench-{i}"), "version": "1.0.0"}}}),
        "tools/list" => json!({"result": {"tools": tools(i)}}),
        _ => json!({"error": {"code": -32601, "message": "method not found"}}),
    };
    answer["jsonrpc"] = json!("2.0");
    answer["id"] = id;
    let mut response = axum::Json(answer).into_response();
    response
        .headers_mut()
        .insert("mcp-session-id", format!("s{i}").parse().unwrap());
    response
}

/// A notification stream that stays open and idle (a comment every 30 s).
async fn get(State(f): State<Fixture>) -> Response {
    struct Open(Arc<AtomicUsize>);
    impl Drop for Open {
        fn drop(&mut self) {
            self.0.fetch_sub(1, Ordering::SeqCst);
        }
    }
    f.streams.fetch_add(1, Ordering::SeqCst);
    let open = Open(f.streams.clone());
    let stream = futures_util::stream::unfold(open, |open| async move {
        tokio::time::sleep(Duration::from_secs(30)).await;
        Some((
            Ok::<_, std::convert::Infallible>(Bytes::from(": keep-alive\n\n")),
            open,
        ))
    });
    Response::builder()
        .header("content-type", "text/event-stream")
        .body(Body::from_stream(stream))
        .unwrap()
}

async fn fixture(port: u16, n: usize) -> anyhow::Result<()> {
    let state = Fixture::default();
    let app = axum::Router::new()
        .route(
            "/mcp/{i}",
            axum::routing::post(post)
                .get(get)
                .delete(|| async { axum::http::StatusCode::OK }),
        )
        .route(
            "/stats",
            axum::routing::get(|State(f): State<Fixture>| async move {
                axum::Json(json!({"streams": f.streams.load(Ordering::SeqCst)}))
            }),
        )
        .with_state(state);
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
    println!("fixture: {n} servers on http://127.0.0.1:{port}/mcp/{{0..{n}}}");
    axum::serve(listener, app).await?;
    Ok(())
}

async fn seed(url: &str, data_dir: &str, base: &str, n: usize) -> anyhow::Result<()> {
    let started = Instant::now();
    let mut config = gatehouse::config::Config::new(data_dir);
    config.database_url = Some(url.to_string());
    config.scan_allow_private = Some("1".into());
    config.bootstrap_admin_password = Some("bench-admin-password".into());
    // Migrations, keys and the first admin, as `gatehouse serve` makes them.
    let app = gatehouse::startup::Application::build_with_listener(
        &config,
        tokio::net::TcpListener::bind("127.0.0.1:0").await?,
    )
    .await?
    .without_workers();
    let db = app.db().clone();
    let mut worker = gatehouse::startup::worker_config(&config)?;
    worker.allowlists = app.state().map(|s| s.allowlists.clone());
    let allowlists = worker.allowlists.clone().expect("keys");
    let publisher =
        gatehouse::accounts::create_publisher(&db, "bench", &["com.bench".to_string()], "seed")
            .await?
            .publisher;
    let net =
        gatehouse::discovery::NetPolicy::from_config(Some("1")).map_err(anyhow::Error::msg)?;
    for i in 0..n {
        let doc = json!({"name": format!("com.bench/live-{i:04}"), "description": "A monitored benchmark server",
            "version": "1.0.0", "remotes": [{"type": "streamable-http", "url": format!("{base}/mcp/{i}")}]});
        gatehouse::registry::publish::publish(&db, &net, &publisher, doc.to_string().as_bytes())
            .await?;
    }
    // Scanned as `gatehouse serve` scans (concurrently, with the default settings).
    let workers: Vec<_> = (0..config.workers)
        .map(|k| {
            let (db, mut w) = (db.clone(), worker.clone());
            w.worker_id = format!("seed/{k}");
            tokio::spawn(async move { gatehouse::jobs::run_until_idle(&db, &w).await })
        })
        .collect();
    for w in workers {
        w.await??;
    }
    for i in 0..n {
        review::act(
            &db,
            &allowlists,
            &format!("com.bench/live-{i:04}"),
            "1.0.0",
            "seed",
            Decision::Approve(ApproveRequest::default()),
        )
        .await?;
    }
    gatehouse::monitor::schedule_pass(&db, &gatehouse::monitor::Policy::default(), 0).await?;
    gatehouse::storage::monitor::make_all_due(&db).await?;
    println!(
        "seeded {n} approved versions, all due, in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

async fn wait(url: &str, n: usize) -> anyhow::Result<()> {
    let db = Db::connect(url).await?;
    let started = Instant::now();
    loop {
        let done: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM (SELECT version_id FROM scans GROUP BY version_id HAVING COUNT(*) >= 2) t",
        )
        .fetch_one(db.pool())
        .await?;
        if done as usize >= n {
            break;
        }
        anyhow::ensure!(
            started.elapsed() < Duration::from_secs(3600),
            "only {done} of {n} rescanned"
        );
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    let (first, last): (String, String) = sqlx::query_as(
        "SELECT MIN(s.started_at), MAX(s.finished_at) FROM scans s JOIN jobs j ON j.id = s.job_id WHERE j.kind = 'monitor'",
    )
    .fetch_one(db.pool())
    .await?;
    let parse = |t: &str| gatehouse::storage::parse_ts(t).expect("a timestamp");
    let pass = parse(&last) - parse(&first);
    println!(
        "pass: {n} versions rescanned in {:.1} s (first monitor scan started {first}, last finished {last})",
        pass.num_milliseconds() as f64 / 1000.0
    );
    Ok(())
}
