//! The `gatehouse` binary: parse the command line and dispatch (DESIGN.md §4).

use clap::Parser;
use gatehouse::cli;
use gatehouse::config::{Cli, Command};

fn main() {
    let parsed = Cli::parse();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("the tokio runtime starts");
    let code = runtime.block_on(async move {
        match &parsed.command {
            Some(Command::Scan(args)) => cli::scan::run_scan(args, &parsed.config).await,
            Some(Command::Rules(args)) => cli::scan::run_rules(args),
            Some(Command::Keys(cmd)) => cli::keys::run(cmd, &parsed.config).await,
            Some(Command::Verify(args)) => cli::verify::run(args, &parsed.config).await,
            _ => {
                eprintln!("not implemented yet");
                cli::EXIT_USAGE
            }
        }
    });
    std::process::exit(code);
}
