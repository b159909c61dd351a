//! The `gatehouse` binary: parse the command line and dispatch (ARCHITECTURE.md;
//! docs/DESIGN.md §4). The only importer of `gatehouse::cli`.

use gatehouse::cli::{self, Cli, Command};
use gatehouse::config::Config;
use tracing_subscriber::EnvFilter;

fn main() {
    let parsed = Cli::parse_scoped();
    init_tracing(&parsed.config);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("the tokio runtime starts");
    let code = runtime.block_on(async move {
        let config = &parsed.config;
        let result = match &parsed.command {
            None | Some(Command::Serve(_)) => cli::serve::run_serve(config).await,
            Some(Command::Worker(_)) => cli::serve::run_worker(config).await,
            Some(Command::Scan(args)) => return cli::scan::run_scan(args, config).await,
            Some(Command::Call(args)) => return cli::call::run(args, config).await,
            Some(Command::Rules(args)) => return cli::scan::run_rules(args),
            Some(Command::Keys(cmd)) => return cli::keys::run(cmd, config).await,
            Some(Command::Verify(args)) => return cli::verify::run(args, config).await,
            Some(Command::Gateway(args)) => return cli::gateway::run(args, config).await,
            Some(Command::Admin(cmd)) => cli::admin::run_admin(cmd, config).await,
            Some(Command::Publisher(cmd)) => cli::admin::run_publisher(cmd, config).await,
            Some(Command::Demo(args)) => cli::demo::run(args, config).await,
        };
        match result {
            Ok(()) => cli::EXIT_OK,
            Err(e) => {
                eprintln!("gatehouse: {e:#}");
                cli::EXIT_USAGE
            }
        }
    });
    std::process::exit(code);
}

/// Logs go to stderr (stdout carries command output such as tokens and reports).
fn init_tracing(config: &Config) {
    let filter = EnvFilter::try_from_env("GATEHOUSE_LOG")
        .or_else(|_| EnvFilter::try_from_default_env())
        .unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn"));
    // Colour codes only on a terminal: in a log file they are noise.
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_writer(std::io::stderr);
    if config.log_format == "json" {
        builder.json().init();
    } else {
        builder.init();
    }
}
