//! The command line (ARCHITECTURE.md, "Contracts"; docs/DESIGN.md §4): the one
//! clap tree ([`Cli`], [`Command`]) and one file per command family. The
//! argument structs live beside the code that runs them; the settings they
//! share are `config`'s. Only `main.rs` imports this module: the library's
//! other modules know nothing of the command line.

pub mod admin;
pub mod call;
pub mod demo;
pub mod gateway;
pub mod keys;
pub mod scan;
pub mod serve;
pub mod verify;

use clap::{Parser, Subcommand};

use crate::config::{Config, ServerArgs};

/// Exit code for success.
pub const EXIT_OK: i32 = 0;
/// Exit code of `scan` when a high or critical finding exists.
pub const EXIT_FINDINGS: i32 = 1;
/// Exit code for usage errors and crawl failures (for `call`: bad input).
pub const EXIT_USAGE: i32 = 2;
/// Exit code of `call` when the call was made and failed (docs/DESIGN.md §4).
pub const EXIT_CALL_FAILED: i32 = 3;

/// Gatehouse: a trusted registry for MCP servers.
#[derive(Parser, Debug)]
#[command(name = "gatehouse", version, about, long_about = None)]
pub struct Cli {
    /// Settings shared by every command.
    #[command(flatten)]
    pub config: Config,
    /// Server settings of a bare `gatehouse` (which serves).
    #[command(flatten)]
    pub server: ServerArgs,
    /// What to do; `serve` when omitted.
    #[command(subcommand)]
    pub command: Option<Command>,
}

impl Cli {
    /// Parses the process arguments (see [`Cli::parse_scoped_from`]).
    pub fn parse_scoped() -> Cli {
        Self::parse_scoped_from(std::env::args_os())
    }

    /// Parses `args` and puts the effective [`ServerArgs`] into `config`: a
    /// flag given after the subcommand (`serve --listen X`) wins, then one
    /// given before it (`--listen X serve`), then the environment or default.
    pub fn parse_scoped_from<I, T>(args: I) -> Cli
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        use clap::{CommandFactory, FromArgMatches, parser::ValueSource};
        let matches = Cli::command().get_matches_from(args);
        let mut cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
        let sub = match &cli.command {
            Some(Command::Serve(a) | Command::Worker(a)) => Some(a.clone()),
            Some(Command::Demo(d)) => Some(d.server.clone()),
            _ => None,
        };
        let mut server = cli.server.clone();
        if let (Some(sub), Some((_, sub_matches))) = (sub, matches.subcommand()) {
            let given = |m: &clap::ArgMatches, id: &str| {
                m.value_source(id) == Some(ValueSource::CommandLine)
            };
            let take = |id: &str| given(sub_matches, id) || !given(&matches, id);
            if take("listen") {
                server.listen = sub.listen;
            }
            if take("public_url") {
                server.public_url = sub.public_url;
            }
            if take("bootstrap_admin_password") {
                server.bootstrap_admin_password = sub.bootstrap_admin_password;
            }
            if take("workers") {
                server.workers = sub.workers;
            }
            if take("job_lease_secs") {
                server.job_lease_secs = sub.job_lease_secs;
            }
            if take("trusted_proxies") {
                server.trusted_proxies = sub.trusted_proxies;
            }
        }
        cli.config.apply(server);
        cli
    }
}

/// The commands of docs/DESIGN.md §4.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Serve HTTP with in-process scan workers and the monitor.
    Serve(ServerArgs),
    /// Run scan workers and the monitor only (scale-out on PostgreSQL).
    Worker(ServerArgs),
    /// Crawl one live server (or read a saved snapshot), analyse it and print the report.
    Scan(scan::ScanArgs),
    /// Call one tool of a live server and print its result (exit 0 result, 2 bad input, 3 failed call).
    Call(call::CallArgs),
    /// Print the rule catalogue, one rule a line.
    Rules(scan::RulesArgs),
    /// Manage users and admin tokens.
    #[command(subcommand)]
    Admin(admin::AdminCommand),
    /// Manage publishers.
    #[command(subcommand)]
    Publisher(admin::PublisherCommand),
    /// Show or rotate signing keys; export the current root document.
    #[command(subcommand)]
    Keys(keys::KeysCommand),
    /// Verify a signed allowlist as a client would.
    Verify(verify::VerifyArgs),
    /// An MCP gateway exposing only the approved, pin-matching capabilities of an audience's servers.
    Gateway(gateway::GatewayArgs),
    /// Try the whole flow locally: an honest and a poisoned MCP server on loopback, published, scanned and served for review.
    Demo(demo::DemoArgs),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_output_redacts_secrets() {
        let cli = Cli::parse_scoped_from([
            "gatehouse",
            "--database-url",
            "postgres://u:pw@localhost/db",
            "serve",
            "--bootstrap-admin-password",
            "hunter2",
        ]);
        assert_eq!(
            cli.config.bootstrap_admin_password.as_deref(),
            Some("hunter2")
        );
        let shown = format!("{:?} {:?}", cli.config, cli.command);
        assert!(!shown.contains("hunter2"));
        assert!(!shown.contains(":pw@"));
    }

    #[test]
    fn server_flags_work_on_either_side_of_the_subcommand_and_stay_out_of_scan_help() {
        let before = Cli::parse_scoped_from(["gatehouse", "--listen", "127.0.0.1:9001", "serve"]);
        assert_eq!(before.config.listen.port(), 9001);
        let after = Cli::parse_scoped_from(["gatehouse", "serve", "--listen", "127.0.0.1:9002"]);
        assert_eq!(after.config.listen.port(), 9002);
        let bare = Cli::parse_scoped_from(["gatehouse", "--workers", "7"]);
        assert_eq!(bare.config.workers, 7);

        use clap::CommandFactory;
        let mut command = Cli::command();
        // Global flags reach subcommands when the command tree is built.
        command.build();
        let scan = command.find_subcommand_mut("scan").unwrap();
        let help = scan.render_long_help().to_string();
        for server_flag in [
            "--listen",
            "--public-url",
            "--bootstrap-admin-password",
            "--workers",
            "--trusted-proxies",
        ] {
            assert!(!help.contains(server_flag), "{server_flag} in scan --help");
        }
        assert!(help.contains("--scan-allow-private"));
    }
}
