//! Seeds a database with approved versions for load tests (`bench/read_api.sh`).
//!
//! Usage: `cargo run --release --example seed_registry -- DATABASE_URL COUNT [--direct]`
//! Publishes COUNT package-only versions (4 versions per server) through the
//! same code paths as the API, scans them and approves them. With `--direct`
//! the approvals only set the status and `isLatest` (what the read API needs),
//! skipping the per-approval allowlist re-signing, which makes seeding 10,000
//! approvals quadratic.

use gatehouse::analysis::RulesConfig;
use gatehouse::discovery::CrawlOptions;
use gatehouse::jobs::{self, WorkerConfig};
use gatehouse::review::{self, ApproveRequest, Decision};
use gatehouse::storage::Db;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let url = args.get(1).expect("DATABASE_URL");
    let count: usize = args
        .get(2)
        .map(|c| c.parse().expect("COUNT"))
        .unwrap_or(10_000);
    let direct = args.iter().any(|a| a == "--direct");
    let db = Db::connect(url).await?;
    let publisher =
        gatehouse::accounts::create_publisher(&db, "bench", &["com.bench".to_string()], "seed")
            .await?
            .publisher;
    let net = gatehouse::discovery::NetPolicy::default();
    let mut published = Vec::with_capacity(count);
    for i in 0..count {
        let (name, version) = (
            format!("com.bench/server-{:05}", i / 4),
            format!("1.{}.0", i % 4),
        );
        let doc = serde_json::json!({
            "$schema": "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
            "name": name, "description": "A benchmark server with a realistic description",
            "repository": {"url": format!("https://github.com/bench/server-{}", i / 4), "source": "github"},
            "version": version,
            "packages": [{"registryType": "npm", "registryBaseUrl": "https://registry.npmjs.org",
                "identifier": format!("@bench/server-{}", i / 4), "version": version, "transport": {"type": "stdio"},
                "environmentVariables": [{"name": "API_KEY", "description": "API key", "isRequired": true, "isSecret": true}]}]
        });
        gatehouse::registry::publish::publish(&db, &net, &publisher, doc.to_string().as_bytes())
            .await?;
        published.push((name, version));
    }
    let worker = WorkerConfig::new(CrawlOptions::default(), RulesConfig::default());
    let scanned = jobs::run_until_idle(&db, &worker).await?;
    let dir = tempfile_dir();
    let allowlists = gatehouse::signing::Publisher::open(&dir, "http://bench.invalid")?;
    for (name, version) in published.iter().filter(|_| direct) {
        let v = gatehouse::storage::versions::get_version(&db, name, version)
            .await?
            .expect("published");
        let mut tx = db.begin().await?;
        gatehouse::storage::versions::set_status(
            &mut tx,
            &v.id,
            v.status,
            gatehouse::registry::lifecycle::Status::Approved,
        )
        .await?;
        gatehouse::storage::versions::recompute_latest(&mut tx, &v.server_id).await?;
        tx.commit().await?;
    }
    for (name, version) in published.iter().filter(|_| !direct) {
        review::act(
            &db,
            &allowlists,
            name,
            version,
            "seed",
            Decision::Approve(ApproveRequest::default()),
        )
        .await?;
    }
    if std::env::var_os("GATEHOUSE_DATA_DIR").is_none() {
        let _ = std::fs::remove_dir_all(&dir);
    }
    println!("seeded {count} approved versions ({scanned} scans)");
    Ok(())
}

/// The data directory whose keys sign the seeded allowlists: `GATEHOUSE_DATA_DIR`
/// (so the server started on it serves documents its own root verifies), or a scratch one.
fn tempfile_dir() -> std::path::PathBuf {
    std::env::var_os("GATEHOUSE_DATA_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| {
            std::env::temp_dir().join(format!("gatehouse-seed-{}", std::process::id()))
        })
}
