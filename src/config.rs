//! Configuration: every setting a flag with an environment twin (ARCHITECTURE.md,
//! "Contracts"; docs/DESIGN.md §4). Secrets are redacted in `Debug` so a logged
//! config leaks nothing. This module holds configuration only: the command
//! tree that mounts these structs is `cli`'s.
//!
//! Flags are scoped to the commands that use them: the settings every
//! command may need ([`Config`]: database, data directory, scanner network
//! policy, rules, log format) are global; the server's own ([`ServerArgs`]:
//! listen address, public URL, bootstrap password, workers, lease, trusted
//! proxies) belong to `serve`, `worker` and `demo` (and to a bare `gatehouse`,
//! which serves), so `gatehouse scan --help` does not list them.
//! `cli::Cli::parse_scoped` copies the effective server settings into
//! [`Config`] ([`Config::apply`]), whichever side of the subcommand they were given on.

use std::fmt;
use std::net::SocketAddr;
use std::path::PathBuf;

use clap::Args;

/// Settings shared by the server, the workers and the CLI commands that touch the database.
#[derive(Args, Clone)]
pub struct Config {
    /// Database URL: `sqlite://PATH` or `postgres://…`; default: an SQLite file in the data directory.
    #[arg(long, env = "GATEHOUSE_DATABASE_URL", global = true)]
    pub database_url: Option<String>,

    /// Directory for the embedded database and the signing keys.
    #[arg(
        long,
        env = "GATEHOUSE_DATA_DIR",
        default_value = "./data",
        global = true
    )]
    pub data_dir: PathBuf,

    /// Let the scanner (and remote URLs) reach private addresses: `1` for all, or a comma-separated CIDR list.
    #[arg(long, env = "GATEHOUSE_SCAN_ALLOW_PRIVATE", global = true)]
    pub scan_allow_private: Option<String>,

    /// Effective server settings (from [`ServerArgs`], see [`Config::apply`]).
    #[arg(skip = default_listen())]
    pub listen: SocketAddr,
    /// See [`ServerArgs::public_url`].
    #[arg(skip)]
    pub public_url: Option<String>,
    /// See [`ServerArgs::bootstrap_admin_password`].
    #[arg(skip)]
    pub bootstrap_admin_password: Option<String>,
    /// See [`ServerArgs::workers`].
    #[arg(skip = 4usize)]
    pub workers: usize,
    /// See [`ServerArgs::job_lease_secs`].
    #[arg(skip = 15u64)]
    pub job_lease_secs: u64,
    /// See [`ServerArgs::trusted_proxies`].
    #[arg(skip)]
    pub trusted_proxies: Option<String>,
    /// See [`ServerArgs::watch_streams`].
    #[arg(skip = 256usize)]
    pub watch_streams: usize,
    /// See [`ServerArgs::client_identities`].
    #[arg(skip)]
    pub client_identities: Option<String>,

    /// TOML rules file for the analysis (thresholds, overrides, extra rules).
    #[arg(long = "rules-file", env = "GATEHOUSE_RULES", global = true)]
    pub rules_file: Option<PathBuf>,

    /// Scan package servers (npm, PyPI) by installing them and starting them in
    /// the bubblewrap sandbox; `false` reports them as not crawled (GH-PRO-005).
    #[arg(
        long,
        env = "GATEHOUSE_SCAN_PACKAGES",
        default_value_t = true,
        action = clap::ArgAction::Set,
        global = true
    )]
    pub scan_packages: bool,

    /// Verify who runs each remote after its crawl (a Server Card naming the
    /// server, the publisher's challenge token, or a host under its
    /// namespaces); an unverified remote is a medium finding (GH-OWN-003).
    #[arg(
        long,
        env = "GATEHOUSE_VERIFY_REMOTES",
        default_value_t = true,
        action = clap::ArgAction::Set,
        global = true
    )]
    pub verify_remotes: bool,

    /// Log format: `text` or `json`.
    #[arg(
        long,
        env = "GATEHOUSE_LOG_FORMAT",
        default_value = "text",
        global = true
    )]
    pub log_format: String,
}

/// The server's own settings: `serve`, `worker`, `demo` and a bare `gatehouse`.
#[derive(Args, Clone)]
pub struct ServerArgs {
    /// Address the HTTP server listens on.
    #[arg(long, env = "GATEHOUSE_LISTEN", default_value = "127.0.0.1:8080")]
    pub listen: SocketAddr,

    /// Public base URL of this registry (issuer of allowlists; `https` makes cookies `Secure`).
    #[arg(long, env = "GATEHOUSE_PUBLIC_URL")]
    pub public_url: Option<String>,

    /// Password for the bootstrap `admin` user created on first start (generated and printed once when unset).
    #[arg(
        long,
        env = "GATEHOUSE_BOOTSTRAP_ADMIN_PASSWORD",
        hide_env_values = true
    )]
    pub bootstrap_admin_password: Option<String>,

    /// Number of concurrent scan jobs per process.
    #[arg(long, env = "GATEHOUSE_WORKERS", default_value_t = 4)]
    pub workers: usize,

    /// Seconds a scan job stays claimed without a heartbeat (renewed every third of it while the job runs); a dead worker's job is retried after this.
    #[arg(long, env = "GATEHOUSE_JOB_LEASE_SECS", default_value_t = 15)]
    pub job_lease_secs: u64,

    /// Reverse proxies whose `X-Forwarded-For` is believed: a comma-separated CIDR list (e.g. `127.0.0.1/32,10.0.0.0/8`); unset: none.
    #[arg(long, env = "GATEHOUSE_TRUSTED_PROXIES")]
    pub trusted_proxies: Option<String>,

    /// Most change-notification streams of approved servers this process holds open (live watching; 0 turns it off).
    #[arg(long, env = "GATEHOUSE_WATCH_STREAMS", default_value_t = 256)]
    pub watch_streams: usize,

    /// Client names a scan poses as to detect bait-and-switch: comma-separated `name[@version]`; empty turns it off; unset: the names Claude Code, Cursor, VS Code and the official SDKs send.
    #[arg(long, env = "GATEHOUSE_CLIENT_IDENTITIES")]
    pub client_identities: Option<String>,
}

fn default_listen() -> SocketAddr {
    SocketAddr::from(([127, 0, 0, 1], 8080))
}

impl fmt::Debug for ServerArgs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ServerArgs")
            .field("listen", &self.listen)
            .field("public_url", &self.public_url)
            .field(
                "bootstrap_admin_password",
                &format_args!("{}", redact(&self.bootstrap_admin_password)),
            )
            .field("workers", &self.workers)
            .field("job_lease_secs", &self.job_lease_secs)
            .field("trusted_proxies", &self.trusted_proxies)
            .field("watch_streams", &self.watch_streams)
            .field("client_identities", &self.client_identities)
            .finish()
    }
}

impl Config {
    /// The defaults of every flag, with the data directory `data_dir`, read
    /// from no command line and no environment: for code that starts an
    /// application itself (tests, benches) and sets what it needs.
    pub fn new(data_dir: impl Into<PathBuf>) -> Config {
        Config {
            database_url: None,
            data_dir: data_dir.into(),
            scan_allow_private: None,
            listen: default_listen(),
            public_url: None,
            bootstrap_admin_password: None,
            workers: 4,
            job_lease_secs: 15,
            trusted_proxies: None,
            watch_streams: 256,
            client_identities: None,
            rules_file: None,
            scan_packages: true,
            verify_remotes: true,
            log_format: "text".into(),
        }
    }

    /// Takes the effective server settings.
    pub fn apply(&mut self, server: ServerArgs) {
        self.listen = server.listen;
        self.public_url = server.public_url;
        self.bootstrap_admin_password = server.bootstrap_admin_password;
        self.workers = server.workers;
        self.job_lease_secs = server.job_lease_secs;
        self.trusted_proxies = server.trusted_proxies;
        self.watch_streams = server.watch_streams;
        self.client_identities = server.client_identities;
    }

    /// `GATEHOUSE_TRUSTED_PROXIES` parsed: every entry a CIDR network or a bare address.
    pub fn trusted_proxies(&self) -> Result<Vec<crate::discovery::Cidr>, String> {
        self.trusted_proxies
            .as_deref()
            .unwrap_or("")
            .split(',')
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .map(|p| {
                p.parse()
                    .map_err(|e| format!("GATEHOUSE_TRUSTED_PROXIES: {e}"))
            })
            .collect()
    }

    /// The database URL in effect: the configured one, or `sqlite://DATA_DIR/gatehouse.db`.
    pub fn database_url(&self) -> String {
        match &self.database_url {
            Some(url) => url.clone(),
            None => format!("sqlite://{}", self.data_dir.join("gatehouse.db").display()),
        }
    }

    /// The public URL, defaulting to `http://LISTEN`.
    pub fn public_url(&self) -> String {
        self.public_url
            .clone()
            .unwrap_or_else(|| format!("http://{}", self.listen))
            .trim_end_matches('/')
            .to_string()
    }
}

/// Hides a secret's value: `Some("…")` prints as `Some(<redacted>)`.
fn redact(secret: &Option<String>) -> &'static str {
    if secret.is_some() {
        "Some(<redacted>)"
    } else {
        "None"
    }
}

/// Strips a password from a database URL before it is printed.
fn redact_url(url: &Option<String>) -> String {
    match url {
        None => "None".into(),
        Some(u) => match url::Url::parse(u) {
            Ok(mut parsed) if parsed.password().is_some() => {
                let _ = parsed.set_password(Some("redacted"));
                format!("Some({parsed})")
            }
            _ => format!("Some({u})"),
        },
    }
}

impl fmt::Debug for Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Config")
            .field(
                "database_url",
                &format_args!("{}", redact_url(&self.database_url)),
            )
            .field("data_dir", &self.data_dir)
            .field("listen", &self.listen)
            .field("public_url", &self.public_url)
            .field("scan_allow_private", &self.scan_allow_private)
            .field("trusted_proxies", &self.trusted_proxies)
            .field(
                "bootstrap_admin_password",
                &format_args!("{}", redact(&self.bootstrap_admin_password)),
            )
            .field("workers", &self.workers)
            .field("job_lease_secs", &self.job_lease_secs)
            .field("watch_streams", &self.watch_streams)
            .field("client_identities", &self.client_identities)
            .field("rules_file", &self.rules_file)
            .field("scan_packages", &self.scan_packages)
            .field("verify_remotes", &self.verify_remotes)
            .field("log_format", &self.log_format)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Parsed {
        #[command(flatten)]
        config: Config,
        #[command(flatten)]
        server: ServerArgs,
    }

    #[test]
    fn debug_output_redacts_secrets() {
        let mut parsed = Parsed::parse_from([
            "gatehouse",
            "--database-url",
            "postgres://u:pw@localhost/db",
            "--bootstrap-admin-password",
            "hunter2",
        ]);
        let shown_server = format!("{:?}", parsed.server);
        parsed.config.apply(parsed.server.clone());
        assert_eq!(
            parsed.config.bootstrap_admin_password.as_deref(),
            Some("hunter2")
        );
        let shown = format!("{:?} {shown_server}", parsed.config);
        assert!(!shown.contains("hunter2"));
        assert!(!shown.contains(":pw@"));
    }

    #[test]
    fn new_has_the_defaults_of_the_flags() {
        let mut parsed = Parsed::parse_from(["gatehouse", "--data-dir", "/srv/gatehouse"]);
        parsed.config.apply(parsed.server);
        assert_eq!(
            format!("{:?}", Config::new("/srv/gatehouse")),
            format!("{:?}", parsed.config)
        );
    }
}
