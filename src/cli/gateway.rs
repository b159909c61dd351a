//! `gatehouse gateway`: an MCP gateway exposing only the approved,
//! pin-matching capabilities of an audience's servers (docs/DESIGN.md §4;
//! the gateway itself is `crate::gateway`).
//!
//! Exit codes: 0 after a clean shutdown (Ctrl-C, SIGTERM, or the end of stdin
//! with `--stdio`); 2 on usage errors (an unreadable root or token file, a
//! registry URL that is not http(s), a non-loopback `--listen` without a
//! token file, a port in use).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use super::{EXIT_OK, EXIT_USAGE};
use crate::allowlist::TrustedRoot;
use crate::discovery::{CrawlOptions, NetPolicy};
use crate::gateway::{self, DEFAULT_DEBOUNCE, Gateway, GatewayOptions, TokenMap};

/// Arguments of `gatehouse gateway`.
#[derive(Args, Debug)]
#[command(after_help = "\
Clients connect to http://ADDR/mcp (Streamable HTTP, both protocol eras) or over
stdio (--stdio). Only tools, prompts and resources whose live definitions hash to
a pin of the verified allowlist are listed and may be called; arguments are
checked against the pinned inputSchema before a call is forwarded. Without a
verified, unexpired allowlist nothing is exposed.

Token file (--token-file): {\"tokens\": [{\"token\": \"…\", \"audience\": \"a\", \"client\": \"alice\"}]};
every HTTP request must then carry Authorization: Bearer with one of the tokens,
which chooses the audience the client sees.")]
pub struct GatewayArgs {
    /// Base URL of the Gatehouse registry (its /v1/allowlist and /v1/root/{n}.json are used).
    #[arg(long, env = "GATEHOUSE_GATEWAY_REGISTRY")]
    pub registry: String,
    /// The pinned root document (trust starts here; newer roots are walked to).
    #[arg(long)]
    pub root: PathBuf,
    /// Audience of the allowlist served to clients without a token (and over stdio).
    #[arg(long, default_value = gateway::DEFAULT_AUDIENCE)]
    pub audience: String,
    /// Address to listen on (Streamable HTTP at /mcp).
    #[arg(
        long,
        env = "GATEHOUSE_GATEWAY_LISTEN",
        default_value = "127.0.0.1:8765",
        conflicts_with = "stdio"
    )]
    pub listen: SocketAddr,
    /// Serve one client over standard input and output instead of HTTP.
    #[arg(long)]
    pub stdio: bool,
    /// State file remembering the last accepted allowlist versions (rollback protection).
    #[arg(long)]
    pub state: Option<PathBuf>,
    /// Seconds between crawls of every upstream.
    #[arg(long, default_value_t = 300, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub recheck: u64,
    /// Seconds between fetches of the allowlist.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub allowlist_refresh: u64,
    /// Registry token used to report drift (POST /api/v1/gateway/drift), so the monitor rescans at once.
    #[arg(long, env = "GATEHOUSE_GATEWAY_REPORT_TOKEN", hide_env_values = true)]
    pub report_token: Option<String>,
    /// JSON file mapping bearer tokens to audiences (per-client audiences).
    #[arg(long)]
    pub token_file: Option<PathBuf>,
}

/// Runs `gatehouse gateway`; returns the exit code.
pub async fn run(args: &GatewayArgs, config: &crate::config::Config) -> i32 {
    match run_inner(args, config).await {
        Ok(()) => EXIT_OK,
        Err(message) => {
            eprintln!("gatehouse gateway: {message}");
            EXIT_USAGE
        }
    }
}

async fn run_inner(args: &GatewayArgs, config: &crate::config::Config) -> Result<(), String> {
    let options = options(args, config)?;
    if !args.stdio && !args.listen.ip().is_loopback() && options.tokens.is_none() {
        return Err(format!(
            "--listen {} is not a loopback address: give --token-file so that only known clients connect",
            args.listen
        ));
    }
    // Bind before the first crawl, so a port in use is reported at once.
    let listener = if args.stdio {
        None
    } else {
        Some(
            tokio::net::TcpListener::bind(args.listen)
                .await
                .map_err(|e| format!("--listen {}: {e}", args.listen))?,
        )
    };
    let gateway = Gateway::start(options).await.map_err(|e| e.to_string())?;
    match listener {
        None => {
            let stdin = tokio::io::BufReader::new(tokio::io::stdin());
            tokio::select! {
                served = gateway::stdio::serve(gateway.clone(), stdin, tokio::io::stdout()) => served.map_err(|e| e.to_string()),
                _ = shutdown_signal() => Ok(()),
            }
        }
        Some(listener) => {
            tracing::info!(address = %args.listen, "gateway listening at /mcp");
            gateway::http::serve(gateway, listener, shutdown_signal())
                .await
                .map_err(|e| e.to_string())
        }
    }
}

/// The gateway's options from the command line and the shared settings.
pub fn options(
    args: &GatewayArgs,
    config: &crate::config::Config,
) -> Result<GatewayOptions, String> {
    let registry = url::Url::parse(&args.registry).map_err(|e| format!("--registry: {e}"))?;
    if !matches!(registry.scheme(), "http" | "https") {
        return Err("--registry must be an http(s) URL".into());
    }
    if !gateway::valid_audience(&args.audience) {
        return Err("--audience: 1-64 characters of a-z, 0-9, '-', '_' or '.'".into());
    }
    let pinned_root =
        std::fs::read(&args.root).map_err(|e| format!("--root {}: {e}", args.root.display()))?;
    // The pinned root must at least be a self-signed root before anything is fetched.
    TrustedRoot::pinned(&pinned_root)
        .map_err(|e| format!("--root {}: {e}", args.root.display()))?;
    let tokens = match &args.token_file {
        Some(path) => {
            let bytes =
                std::fs::read(path).map_err(|e| format!("--token-file {}: {e}", path.display()))?;
            Some(TokenMap::parse(&bytes)?)
        }
        None => None,
    };
    let network = NetPolicy::from_config(config.scan_allow_private.as_deref())?;
    Ok(GatewayOptions {
        registry: args.registry.trim_end_matches('/').to_string(),
        pinned_root,
        audience: args.audience.clone(),
        tokens,
        state: args.state.clone(),
        recheck: Duration::from_secs(args.recheck),
        allowlist_refresh: Duration::from_secs(args.allowlist_refresh),
        report_token: args.report_token.clone(),
        crawl: CrawlOptions {
            network,
            ..CrawlOptions::default()
        },
        debounce: DEFAULT_DEBOUNCE,
        // Package-only servers run in the sandbox, installed under the data
        // directory, when the package sandbox is on (GATEHOUSE_SCAN_PACKAGES).
        packages: config
            .scan_packages
            .then(|| crate::packages::PackagesConfig::new(&config.data_dir)),
    })
}

/// Ctrl-C or SIGTERM.
async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = terminate => {},
    }
}
