//! Configuration: one clap struct, every field a flag with an environment twin
//! (DESIGN.md §4). Secrets are redacted in `Debug` so a logged config leaks nothing.

use std::fmt;
use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

/// Gatehouse: a trusted registry for MCP servers.
#[derive(Parser, Debug)]
#[command(name = "gatehouse", version, about, long_about = None)]
pub struct Cli {
    /// Settings shared by every command.
    #[command(flatten)]
    pub config: Config,
    /// What to do; `serve` when omitted.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The commands of DESIGN.md §4.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Serve HTTP with in-process scan workers and the monitor.
    Serve,
    /// Run scan workers and the monitor only (scale-out on PostgreSQL).
    Worker,
    /// Crawl one live server (or read a saved snapshot), analyse it and print the report.
    Scan(crate::cli::scan::ScanArgs),
    /// Print the rule catalogue, one rule a line.
    Rules(crate::cli::scan::RulesArgs),
    /// Manage users and admin tokens.
    #[command(subcommand)]
    Admin(crate::cli::admin::AdminCommand),
    /// Manage publishers.
    #[command(subcommand)]
    Publisher(crate::cli::admin::PublisherCommand),
    /// Show or rotate signing keys; export the current root document.
    #[command(subcommand)]
    Keys(crate::cli::keys::KeysCommand),
    /// Verify a signed allowlist as a client would.
    Verify(crate::cli::verify::VerifyArgs),
}

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

    /// Address the HTTP server listens on.
    #[arg(
        long,
        env = "GATEHOUSE_LISTEN",
        default_value = "127.0.0.1:8080",
        global = true
    )]
    pub listen: SocketAddr,

    /// Public base URL of this registry (issuer of allowlists; `https` makes cookies `Secure`).
    #[arg(long, env = "GATEHOUSE_PUBLIC_URL", global = true)]
    pub public_url: Option<String>,

    /// Let the scanner (and remote URLs) reach private addresses: `1` for all, or a comma-separated CIDR list.
    #[arg(long, env = "GATEHOUSE_SCAN_ALLOW_PRIVATE", global = true)]
    pub scan_allow_private: Option<String>,

    /// Password for the bootstrap `admin` user created on first start (generated and printed once when unset).
    #[arg(
        long,
        env = "GATEHOUSE_BOOTSTRAP_ADMIN_PASSWORD",
        global = true,
        hide_env_values = true
    )]
    pub bootstrap_admin_password: Option<String>,

    /// Number of concurrent scan jobs per process.
    #[arg(long, env = "GATEHOUSE_WORKERS", default_value_t = 4, global = true)]
    pub workers: usize,

    /// Seconds a scan job stays claimed without a heartbeat; a dead worker's job is retried after this.
    #[arg(
        long,
        env = "GATEHOUSE_JOB_LEASE_SECS",
        default_value_t = 120,
        global = true
    )]
    pub job_lease_secs: u64,

    /// TOML rules file for the analysis (thresholds, overrides, extra rules).
    #[arg(long = "rules-file", env = "GATEHOUSE_RULES", global = true)]
    pub rules_file: Option<PathBuf>,

    /// Log format: `text` or `json`.
    #[arg(
        long,
        env = "GATEHOUSE_LOG_FORMAT",
        default_value = "text",
        global = true
    )]
    pub log_format: String,
}

impl Config {
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
            .field(
                "bootstrap_admin_password",
                &format_args!("{}", redact(&self.bootstrap_admin_password)),
            )
            .field("workers", &self.workers)
            .field("job_lease_secs", &self.job_lease_secs)
            .field("rules_file", &self.rules_file)
            .field("log_format", &self.log_format)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_output_redacts_secrets() {
        let cli = Cli::parse_from([
            "gatehouse",
            "--bootstrap-admin-password",
            "hunter2",
            "--database-url",
            "postgres://u:pw@localhost/db",
        ]);
        let shown = format!("{:?}", cli.config);
        assert!(!shown.contains("hunter2"));
        assert!(!shown.contains(":pw@"));
    }
}
