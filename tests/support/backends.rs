//! What the API and UI test binaries share: the database matrix, in which
//! every test runs on a fresh SQLite file and, when `GATEHOUSE_TEST_POSTGRES_URL` is set,
//! on a fresh PostgreSQL database of its own; the start of the real application
//! (`gatehouse::startup`, as `gatehouse serve` starts it) on port 0; and a
//! verifying allowlist client.
//!
//! Include with `#[path = "../support/backends.rs"] mod backends;` from a test
//! crate's `helpers` module and re-export its items there: the
//! `on_both_backends!` macro refers to `$crate::helpers::Backend`.

use sqlx::Connection;

/// Which database a test runs on.
#[derive(Debug, Clone)]
pub enum Backend {
    /// A fresh SQLite file.
    Sqlite,
    /// A fresh database on this PostgreSQL server.
    Postgres(String),
}

impl Backend {
    /// The PostgreSQL backend when configured; otherwise says loudly that the test is skipped.
    pub fn postgres() -> Option<Backend> {
        match std::env::var("GATEHOUSE_TEST_POSTGRES_URL") {
            Ok(url) if !url.is_empty() => Some(Backend::Postgres(url)),
            _ => {
                if require_peers() {
                    panic!("GATEHOUSE_REQUIRE_PEERS=1 but GATEHOUSE_TEST_POSTGRES_URL is not set");
                }
                eprintln!(
                    "SKIPPED: PostgreSQL variant (set GATEHOUSE_TEST_POSTGRES_URL to run it)"
                );
                None
            }
        }
    }
}

/// Whether CI demands every peer (a missing one fails instead of skipping).
pub fn require_peers() -> bool {
    std::env::var("GATEHOUSE_REQUIRE_PEERS").is_ok_and(|v| v == "1")
}

/// Runs each listed async test function on SQLite and on PostgreSQL.
#[macro_export]
macro_rules! on_both_backends {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
                async fn $name() {
                    super::$name($crate::helpers::Backend::Sqlite).await
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
                async fn $name() {
                    if let Some(backend) = $crate::helpers::Backend::postgres() {
                        super::$name(backend).await
                    }
                }
            )*
        }
    };
}

/// Creates a fresh database for a backend and returns its URL.
pub async fn fresh_database_url(backend: &Backend, dir: &tempfile::TempDir) -> String {
    match backend {
        Backend::Sqlite => format!("sqlite://{}", dir.path().join("gatehouse.db").display()),
        Backend::Postgres(base) => {
            sqlx::any::install_default_drivers();
            let name = format!("gh_test_{}", uuid::Uuid::new_v4().simple());
            let mut conn = sqlx::AnyConnection::connect(base)
                .await
                .expect("connect to PostgreSQL");
            sqlx::query(&format!("CREATE DATABASE {name}"))
                .execute(&mut conn)
                .await
                .expect("create test database");
            let mut url = url::Url::parse(base).expect("a PostgreSQL URL");
            url.set_path(&name);
            url.to_string()
        }
    }
}

/// The configuration of a test registry on `database_url` with its keys in
/// `data_dir`: the scanner may reach loopback (fixture servers), the issuer is
/// `http://gatehouse.test`, and the first admin `admin` gets `admin_password`.
pub fn test_config(
    database_url: &str,
    data_dir: &std::path::Path,
    admin_password: &str,
) -> gatehouse::config::Config {
    let mut config = gatehouse::config::Config::new(data_dir);
    config.database_url = Some(database_url.to_string());
    config.scan_allow_private = Some("1".into());
    config.public_url = Some("http://gatehouse.test".into());
    config.bootstrap_admin_password = Some(admin_password.to_string());
    // Fixture servers are on loopback and fixture packages do not exist:
    // tests/packages turns these on where it tests them.
    config.scan_packages = false;
    config.verify_remotes = false;
    config
}

/// Starts the application of `config` on a free loopback port, without
/// in-process scan workers (tests drive the queue until idle); it stops when
/// the returned handle is dropped.
pub async fn start(config: &gatehouse::config::Config) -> gatehouse::startup::Running {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a free port");
    gatehouse::startup::Application::build_with_listener(config, listener)
        .await
        .expect("the application starts")
        .without_workers()
        .spawn()
}

/// Fetches the allowlist of `audience` from the server at `address` and
/// verifies it as a client pinned to the server's current root would.
pub async fn verified_allowlist(
    address: &str,
    audience: &str,
) -> gatehouse::allowlist::AllowlistPayload {
    let fetch =
        |path: String| async move { reqwest::get(path).await.unwrap().bytes().await.unwrap() };
    let root = fetch(format!("{address}/v1/root.json")).await;
    let envelope = fetch(format!("{address}/v1/allowlist?audience={audience}")).await;
    let mut state = gatehouse::allowlist::ClientState::default();
    gatehouse::allowlist::verify_allowlist(
        &root,
        &[],
        &envelope,
        audience,
        &mut state,
        chrono::Utc::now(),
    )
    .expect("the served allowlist verifies")
    .payload
}
