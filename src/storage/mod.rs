//! Storage: one connection pool for SQLite (embedded default) or PostgreSQL
//! (scale-out), migrations applied on start, and the queries the rest of the
//! application uses.
//!
//! Both backends go through sqlx's `Any` driver so that every query is written
//! once. The schema sticks to the types `Any` carries on both sides (TEXT,
//! BIGINT) — timestamps are fixed-width RFC 3339 text, so text order is time
//! order. The few statements that must differ (row locks) branch on
//! [`Backend`].

pub mod accounts;
pub mod allowlists;
pub mod audit;
pub mod crawl_credentials;
pub mod jobs;
pub mod monitor;
pub mod ownership;
pub mod sessions;
pub mod versions;
pub mod watch;
pub mod webhooks;

#[cfg(test)]
mod schema_tests;

use std::path::Path;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;
use chrono::{DateTime, SecondsFormat, Utc};
use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::{Any, AnyPool, Executor, Transaction};
use tokio::sync::{Mutex, OwnedMutexGuard};

static SQLITE_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/sqlite");
static POSTGRES_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/postgres");

/// Which database engine is behind the pool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// Embedded SQLite file.
    Sqlite,
    /// PostgreSQL server.
    Postgres,
}

/// The database: a pool plus what we need to know about its engine.
#[derive(Clone)]
pub struct Db {
    pool: AnyPool,
    backend: Backend,
    /// SQLite allows one writer at a time and fails a deferred transaction that
    /// upgrades to a write while another writer holds the lock (SQLITE_BUSY with
    /// no wait). Serialising write transactions inside the process avoids that;
    /// across processes the busy timeout still applies. PostgreSQL needs no gate.
    write_gate: Option<Arc<Mutex<()>>>,
}

/// A write transaction (and, on SQLite, the process-wide writer slot).
pub struct Tx {
    inner: Transaction<'static, Any>,
    _gate: Option<OwnedMutexGuard<()>>,
}

impl std::ops::Deref for Tx {
    type Target = Transaction<'static, Any>;
    fn deref(&self) -> &Self::Target {
        &self.inner
    }
}

impl std::ops::DerefMut for Tx {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.inner
    }
}

impl Tx {
    /// Commits the transaction.
    pub async fn commit(self) -> Result<(), sqlx::Error> {
        self.inner.commit().await
    }

    /// The connection to run statements on.
    pub fn conn(&mut self) -> &mut sqlx::AnyConnection {
        &mut self.inner
    }
}

impl Db {
    /// Connects to `url` (`sqlite://…` or `postgres://…`), creating the SQLite
    /// file and its directory when missing, and applies the migrations.
    pub async fn connect(url: &str) -> anyhow::Result<Db> {
        sqlx::any::install_default_drivers();
        let backend = if url.starts_with("sqlite:") {
            Backend::Sqlite
        } else if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            Backend::Postgres
        } else {
            anyhow::bail!("unsupported database URL scheme (use sqlite:// or postgres://)");
        };
        let url = match backend {
            Backend::Sqlite => prepare_sqlite_url(url)?,
            Backend::Postgres => url.to_string(),
        };
        let options = AnyConnectOptions::from_str(&url).context("parsing the database URL")?;
        let pool = AnyPoolOptions::new()
            .max_connections(match backend {
                Backend::Sqlite => 8,
                Backend::Postgres => 16,
            })
            .acquire_timeout(Duration::from_secs(10))
            .after_connect(move |conn, _meta| {
                Box::pin(async move {
                    if backend == Backend::Sqlite {
                        conn.execute("PRAGMA busy_timeout = 15000; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;")
                            .await?;
                    }
                    Ok(())
                })
            })
            .connect_with(options)
            .await
            .context("connecting to the database")?;
        if backend == Backend::Sqlite {
            // WAL lets readers proceed while one writer commits; the setting is
            // stored in the file, so once is enough.
            pool.execute("PRAGMA journal_mode = WAL")
                .await
                .context("enabling WAL")?;
        }
        let migrator = match backend {
            Backend::Sqlite => &SQLITE_MIGRATIONS,
            Backend::Postgres => &POSTGRES_MIGRATIONS,
        };
        migrator.run(&pool).await.context("applying migrations")?;
        let write_gate = (backend == Backend::Sqlite).then(|| Arc::new(Mutex::new(())));
        let db = Db {
            pool,
            backend,
            write_gate,
        };
        let mended = versions::mend_duplicate_keys(&db)
            .await
            .context("mending stored documents with duplicate keys")?;
        if mended > 0 {
            tracing::warn!(
                mended,
                "stored server.json documents with a repeated key were rewritten to one meaning"
            );
        }
        Ok(db)
    }

    /// The engine behind this pool.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// The pool, for reads outside a transaction.
    pub fn pool(&self) -> &AnyPool {
        &self.pool
    }

    /// Starts a write transaction.
    pub async fn begin(&self) -> Result<Tx, sqlx::Error> {
        let gate = match &self.write_gate {
            Some(gate) => Some(gate.clone().lock_owned().await),
            None => None,
        };
        // BEGIN IMMEDIATE takes SQLite's write lock up front (waiting through the
        // busy timeout), so a transaction that reads before it writes can never
        // fail on a stale snapshot when another process committed meanwhile.
        let inner = match self.backend {
            Backend::Sqlite => self.pool.begin_with("BEGIN IMMEDIATE").await?,
            Backend::Postgres => self.pool.begin().await?,
        };
        Ok(Tx { inner, _gate: gate })
    }

    /// Whether the database answers (readiness).
    pub async fn ping(&self) -> bool {
        sqlx::query("SELECT 1").execute(&self.pool).await.is_ok()
    }

    /// Closes the pool, waiting for connections to be returned.
    pub async fn close(&self) {
        self.pool.close().await;
    }
}

/// Makes sure the directory of an SQLite file exists and the URL asks sqlx to create the file.
fn prepare_sqlite_url(url: &str) -> anyhow::Result<String> {
    let rest = url
        .trim_start_matches("sqlite://")
        .trim_start_matches("sqlite:");
    let (path, query) = rest.split_once('?').unwrap_or((rest, ""));
    if path != ":memory:" && !path.is_empty() {
        if let Some(dir) = Path::new(path)
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
        {
            create_private_dir(dir)
                .with_context(|| format!("creating the data directory {}", dir.display()))?;
        }
        create_private_file(Path::new(path))
            .with_context(|| format!("creating the database file {path}"))?;
    }
    let query = if query.contains("mode=") {
        query.to_string()
    } else if query.is_empty() {
        "mode=rwc".into()
    } else {
        format!("{query}&mode=rwc")
    };
    Ok(format!("sqlite://{path}?{query}"))
}

/// Creates a missing directory (and parents) readable by its owner only:
/// it holds the database and the signing keys. An existing one is left alone.
fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    if dir.is_dir() {
        return Ok(());
    }
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)
}

/// Creates a missing database file with mode 0600 before SQLite opens it:
/// SQLite gives its `-wal` and `-shm` files the database file's mode, and
/// would otherwise create all three from the umask (usually world-readable).
fn create_private_file(path: &Path) -> std::io::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    match options.open(path) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(e),
    }
}

/// A timestamp as stored: fixed-width RFC 3339 UTC with microseconds.
pub fn ts(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Micros, true)
}

/// The current time as stored.
pub fn now() -> String {
    ts(Utc::now())
}

/// Parses a stored timestamp.
pub fn parse_ts(text: &str) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(text)
        .ok()
        .map(|d| d.with_timezone(&Utc))
}

/// A new random id.
pub fn new_id() -> String {
    uuid::Uuid::new_v4().to_string()
}

/// Escapes `%`, `_` and `\` for a LIKE pattern with `ESCAPE '\'`.
pub(crate) fn escape_like(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if matches!(c, '%' | '_' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The pattern of a case-insensitive substring search: matched with
/// `LOWER(column) LIKE pattern ESCAPE '\'`.
pub(crate) fn contains_pattern(search: &str) -> String {
    format!("%{}%", escape_like(&search.to_lowercase()))
}

/// Whether a database error is a unique-constraint violation (a lost race on an insert).
pub fn is_unique_violation(err: &sqlx::Error) -> bool {
    match err {
        sqlx::Error::Database(db) => {
            db.is_unique_violation()
                || db.code().as_deref() == Some("23505")
                || db.message().contains("UNIQUE constraint failed")
        }
        _ => false,
    }
}
