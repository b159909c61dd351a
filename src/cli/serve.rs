//! `gatehouse serve` and `gatehouse worker`: start-up, bootstrap, shutdown.

use anyhow::Context as _;
use tokio::net::TcpListener;
use tokio::sync::watch;

use crate::analysis::RulesConfig;
use crate::config::Config;
use crate::discovery::{CrawlOptions, NetPolicy};
use crate::http::{self, AppState};
use crate::jobs::{self, WorkerConfig};
use crate::registry::credentials;
use crate::storage::Db;
use crate::storage::accounts::{self, Role};
use crate::storage::audit::{self, AuditEntry};

/// Connects to the configured database (migrating it), creating an SQLite
/// file and the data directory when missing: what `gatehouse serve` does.
pub async fn connect(config: &Config) -> anyhow::Result<Db> {
    Db::connect(&config.database_url()).await
}

/// Connects to an existing database, for the commands that act on a running
/// registry's state (`admin`, `publisher`, `worker`). Creating a fresh
/// `./data` there would print a token the running server rejects, so they
/// refuse instead; only `serve` creates.
pub async fn connect_existing(config: &Config) -> anyhow::Result<Db> {
    let url = config.database_url();
    if let Some(path) = url
        .strip_prefix("sqlite://")
        .or_else(|| url.strip_prefix("sqlite:"))
    {
        let path = path.split('?').next().unwrap_or_default();
        if path != ":memory:" && !std::path::Path::new(path).exists() {
            anyhow::bail!("{}", no_data_dir(config));
        }
    }
    Db::connect(&url).await
}

/// Checks that the signing keys exist (`keys` commands must not mint new ones).
pub fn require_keys(config: &Config) -> anyhow::Result<std::path::PathBuf> {
    let dir = config.data_dir.join("keys");
    if !dir.is_dir() {
        anyhow::bail!("{}", no_data_dir(config));
    }
    Ok(dir)
}

/// The refusal of a command run where there is no registry state.
fn no_data_dir(config: &Config) -> String {
    let shown = std::path::absolute(&config.data_dir).unwrap_or_else(|_| config.data_dir.clone());
    format!(
        "no Gatehouse data directory at {}; set GATEHOUSE_DATA_DIR or run `gatehouse serve` first",
        shown.display()
    )
}

/// Creates the bootstrap `admin` user when there are no users yet.
pub async fn bootstrap_admin(db: &Db, config: &Config) -> anyhow::Result<()> {
    if accounts::count_users(db).await? > 0 {
        return Ok(());
    }
    let (password, generated) = match &config.bootstrap_admin_password {
        Some(p) if !p.is_empty() => {
            // The first admin is the most valuable account: the same minimum as everyone.
            anyhow::ensure!(
                p.chars().count() >= credentials::MIN_PASSWORD_CHARS,
                "GATEHOUSE_BOOTSTRAP_ADMIN_PASSWORD must have at least {} characters",
                credentials::MIN_PASSWORD_CHARS
            );
            (p.clone(), false)
        }
        _ => (credentials::generate_password(), true),
    };
    let mut tx = db.begin().await?;
    match accounts::insert_user(
        &mut tx,
        "admin",
        &credentials::hash_password(&password),
        Role::Admin,
    )
    .await
    {
        Ok(_) => {}
        // Another process bootstrapped at the same moment.
        Err(e) if crate::storage::is_unique_violation(&e) => return Ok(()),
        Err(e) => return Err(e.into()),
    }
    audit::append(
        &mut tx,
        AuditEntry {
            actor: "system:bootstrap",
            action: "user.create",
            subject: "user:admin",
            version_id: None,
            detail: serde_json::json!({"role": "admin"}),
        },
    )
    .await?;
    tx.commit().await?;
    if generated {
        // Printed once, on purpose: it is the only way to learn it. It goes to
        // stderr rather than through the structured log.
        eprintln!(
            "\n  Bootstrap admin created: user `admin`, password `{password}`\n  (shown once; set GATEHOUSE_BOOTSTRAP_ADMIN_PASSWORD to choose it)\n"
        );
    } else {
        tracing::info!("bootstrap admin `admin` created with the configured password");
    }
    Ok(())
}

/// The worker settings derived from the configuration.
pub fn worker_config(config: &Config) -> anyhow::Result<WorkerConfig> {
    let network = NetPolicy::from_config(config.scan_allow_private.as_deref())
        .map_err(|e| anyhow::anyhow!("GATEHOUSE_SCAN_ALLOW_PRIVATE: {e}"))?;
    let rules = match &config.rules_file {
        Some(path) => RulesConfig::load(path)
            .map_err(|e| anyhow::anyhow!("rules file {}: {e}", path.display()))?,
        None => RulesConfig::default(),
    };
    let mut worker = WorkerConfig::new(
        CrawlOptions {
            network,
            ..CrawlOptions::default()
        },
        rules,
    );
    worker.lease = std::time::Duration::from_secs(config.job_lease_secs.max(1));
    worker.secrets = Some(std::sync::Arc::new(
        crate::registry::crawl_secrets::Vault::new(&config.data_dir),
    ));
    Ok(worker)
}

/// Resolves on SIGTERM or Ctrl-C.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! { _ = ctrl_c => {}, _ = term => {} }
    tracing::info!("shutdown requested");
}

/// Builds the application state.
pub fn app_state(db: Db, config: &Config) -> anyhow::Result<AppState> {
    let net = NetPolicy::from_config(config.scan_allow_private.as_deref())
        .map_err(|e| anyhow::anyhow!("GATEHOUSE_SCAN_ALLOW_PRIVATE: {e}"))?;
    let trusted = config.trusted_proxies().map_err(anyhow::Error::msg)?;
    let mut state = AppState::new(db, net, &config.public_url(), &config.data_dir)
        .context("opening the signing keys")?;
    state.trusted_proxies = trusted.into();
    Ok(state)
}

/// `gatehouse serve`: HTTP plus in-process workers, until SIGTERM/Ctrl-C.
pub async fn run_serve(config: &Config) -> anyhow::Result<()> {
    let db = connect(config).await?;
    bootstrap_admin(&db, config).await?;
    let state = app_state(db.clone(), config)?;
    let listener = TcpListener::bind(config.listen)
        .await
        .with_context(|| format!("binding {}", config.listen))?;
    tracing::info!(address = %listener.local_addr()?, public_url = %state.public_url, backend = ?db.backend(), "serving");

    state
        .allowlists
        .ensure_default(&db)
        .await
        .context("publishing the default allowlist")?;
    let (stop_tx, stop_rx) = watch::channel(false);
    let refresher = tokio::spawn(
        state
            .allowlists
            .clone()
            .run_refresher(db.clone(), stop_rx.clone()),
    );
    let workers = tokio::spawn(jobs::run_workers(
        db.clone(),
        worker_config(config)?,
        config.workers,
        stop_rx,
    ));
    let router = http::router(state);
    http::serve(listener, router, async move {
        shutdown_signal().await;
        let _ = stop_tx.send(true);
    })
    .await?;
    let _ = workers.await;
    let _ = refresher.await;
    db.close().await;
    Ok(())
}

/// `gatehouse worker`: scan workers only.
pub async fn run_worker(config: &Config) -> anyhow::Result<()> {
    let db = connect_existing(config).await?;
    let (stop_tx, stop_rx) = watch::channel(false);
    tokio::spawn(async move {
        shutdown_signal().await;
        let _ = stop_tx.send(true);
    });
    tracing::info!(backend = ?db.backend(), workers = config.workers, "worker started");
    jobs::run_workers(db.clone(), worker_config(config)?, config.workers, stop_rx).await;
    db.close().await;
    Ok(())
}
