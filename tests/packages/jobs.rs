//! Package versions through the scan queue: a package-only server.json is
//! installed, crawled in the sandbox and analysed by the worker, on SQLite
//! and PostgreSQL; the install facts are recorded in the scan's snapshot
//! (`crawl.package`), and a package whose `mcpName` names another server
//! gets the ownership finding GH-OWN-001 (high, impersonation), which an
//! approval must explicitly override.

use gatehouse::config::Config;
use gatehouse::jobs;
use gatehouse::packages::PackagesConfig;
use gatehouse::registry::lifecycle::Status;
use gatehouse::storage::versions;
use serde_json::{Value, json};

use crate::helpers::{Backend, fresh_database_url, npm_sandbox, shared_cache};

/// A registry (the real application, without its own workers) with one scanned package version.
struct Scanned {
    status: Status,
    report: Value,
    snapshot: Value,
    running: gatehouse::startup::Running,
    _dir: tempfile::TempDir,
}

/// Publishes `server-memory` as `name` and runs the worker until the queue is
/// empty; returns the version's status and its latest scan's report and snapshot.
async fn publish_memory_as(backend: Backend, name: &str) -> Scanned {
    let dir = tempfile::tempdir().unwrap();
    let mut config = Config::new(dir.path());
    config.database_url = Some(fresh_database_url(&backend, &dir).await);
    config.scan_packages = true;
    config.bootstrap_admin_password = Some("not used in this test".into());
    let running = crate::helpers::start(&config).await;
    let db = running.db().clone();
    let namespace = name.split('/').next().unwrap().to_string();
    let publisher = gatehouse::accounts::create_publisher(&db, "pub", &[namespace], "test")
        .await
        .unwrap()
        .publisher;
    let doc = json!({
        "name": name, "description": "Memory", "version": "2026.8.31",
        "packages": [{"registryType": "npm", "identifier": "@modelcontextprotocol/server-memory",
            "version": "2026.8.31", "transport": {"type": "stdio"}}]
    });
    let net = gatehouse::discovery::NetPolicy::from_config(Some("1")).unwrap();
    let version =
        gatehouse::registry::publish::publish(&db, &net, &publisher, doc.to_string().as_bytes())
            .await
            .unwrap();
    let mut worker = gatehouse::startup::worker_config(&config).unwrap();
    let mut packages = PackagesConfig::new(dir.path());
    packages.cache_dir = shared_cache().join("jobs");
    worker.packages = Some(packages);

    jobs::run_until_idle(&db, &worker).await.unwrap();

    let status = versions::get_version_by_id(&db, &version.id)
        .await
        .unwrap()
        .unwrap()
        .status;
    let scan = versions::latest_scan(&db, &version.id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(scan.error, None);
    let report = serde_json::from_str(scan.report.as_deref().unwrap()).unwrap();
    let snapshot = serde_json::from_str(scan.snapshot.as_deref().unwrap()).unwrap();
    Scanned {
        status,
        report,
        snapshot,
        running,
        _dir: dir,
    }
}

fn rules(report: &Value) -> Vec<String> {
    report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["rule"].as_str().unwrap().to_string())
        .collect()
}

async fn a_package_server_is_crawled_by_the_worker_and_its_install_recorded(backend: Backend) {
    if !npm_sandbox() {
        return;
    }
    // Act: published under the name its package.json mcpName gives.
    let Scanned {
        status,
        report,
        snapshot,
        ..
    } = publish_memory_as(backend, "io.github.modelcontextprotocol/server-memory").await;

    // Assert
    assert_eq!(status, Status::InReview);
    assert!(
        !rules(&report).contains(&"GH-OWN-001".to_string()),
        "{report}"
    );
    assert!(!rules(&report).contains(&"GH-PRO-005".to_string()));
    assert!(snapshot["tools"].as_array().unwrap().len() >= 5);
    let package = &snapshot["crawl"]["package"];
    assert_eq!(snapshot["crawl"]["transport"], "stdio");
    assert_eq!(package["identifier"], "@modelcontextprotocol/server-memory");
    assert_eq!(package["resolvedVersion"], "2026.8.31");
    assert!(
        package["integrity"]
            .as_str()
            .unwrap()
            .starts_with("sha512-")
    );
    assert!(package["dependencies"].as_u64().unwrap() > 0);
}

async fn a_package_whose_mcp_name_names_another_server_gets_the_ownership_finding(
    backend: Backend,
) {
    if !npm_sandbox() {
        return;
    }
    // Act: someone else publishes the same package under their own name.
    let scanned = publish_memory_as(backend, "io.github.impostor/memory").await;
    let (status, report) = (scanned.status, &scanned.report);

    // Assert
    assert_eq!(status, Status::InReview);
    let finding = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule"] == "GH-OWN-001")
        .unwrap_or_else(|| panic!("no ownership finding in {report}"));
    assert_eq!(finding["severity"], "high");
    assert_eq!(finding["category"], "impersonation");
    assert_eq!(
        finding["evidence"],
        "io.github.modelcontextprotocol/server-memory"
    );
    assert_eq!(report["summary"]["maxSeverity"], "high");

    // Approving it needs the explicit override, which the audit row records.
    let allowlists = &scanned.running.state().unwrap().allowlists;
    let approve = |override_ownership| {
        gatehouse::review::act(
            scanned.running.db(),
            allowlists,
            "io.github.impostor/memory",
            "2026.8.31",
            "test:reviewer",
            gatehouse::review::Decision::Approve(gatehouse::review::ApproveRequest {
                override_ownership,
                ..Default::default()
            }),
        )
    };
    let refused = approve(false).await;
    assert!(
        matches!(&refused, Err(gatehouse::review::ReviewError::Invalid(errors)) if errors[0].pointer == "/overrideOwnership"),
        "{refused:?}"
    );
    let approved = approve(true).await.expect("approved with the override");
    assert_eq!(approved.status, Status::Approved);
    let audit = gatehouse::storage::audit::list(
        scanned.running.db(),
        &gatehouse::storage::audit::AuditFilter {
            action: Some("version.approve".into()),
            ..Default::default()
        },
        5,
    )
    .await
    .unwrap();
    assert_eq!(audit[0].detail["overrideOwnership"], json!(["GH-OWN-001"]));
}

mod sqlite {
    use super::*;

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn a_package_server_is_crawled_by_the_worker_and_its_install_recorded() {
        super::a_package_server_is_crawled_by_the_worker_and_its_install_recorded(Backend::Sqlite)
            .await
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn a_package_whose_mcp_name_names_another_server_gets_the_ownership_finding() {
        super::a_package_whose_mcp_name_names_another_server_gets_the_ownership_finding(
            Backend::Sqlite,
        )
        .await
    }
}

mod postgres {
    use super::*;

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn a_package_server_is_crawled_by_the_worker_and_its_install_recorded() {
        if let Some(backend) = Backend::postgres() {
            super::a_package_server_is_crawled_by_the_worker_and_its_install_recorded(backend).await
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn a_package_whose_mcp_name_names_another_server_gets_the_ownership_finding() {
        if let Some(backend) = Backend::postgres() {
            super::a_package_whose_mcp_name_names_another_server_gets_the_ownership_finding(backend)
                .await
        }
    }
}

/// The gateway (issue 16's enforcer) runs an approved package-only server in
/// the sandbox: its pinned tools are listed and a call reaches a sandboxed
/// process of its own.
async fn the_gateway_runs_an_approved_package_server_in_the_sandbox(backend: Backend) {
    if !npm_sandbox() {
        return;
    }
    // Arrange: server-memory scanned and approved.
    let name = "io.github.modelcontextprotocol/server-memory";
    let scanned = publish_memory_as(backend, name).await;
    let allowlists = &scanned.running.state().unwrap().allowlists;
    gatehouse::review::act(
        scanned.running.db(),
        allowlists,
        name,
        "2026.8.31",
        "test:reviewer",
        gatehouse::review::Decision::Approve(Default::default()),
    )
    .await
    .expect("approved");
    let registry = scanned.running.url();
    let root = reqwest::get(format!("{registry}/v1/root.json"))
        .await
        .unwrap()
        .bytes()
        .await
        .unwrap()
        .to_vec();
    let state = tempfile::tempdir().unwrap();
    let mut packages = PackagesConfig::new(state.path());
    packages.cache_dir = shared_cache().join("jobs");

    // Act
    let gateway = gatehouse::gateway::Gateway::start(gatehouse::gateway::GatewayOptions {
        registry: registry.clone(),
        pinned_root: root,
        audience: "default".into(),
        tokens: None,
        state: Some(state.path().join("state.json")),
        recheck: std::time::Duration::from_secs(300),
        allowlist_refresh: std::time::Duration::from_secs(300),
        report_token: None,
        crawl: gatehouse::discovery::CrawlOptions::default(),
        debounce: std::time::Duration::from_millis(100),
        packages: Some(packages),
    })
    .await
    .expect("the gateway starts");
    let caller = gatehouse::gateway::server::Caller {
        client: "test".into(),
        audience: gateway.audience("default").unwrap().clone(),
    };
    let ask = |message: Value| gatehouse::gateway::server::handle(&gateway, &caller, message);
    let listed = ask(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}))
        .await
        .unwrap();
    let called = ask(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "read_graph", "arguments": {}}}))
    .await
    .unwrap();

    // Assert
    let tools: Vec<&str> = listed["result"]["tools"]
        .as_array()
        .unwrap_or_else(|| panic!("{listed}"))
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert!(tools.iter().any(|t| t.ends_with("read_graph")), "{tools:?}");
    assert!(called["result"]["content"].is_array(), "{called}");
    assert_ne!(called["result"]["isError"], true, "{called}");
}

mod gateway_sqlite {
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn the_gateway_runs_an_approved_package_server_in_the_sandbox() {
        super::the_gateway_runs_an_approved_package_server_in_the_sandbox(
            crate::helpers::Backend::Sqlite,
        )
        .await
    }
}

/// A package the registry does not have fails the scan at once (no retry),
/// with the installer's answer recorded for the reviewer.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_package_that_does_not_exist_fails_its_scan_with_the_error_recorded() {
    if !npm_sandbox() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut config = Config::new(dir.path());
    config.database_url = Some(fresh_database_url(&Backend::Sqlite, &dir).await);
    let db = gatehouse::startup::connect(&config).await.unwrap();
    let publisher =
        gatehouse::accounts::create_publisher(&db, "pub", &["com.example".into()], "test")
            .await
            .unwrap()
            .publisher;
    let doc = json!({"name": "com.example/ghost", "description": "d", "version": "1.0.0",
        "packages": [{"registryType": "npm", "identifier": "@gatehouse-test-absent/no-such-package",
            "version": "1.0.0", "transport": {"type": "stdio"}}]});
    let net = gatehouse::discovery::NetPolicy::from_config(Some("1")).unwrap();
    let version =
        gatehouse::registry::publish::publish(&db, &net, &publisher, doc.to_string().as_bytes())
            .await
            .unwrap();
    let mut worker = gatehouse::startup::worker_config(&config).unwrap();
    let mut packages = PackagesConfig::new(dir.path());
    packages.cache_dir = shared_cache().join("jobs");
    worker.packages = Some(packages);

    let ran = jobs::run_until_idle(&db, &worker).await.unwrap();

    assert_eq!(ran, 1, "one attempt, no retry");
    let row = versions::get_version_by_id(&db, &version.id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(row.status, Status::ScanFailed);
    let scan = versions::latest_scan(&db, &version.id)
        .await
        .unwrap()
        .unwrap();
    assert!(
        scan.error.as_deref().unwrap().contains("E404"),
        "{:?}",
        scan.error
    );
}
