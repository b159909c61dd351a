//! `gatehouse keys`: show or rotate signing keys; export the current root document.

use clap::Subcommand;

/// `gatehouse keys …`
#[derive(Subcommand, Debug)]
pub enum KeysCommand {
    /// Show key ids and the root version.
    Show,
    /// Rotate the allowlist signing key (publishes a new root version).
    Rotate,
    /// Print the current signed root document.
    ExportRoot,
}

/// Runs a `keys` command.
pub async fn run(_cmd: &KeysCommand, _config: &crate::config::Config) -> i32 {
    eprintln!("gatehouse keys: not implemented yet");
    super::EXIT_USAGE
}
