//! `gatehouse verify`: check a signed allowlist exactly as an MCP client would.

use std::path::PathBuf;

use clap::Args;

/// Arguments of `gatehouse verify`.
#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// Fetch the allowlist from this URL.
    #[arg(long, conflicts_with = "file", required_unless_present = "file")]
    pub url: Option<String>,
    /// Read the allowlist envelope from this file.
    #[arg(long)]
    pub file: Option<PathBuf>,
    /// The pinned root document.
    #[arg(long)]
    pub root: PathBuf,
    /// State file remembering the last accepted version (rollback protection).
    #[arg(long)]
    pub state: Option<PathBuf>,
    /// Expected audience.
    #[arg(long, default_value = "default")]
    pub audience: String,
}

/// Runs `gatehouse verify`.
pub async fn run(_args: &VerifyArgs, _config: &crate::config::Config) -> i32 {
    eprintln!("gatehouse verify: not implemented yet");
    super::EXIT_USAGE
}
