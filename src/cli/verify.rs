//! `gatehouse verify`: check a signed allowlist exactly as an MCP client would,
//! print its entries, and optionally check a live server against its pins.
//!
//! Exit codes: 0 accepted; 1 a checked server drifted from its pins or is not
//! on the list; 2 usage, I/O, fetch or crawl errors; 10–20 one per refusal
//! (see [`exit_code`]), so scripts can tell an attack from an outage.

use std::path::{Path, PathBuf};

use chrono::Utc;
use clap::Args;

use super::{EXIT_FINDINGS, EXIT_OK, EXIT_USAGE};
use crate::allowlist::check::{PinReport, check_snapshot};
use crate::allowlist::fetch;
use crate::allowlist::payload::{AllowlistPayload, ServerEntry};
use crate::allowlist::text::printable;
use crate::allowlist::{ClientState, VerifiedAllowlist, VerifyError, verify_allowlist};
use crate::discovery::{self, CrawlOptions, NetPolicy};
use crate::snapshot::Snapshot;

/// Arguments of `gatehouse verify`.
#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// Fetch the allowlist from this URL (newer roots come from `/v1/root/{n}.json` on the same origin).
    #[arg(long, conflicts_with = "file", required_unless_present = "file")]
    pub url: Option<String>,
    /// Read the allowlist envelope from this file.
    #[arg(long)]
    pub file: Option<PathBuf>,
    /// The pinned root document.
    #[arg(long)]
    pub root: PathBuf,
    /// With `--file`: a directory of newer root documents (`2.json`, `3.json`, …) to walk.
    #[arg(long, conflicts_with = "url")]
    pub roots_dir: Option<PathBuf>,
    /// State file remembering the last accepted version (rollback protection).
    #[arg(long)]
    pub state: Option<PathBuf>,
    /// Expected audience.
    #[arg(long, default_value = "default")]
    pub audience: String,
    /// Print the verified payload as JSON instead of a summary.
    #[arg(long)]
    pub json: bool,
    /// Crawl this MCP server and compare what it serves with its entry's pins.
    #[arg(long, conflicts_with = "check_snapshot")]
    pub check_server: Option<String>,
    /// Compare a saved Snapshot file with the pins of the entry named by `--server`.
    #[arg(long, requires = "server")]
    pub check_snapshot: Option<PathBuf>,
    /// The entry to check, by server name (default: the entry whose remote URL is `--check-server`).
    #[arg(long)]
    pub server: Option<String>,
}

/// The exit code of each refusal.
pub fn exit_code(error: &VerifyError) -> i32 {
    match error {
        VerifyError::BadSignature => 10,
        VerifyError::UnknownKey { .. } => 11,
        VerifyError::ThresholdNotMet { .. } => 12,
        VerifyError::WrongPayloadType { .. } => 13,
        VerifyError::WrongType { .. } => 14,
        VerifyError::UnsupportedSpecVersion { .. } => 15,
        VerifyError::Expired { .. } => 16,
        VerifyError::Rollback { .. } => 17,
        VerifyError::WrongAudience { .. } => 18,
        VerifyError::RootChainBroken { .. } => 19,
        VerifyError::Malformed { .. } => 20,
    }
}

/// Runs `gatehouse verify`; returns the exit code.
pub async fn run(args: &VerifyArgs, config: &crate::config::Config) -> i32 {
    match verify(args, config).await {
        Ok(code) => code,
        Err(Failure::Refused(e)) => {
            eprintln!("gatehouse verify: REFUSED ({}): {e}", e.code());
            exit_code(&e)
        }
        Err(Failure::Usage(message)) => {
            eprintln!("gatehouse verify: {message}");
            EXIT_USAGE
        }
    }
}

enum Failure {
    Refused(VerifyError),
    Usage(String),
}

impl From<VerifyError> for Failure {
    fn from(e: VerifyError) -> Failure {
        Failure::Refused(e)
    }
}

async fn verify(args: &VerifyArgs, config: &crate::config::Config) -> Result<i32, Failure> {
    let pinned = read(&args.root)?;
    let mut state = match &args.state {
        Some(path) => {
            ClientState::load(path).map_err(|e| Failure::Usage(format!("state file: {e}")))?
        }
        None => {
            eprintln!(
                "gatehouse verify: warning: no --state file, so rollbacks cannot be detected"
            );
            ClientState::default()
        }
    };
    let (envelope, roots) = match (&args.url, &args.file) {
        (Some(url), _) => fetch_documents(url, &pinned, &state).await?,
        (None, Some(file)) => (
            read(file)?,
            match &args.roots_dir {
                Some(dir) => read_roots(dir)?,
                None => vec![],
            },
        ),
        (None, None) => return Err(Failure::Usage("give --url or --file".into())),
    };

    let verified = verify_allowlist(
        &pinned,
        &roots,
        &envelope,
        &args.audience,
        &mut state,
        Utc::now(),
    )?;
    if let Some(path) = &args.state {
        state
            .save(path)
            .map_err(|e| Failure::Usage(format!("{}: {e}", path.display())))?;
    }
    print_allowlist(&verified, args.json);

    if args.check_server.is_none() && args.check_snapshot.is_none() {
        return Ok(EXIT_OK);
    }
    let Some(entry) = select_entry(&verified.payload, args) else {
        println!("NOT ALLOWED: no entry for this server on the allowlist (default deny)");
        return Ok(EXIT_FINDINGS);
    };
    let snapshot = match (&args.check_snapshot, &args.check_server) {
        (Some(path), _) => serde_json::from_slice::<Snapshot>(&read(path)?)
            .map_err(|e| Failure::Usage(format!("{}: not a snapshot: {e}", path.display())))?,
        (None, Some(url)) => crawl(url, config).await?,
        (None, None) => unreachable!("checked above"),
    };
    let report = check_snapshot(entry, &snapshot);
    print_pin_report(entry, &report);
    Ok(if report.changed.is_empty() {
        EXIT_OK
    } else {
        EXIT_FINDINGS
    })
}

/// The entry to check: by `--server` name, else the one listing `--check-server` as a remote.
pub fn select_entry<'a>(
    payload: &'a AllowlistPayload,
    args: &VerifyArgs,
) -> Option<&'a ServerEntry> {
    match (&args.server, &args.check_server) {
        (Some(name), _) => payload.servers.iter().find(|s| &s.name == name),
        (None, Some(url)) => payload
            .servers
            .iter()
            .find(|s| s.match_.remotes.iter().any(|r| &r.url == url)),
        (None, None) => None,
    }
}

async fn crawl(url: &str, config: &crate::config::Config) -> Result<Snapshot, Failure> {
    let network =
        NetPolicy::from_config(config.scan_allow_private.as_deref()).map_err(Failure::Usage)?;
    let options = CrawlOptions {
        network,
        progress: true,
        ..CrawlOptions::default()
    };
    discovery::crawl(url, &options)
        .await
        .map_err(|e| Failure::Usage(format!("crawl of {url} failed: {e}")))
}

fn read(path: &Path) -> Result<Vec<u8>, Failure> {
    std::fs::read(path).map_err(|e| Failure::Usage(format!("{}: {e}", path.display())))
}

/// Every `*.json` file of a directory; the walk picks the versions it needs.
fn read_roots(dir: &Path) -> Result<Vec<Vec<u8>>, Failure> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| Failure::Usage(format!("{}: {e}", dir.display())))?;
    let mut roots = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        if path.extension().is_some_and(|e| e == "json") {
            roots.push(read(&path)?);
        }
    }
    Ok(roots)
}

/// Fetches the allowlist and every root newer than the one the client starts
/// from (`allowlist::fetch`, shared with the gateway).
async fn fetch_documents(
    url: &str,
    pinned: &[u8],
    state: &ClientState,
) -> Result<(Vec<u8>, Vec<Vec<u8>>), Failure> {
    url::Url::parse(url).map_err(|e| Failure::Usage(format!("--url: {e}")))?;
    let client = fetch::client(concat!("gatehouse-verify/", env!("CARGO_PKG_VERSION")))
        .map_err(|e| Failure::Usage(e.to_string()))?;
    let start = state.start_root(pinned)?.version();
    let documents = fetch::fetch_documents(&client, url, start, None)
        .await
        .map_err(|e| Failure::Usage(e.to_string()))?;
    let envelope = documents
        .envelope
        .ok_or_else(|| Failure::Usage(format!("{url}: no document")))?;
    Ok((envelope, documents.roots))
}

fn print_allowlist(verified: &VerifiedAllowlist, json: bool) {
    let payload = &verified.payload;
    if json {
        // Plain data: serialisation cannot fail. serde_json escapes control characters.
        println!(
            "{}",
            serde_json::to_string_pretty(payload).unwrap_or_default()
        );
        return;
    }
    println!(
        "OK: allowlist version {} for audience {} from {}, signed under root version {}, expires {}",
        payload.version,
        printable(&payload.audience),
        printable(&payload.issuer),
        verified.root_version,
        crate::allowlist::timestamp::format(&payload.expires),
    );
    println!(
        "{} server(s) allowed (default: {}):",
        payload.servers.len(),
        printable(&payload.default)
    );
    for server in &payload.servers {
        println!(
            "  {} {}",
            printable(&server.name),
            printable(&server.version)
        );
        for remote in &server.match_.remotes {
            println!(
                "    remote   {} {}",
                printable(&remote.type_),
                printable(&remote.url)
            );
        }
        for package in &server.match_.packages {
            println!(
                "    package  {} {} {}",
                printable(&package.registry_type),
                printable(&package.identifier),
                printable(&package.version)
            );
        }
        let tools: Vec<String> = server
            .tools
            .pins
            .iter()
            .map(|p| printable(&p.name))
            .collect();
        println!("    tools    {} pinned: {}", tools.len(), tools.join(", "));
        println!(
            "    risk     {} ({} finding(s))",
            printable(server.risk.max_severity.as_deref().unwrap_or("none")),
            server.risk.findings
        );
    }
    for revoked in &payload.revoked {
        println!(
            "  revoked  {} {}: {}",
            printable(&revoked.name),
            printable(&revoked.version),
            printable(&revoked.reason)
        );
    }
}

fn print_pin_report(entry: &ServerEntry, report: &PinReport) {
    let name = printable(&entry.name);
    for mismatch in &report.changed {
        println!(
            "CHANGED: {} {} of {name} differs from its pin (expected {}, found {})",
            mismatch.kind,
            printable(&mismatch.name),
            mismatch.expected.as_deref().unwrap_or("none"),
            mismatch.found.as_deref().unwrap_or("none"),
        );
    }
    for (kind, item) in &report.unpinned {
        println!(
            "HIDDEN: {kind} {} of {name} is not approved; a client must not expose it",
            printable(item)
        );
    }
    for (kind, item) in &report.missing {
        println!(
            "missing: {kind} {} of {name} is pinned but no longer served",
            printable(item)
        );
    }
    if report.changed.is_empty() {
        println!("OK: every approved capability of {name} matches its pin");
    }
}
