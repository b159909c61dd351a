//! Test harness: the real application on port 0 against a fresh database —
//! an SQLite file in a temporary directory, or a new database on the PostgreSQL
//! server named by `GATEHOUSE_TEST_POSTGRES_URL`.

use std::time::Duration;

use gatehouse::accounts;
use gatehouse::jobs::{self, WorkerConfig};
use gatehouse::startup::Running;
use gatehouse::storage::Db;
use gatehouse::storage::accounts::Role;
use reqwest::StatusCode;
use serde_json::{Value, json};

#[path = "../support/backends.rs"]
mod backends;
pub use backends::{Backend, fresh_database_url};
use backends::{start, test_config};

/// Password of the first admin (`admin`), created at start-up.
const ADMIN_PASSWORD: &str = "correct horse battery staple";

/// A running application with its database and credentials.
pub struct TestApp {
    /// `http://127.0.0.1:PORT`.
    pub address: String,
    /// The application's database.
    pub db: Db,
    /// HTTP client.
    pub client: reqwest::Client,
    /// An admin API token.
    pub admin_token: String,
    /// A reviewer API token.
    pub reviewer_token: String,
    /// Worker settings for driving the queue.
    pub worker: WorkerConfig,
    /// Where the signing keys live.
    pub data_dir: std::path::PathBuf,
    /// The database URL (for a second server on the same database).
    pub database_url: String,
    /// The running server; dropped (stopped) before the directory is removed.
    _running: Running,
    _dir: tempfile::TempDir,
}

impl TestApp {
    /// Starts the application on a fresh database.
    pub async fn spawn(backend: Backend) -> TestApp {
        let _ = tracing_subscriber::fmt()
            .with_env_filter("warn")
            .with_test_writer()
            .try_init();
        let dir = tempfile::tempdir().expect("temp dir");
        let url = fresh_database_url(&backend, &dir).await;
        let config = test_config(&url, dir.path(), ADMIN_PASSWORD);
        let running = start(&config).await;
        let address = running.url();
        let db = running.db().clone();

        let admin_token = Self::token(&db, Role::Admin, "test-admin").await;
        let reviewer_token = Self::token(&db, Role::Reviewer, "test-reviewer").await;
        let mut worker = gatehouse::startup::worker_config(&config).expect("worker settings");
        worker.backoff_base = Duration::from_millis(0);
        worker.allowlists = running.state().map(|s| s.allowlists.clone());
        TestApp {
            address,
            db,
            client: reqwest::Client::builder()
                .timeout(Duration::from_secs(60))
                .build()
                .unwrap(),
            admin_token,
            reviewer_token,
            worker,
            data_dir: dir.path().to_path_buf(),
            database_url: url,
            _running: running,
            _dir: dir,
        }
    }

    /// Starts a second server on the same database and key directory (a second
    /// `gatehouse serve` process in all but the process boundary); it stops
    /// when the handle is dropped.
    pub async fn second_server(&self) -> Running {
        start(&test_config(
            &self.database_url,
            &self.data_dir,
            ADMIN_PASSWORD,
        ))
        .await
    }

    async fn token(db: &Db, role: Role, label: &str) -> String {
        accounts::create_staff_token(db, label, role, "test")
            .await
            .expect("a staff token")
    }

    /// Creates a publisher for the namespaces; returns its token.
    pub async fn publisher(&self, name: &str, namespaces: &[&str]) -> String {
        let ns: Vec<String> = namespaces.iter().map(|s| s.to_string()).collect();
        accounts::create_publisher(&self.db, name, &ns, "test")
            .await
            .expect("publisher")
            .token
    }

    /// `POST /v0/publish` with a JSON document.
    pub async fn publish(&self, token: &str, doc: &Value) -> reqwest::Response {
        self.client
            .post(format!("{}/v0/publish", self.address))
            .bearer_auth(token)
            .json(doc)
            .send()
            .await
            .expect("publish request")
    }

    /// A GET with an optional bearer token.
    pub async fn get(&self, path: &str, token: Option<&str>) -> reqwest::Response {
        let mut req = self.client.get(format!("{}{path}", self.address));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        req.send().await.expect("GET")
    }

    /// A POST with an optional bearer token and JSON body.
    pub async fn post(
        &self,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> reqwest::Response {
        let mut req = self.client.post(format!("{}{path}", self.address));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        if let Some(b) = body {
            req = req.json(b);
        }
        req.send().await.expect("POST")
    }

    /// Runs queued jobs until the queue is idle.
    pub async fn drain_jobs(&self) -> usize {
        jobs::run_until_idle(&self.db, &self.worker)
            .await
            .expect("jobs run")
    }

    /// Approves `name@version` (all tools, default audience) with the admin token.
    pub async fn approve(&self, name: &str, version: &str) -> reqwest::Response {
        self.post(
            &format!(
                "/api/v1/admin/servers/{}/versions/{version}/approve",
                enc(name)
            ),
            Some(&self.admin_token),
            Some(&json!({"note": "ok"})),
        )
        .await
    }

    /// Publishes package-only versions, scans them and approves them.
    pub async fn publish_approved(&self, token: &str, name: &str, versions: &[&str]) {
        for v in versions {
            let r = self.publish(token, &npm_server(name, v)).await;
            assert_eq!(
                r.status(),
                StatusCode::CREATED,
                "{}",
                r.text().await.unwrap()
            );
        }
        self.drain_jobs().await;
        for v in versions {
            let r = self.approve(name, v).await;
            assert_eq!(r.status(), StatusCode::OK, "{}", r.text().await.unwrap());
        }
    }

    /// Row count of a table.
    pub async fn count(&self, table: &str) -> i64 {
        sqlx::query_scalar::<_, i64>(&format!("SELECT COUNT(*) FROM {table}"))
            .fetch_one(self.db.pool())
            .await
            .unwrap()
    }

    /// Row counts of every table a publish writes.
    pub async fn publish_footprint(&self) -> [i64; 5] {
        [
            self.count("servers").await,
            self.count("versions").await,
            self.count("server_remotes").await,
            self.count("jobs").await,
            self.count("audit_log").await,
        ]
    }
}

/// URL-encodes a path segment (names contain `/`).
pub fn enc(s: &str) -> String {
    percent_encoding::utf8_percent_encode(s, percent_encoding::NON_ALPHANUMERIC).to_string()
}

/// The official docs' remote-only example.
pub fn remote_server(name: &str, version: &str, url: &str) -> Value {
    json!({
        "$schema": "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
        "name": name,
        "description": "Cloud-hosted MCP server for weather data",
        "version": version,
        "remotes": [{"type": "streamable-http", "url": url}]
    })
}

/// The official docs' npm package example.
pub fn npm_server(name: &str, version: &str) -> Value {
    json!({
        "$schema": "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
        "name": name,
        "description": "MCP server for weather data",
        "repository": {"url": "https://github.com/example/weather-mcp", "source": "github"},
        "version": version,
        "packages": [{
            "registryType": "npm",
            "registryBaseUrl": "https://registry.npmjs.org",
            "identifier": "@example/weather-mcp",
            "version": version,
            "transport": {"type": "stdio"}
        }]
    })
}

/// The official docs' PyPI example with environment variables.
pub fn pypi_server(name: &str, version: &str) -> Value {
    json!({
        "$schema": "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
        "name": name,
        "description": "MCP server for weather data with API key",
        "version": version,
        "packages": [{
            "registryType": "pypi",
            "registryBaseUrl": "https://pypi.org",
            "identifier": "weather-mcp-server",
            "version": version,
            "transport": {"type": "stdio"},
            "environmentVariables": [
                {"name": "WEATHER_API_KEY", "description": "API key for the weather service", "isRequired": true, "isSecret": true},
                {"name": "WEATHER_UNITS", "description": "Units", "default": "metric", "isRequired": false}
            ]
        }]
    })
}

/// Asserts a problem+json answer with the status and returns its body.
pub async fn assert_problem(response: reqwest::Response, status: StatusCode) -> Value {
    assert_eq!(response.status(), status, "unexpected status");
    let ct = response
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    assert_eq!(ct, "application/problem+json");
    let body: Value = response.json().await.expect("problem body");
    assert!(
        body["type"]
            .as_str()
            .is_some_and(|t| t.starts_with("https://")),
        "{body}"
    );
    assert_eq!(body["status"], json!(status.as_u16()));
    assert!(
        body["detail"].as_str().is_some_and(|d| !d.is_empty()),
        "{body}"
    );
    body
}

impl TestApp {
    /// Publishes a package-only version, scans it, then stores a scan whose
    /// snapshot has `tools` (as a crawl would have found them) and a report.
    pub async fn publish_scanned(
        &self,
        token: &str,
        name: &str,
        version: &str,
        tools: &[(&str, &str)],
    ) {
        let r = self.publish(token, &npm_server(name, version)).await;
        assert_eq!(
            r.status(),
            StatusCode::CREATED,
            "{}",
            r.text().await.unwrap()
        );
        self.drain_jobs().await;
        let snapshot = gatehouse::snapshot::Snapshot {
            protocol_version: Some("2025-06-18".into()),
            tools: tools
                .iter()
                .map(|(n, d)| gatehouse::snapshot::Tool {
                    name: n.to_string(),
                    description: Some(d.to_string()),
                    input_schema: Some(json!({"type": "object", "properties": {}})),
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        };
        let report = gatehouse::analysis::Report::new(
            gatehouse::analysis::ReportServer {
                name: name.into(),
                version: version.into(),
            },
            vec![],
        );
        let v = gatehouse::storage::versions::get_version(&self.db, name, version)
            .await
            .unwrap()
            .unwrap();
        let mut tx = self.db.begin().await.unwrap();
        gatehouse::storage::versions::insert_scan(
            &mut tx,
            gatehouse::storage::versions::NewScan {
                version_id: &v.id,
                job_id: None,
                started_at: &gatehouse::storage::now(),
                duration_ms: 1,
                snapshot: Some(&serde_json::to_string(&snapshot).unwrap()),
                report: Some(&serde_json::to_string(&report).unwrap()),
                max_severity: None,
                error: None,
            },
        )
        .await
        .unwrap();
        tx.commit().await.unwrap();
    }

    /// Fetches and verifies the allowlist of `audience` as a client pinned to the current root.
    pub async fn verified_allowlist(
        &self,
        audience: &str,
    ) -> gatehouse::allowlist::AllowlistPayload {
        backends::verified_allowlist(&self.address, audience).await
    }
}
