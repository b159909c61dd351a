//! Start-up: from a [`Config`] to a running registry, in one place.
//!
//! [`Application::build`] connects the pool (creating and migrating the
//! database), creates the first admin when there are no users, opens the
//! signing keys, builds the state and the router, publishes the default
//! allowlist and binds the listener; [`Application::run_until`] serves HTTP
//! with the allowlist refresher and the scan workers until a shutdown future
//! resolves, then drains requests and workers and closes the pool.
//! [`Application::build_worker`] is the same without HTTP (`gatehouse worker`).
//!
//! `gatehouse serve`, `gatehouse worker`, `gatehouse demo`, the integration
//! test harnesses and the benches all start here, so what they test and
//! measure is what production runs. A caller that must know the address
//! before the server starts (two servers in one test) binds the
//! [`TcpListener`] itself and passes it to [`Application::build_with_listener`].

use std::future::Future;
use std::net::SocketAddr;

use anyhow::Context as _;
use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio::task::JoinHandle;

use crate::accounts::{self, Bootstrap};
use crate::analysis::RulesConfig;
use crate::config::Config;
use crate::discovery::{CrawlOptions, NetPolicy};
use crate::http::{self, AppState};
use crate::jobs::{self, WorkerConfig};
use crate::storage::Db;

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

/// The scanner's network policy (`GATEHOUSE_SCAN_ALLOW_PRIVATE`).
fn net_policy(config: &Config) -> anyhow::Result<NetPolicy> {
    NetPolicy::from_config(config.scan_allow_private.as_deref())
        .map_err(|e| anyhow::anyhow!("GATEHOUSE_SCAN_ALLOW_PRIVATE: {e}"))
}

/// The worker settings derived from the configuration.
pub fn worker_config(config: &Config) -> anyhow::Result<WorkerConfig> {
    let rules = match &config.rules_file {
        Some(path) => RulesConfig::load(path)
            .map_err(|e| anyhow::anyhow!("rules file {}: {e}", path.display()))?,
        None => RulesConfig::default(),
    };
    let mut worker = WorkerConfig::new(
        CrawlOptions {
            network: net_policy(config)?,
            ..CrawlOptions::default()
        },
        rules,
    );
    worker.lease = std::time::Duration::from_secs(config.job_lease_secs.max(1));
    worker.monitor.watch.max_streams = config.watch_streams;
    if let Some(spec) = &config.client_identities {
        worker.monitor.identities.clients = crate::monitor::identities::parse_clients(spec)
            .map_err(|e| anyhow::anyhow!("--client-identities: {e}"))?;
    }
    worker.secrets = Some(std::sync::Arc::new(
        crate::registry::crawl_secrets::Vault::new(&config.data_dir),
    ));
    worker.verify_remotes = config.verify_remotes;
    if config.scan_packages {
        if !crate::packages::sandbox::available() {
            // Package scans fail closed (scan_failed) until bubblewrap works.
            tracing::warn!(
                "bubblewrap (bwrap) is missing or cannot make a sandbox here: package servers cannot be scanned"
            );
        }
        worker.packages = Some(crate::packages::PackagesConfig::new(&config.data_dir));
    }
    Ok(worker)
}

/// Builds the state every handler shares: the pool, the network policy, the
/// public URL, the signing keys in `DATA_DIR/keys` and the trusted proxies.
pub fn app_state(db: Db, config: &Config) -> anyhow::Result<AppState> {
    let net = net_policy(config)?;
    let trusted = config.trusted_proxies().map_err(anyhow::Error::msg)?;
    let mut state = AppState::new(db, net, &config.public_url(), &config.data_dir)
        .context("opening the signing keys")?;
    state.trusted_proxies = trusted.into();
    Ok(state)
}

/// Creates the first admin when there are no users (see [`accounts::bootstrap_admin`]).
async fn bootstrap_admin(db: &Db, config: &Config) -> anyhow::Result<()> {
    match accounts::bootstrap_admin(db, config.bootstrap_admin_password.as_deref()).await? {
        Bootstrap::NotNeeded => {}
        Bootstrap::Created => {
            tracing::info!("bootstrap admin `admin` created with the configured password")
        }
        // Printed once, on purpose: it is the only way to learn it. It goes to
        // stderr rather than through the structured log.
        Bootstrap::Generated(password) => eprintln!(
            "\n  Bootstrap admin created: user `admin`, password `{password}`\n  (shown once; set GATEHOUSE_BOOTSTRAP_ADMIN_PASSWORD to choose it)\n"
        ),
    }
    Ok(())
}

/// The HTTP half of an [`Application`].
struct Serving {
    state: AppState,
    listener: TcpListener,
}

/// A registry ready to run: database, workers and (unless it is a worker
/// process) state, router and a bound listener.
pub struct Application {
    db: Db,
    worker: WorkerConfig,
    workers: usize,
    run_workers: bool,
    serving: Option<Serving>,
}

impl Application {
    /// Everything `gatehouse serve` starts, listening on `config.listen`.
    pub async fn build(config: &Config) -> anyhow::Result<Application> {
        Self::build_inner(config, None).await
    }

    /// As [`Application::build`], serving on a listener the caller has bound
    /// (port 0 in tests, or a port that must be known before the start).
    pub async fn build_with_listener(
        config: &Config,
        listener: TcpListener,
    ) -> anyhow::Result<Application> {
        Self::build_inner(config, Some(listener)).await
    }

    async fn build_inner(
        config: &Config,
        listener: Option<TcpListener>,
    ) -> anyhow::Result<Application> {
        // Every setting is checked before anything is created on disk.
        let mut worker = worker_config(config)?;
        config.trusted_proxies().map_err(anyhow::Error::msg)?;
        let db = connect(config).await?;
        bootstrap_admin(&db, config).await?;
        let state = app_state(db.clone(), config)?;
        worker.allowlists = Some(state.allowlists.clone());
        let listener = match listener {
            Some(listener) => listener,
            None => TcpListener::bind(config.listen)
                .await
                .with_context(|| format!("binding {}", config.listen))?,
        };
        state
            .allowlists
            .ensure_default(&db)
            .await
            .context("publishing the default allowlist")?;
        Ok(Application {
            db,
            worker,
            workers: config.workers,
            run_workers: true,
            serving: Some(Serving { state, listener }),
        })
    }

    /// What `gatehouse worker` runs: scan workers on an existing database, no HTTP.
    pub async fn build_worker(config: &Config) -> anyhow::Result<Application> {
        let mut worker = worker_config(config)?;
        let db = connect_existing(config).await?;
        // Monitor rescans re-sign allowlists: a worker shares the server's keys.
        // Without them it still scans; its monitor jobs fail (and say why).
        if require_keys(config).is_ok() {
            worker.allowlists = Some(std::sync::Arc::new(
                crate::signing::Publisher::open(&config.data_dir, &config.public_url())
                    .context("opening the signing keys")?,
            ));
        }
        Ok(Application {
            db,
            worker,
            workers: config.workers,
            run_workers: true,
            serving: None,
        })
    }

    /// Serves without in-process scan workers: for callers that drive the
    /// queue themselves ([`jobs::run_until_idle`] with [`Application::worker_config`]).
    pub fn without_workers(mut self) -> Application {
        self.run_workers = false;
        self
    }

    /// The database.
    pub fn db(&self) -> &Db {
        &self.db
    }

    /// The shared state (`None` for a worker-only application).
    pub fn state(&self) -> Option<&AppState> {
        self.serving.as_ref().map(|s| &s.state)
    }

    /// The bound address (`None` for a worker-only application).
    pub fn local_addr(&self) -> Option<SocketAddr> {
        self.serving
            .as_ref()
            .and_then(|s| s.listener.local_addr().ok())
    }

    /// The scan workers' settings.
    pub fn worker_config(&self) -> &WorkerConfig {
        &self.worker
    }

    /// The scan workers' settings, to adjust before running (poll interval, analyzer).
    pub fn worker_config_mut(&mut self) -> &mut WorkerConfig {
        &mut self.worker
    }

    /// Runs until `shutdown` resolves: HTTP (if any), the allowlist refresher
    /// and the scan workers; then drains in-flight requests, lets the workers
    /// finish their jobs and closes the pool.
    pub async fn run_until(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> anyhow::Result<()> {
        let Application {
            db,
            worker,
            workers,
            run_workers,
            serving,
        } = self;
        let (stop_tx, stop_rx) = watch::channel(false);
        let worker_count = workers;
        let workers = run_workers.then(|| {
            tokio::spawn(jobs::run_workers(
                db.clone(),
                worker,
                worker_count,
                stop_rx.clone(),
            ))
        });
        let stop = async move {
            shutdown.await;
            let _ = stop_tx.send(true);
        };
        let served = match serving {
            Some(Serving { state, listener }) => {
                tracing::info!(address = %listener.local_addr()?, public_url = %state.public_url, backend = ?db.backend(), "serving");
                let refresher =
                    tokio::spawn(state.allowlists.clone().run_refresher(db.clone(), stop_rx));
                let served = http::serve(listener, http::router(state), stop).await;
                let _ = refresher.await;
                served.map_err(anyhow::Error::from)
            }
            None => {
                tracing::info!(backend = ?db.backend(), workers = worker_count, "worker started");
                stop.await;
                Ok(())
            }
        };
        if let Some(workers) = workers {
            let _ = workers.await;
        }
        db.close().await;
        served
    }

    /// Runs on the current runtime in the background; the [`Running`] handle
    /// stops it when asked or when dropped.
    pub fn spawn(self) -> Running {
        let (stop_tx, mut stop_rx) = watch::channel(false);
        let address = self.local_addr();
        let db = self.db.clone();
        let state = self.state().cloned();
        let task = tokio::spawn(self.run_until(async move {
            // A dropped sender is a stop too.
            let _ = stop_rx.wait_for(|stop| *stop).await;
        }));
        Running {
            address,
            db,
            state,
            stop: stop_tx,
            task: Some(task),
        }
    }
}

/// A running [`Application`]: stops it on [`Running::shutdown`] or on drop.
pub struct Running {
    address: Option<SocketAddr>,
    db: Db,
    state: Option<AppState>,
    stop: watch::Sender<bool>,
    task: Option<JoinHandle<anyhow::Result<()>>>,
}

impl Running {
    /// The address it serves on (`None` for a worker-only application).
    pub fn local_addr(&self) -> Option<SocketAddr> {
        self.address
    }

    /// `http://ADDRESS`.
    pub fn url(&self) -> String {
        format!(
            "http://{}",
            self.address.expect("an application serving HTTP")
        )
    }

    /// The database (a clone of the application's pool).
    pub fn db(&self) -> &Db {
        &self.db
    }

    /// The shared state (`None` for a worker-only application).
    pub fn state(&self) -> Option<&AppState> {
        self.state.as_ref()
    }

    /// Stops it and waits until requests are drained, workers are done and the pool is closed.
    pub async fn shutdown(mut self) -> anyhow::Result<()> {
        let _ = self.stop.send(true);
        match self.task.take() {
            Some(task) => task.await.context("the application task")?,
            None => Ok(()),
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.stop.send(true);
    }
}
