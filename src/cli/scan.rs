//! `gatehouse scan` and `gatehouse rules`: the scanner without a server; and
//! [`ConnectArgs`], the flags for reaching a live server that `call` shares.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use clap::{Args, ValueEnum};

use crate::analysis::{self, Context, Report, RulesConfig, Severity};
use crate::discovery::{
    self, ClientAuth, CrawlOptions, EraChoice, NetPolicy, OAuthCredentials, TransportChoice,
};
use crate::snapshot::Snapshot;

use super::{EXIT_FINDINGS, EXIT_OK, EXIT_USAGE};

/// Arguments of `gatehouse scan`.
#[derive(Args, Debug)]
pub struct ScanArgs {
    /// URL of the MCP server to crawl.
    #[arg(
        required_unless_present_any = ["snapshot", "command", "package"],
        conflicts_with_all = ["snapshot", "command", "package"]
    )]
    pub url: Option<String>,
    /// Crawl a server started as this command over stdio instead: `scan -- python3 server.py`.
    #[arg(last = true, value_name = "COMMAND", conflicts_with_all = ["snapshot", "package"])]
    pub command: Vec<String>,
    /// Install a package (`npm:NAME@VERSION` or `pypi:NAME==VERSION`) into the
    /// cache under the data directory, start it in the sandbox (bubblewrap: no
    /// network, read-only system, private home) and crawl it over stdio.
    #[arg(long, value_name = "SPEC", conflicts_with = "snapshot")]
    pub package: Option<String>,
    /// With --package: an argument for the package's server (repeatable).
    #[arg(long = "package-arg", value_name = "ARG", requires = "package")]
    pub package_args: Vec<String>,
    /// With --package: the server name it is published under; checks its
    /// ownership (npm mcpName, the README's mcp-name).
    #[arg(long, value_name = "NAME", requires = "package")]
    pub server_name: Option<String>,
    /// Analyse a saved Snapshot file instead of crawling.
    #[arg(long)]
    pub snapshot: Option<PathBuf>,
    /// How to reach the server: headers, transport, era, OAuth credentials.
    #[command(flatten)]
    pub connect: ConnectArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// TOML rules file (overrides the global `--rules-file`).
    #[arg(long)]
    pub rules: Option<PathBuf>,
}

/// How a command reaches a live server: the flags `scan` and `call` share
/// (docs/DESIGN.md §4), turned into [`CrawlOptions`] by [`ConnectArgs::options`].
#[derive(Args, Debug)]
pub struct ConnectArgs {
    /// Extra request header, `'Name: value'` (repeatable).
    #[arg(long = "header", short = 'H')]
    pub headers: Vec<String>,
    /// Transport to use.
    #[arg(long, value_enum, default_value_t = TransportArg::Auto)]
    pub transport: TransportArg,
    /// Protocol era: probe `server/discover` and fall back to `initialize`
    /// (auto), or speak only one of them.
    #[arg(long, value_enum, default_value_t = EraArg::Auto)]
    pub era: EraArg,
    /// OAuth client id for a server behind OAuth (client-credentials grant).
    #[arg(long, requires = "client_auth")]
    pub client_id: Option<String>,
    /// Read the OAuth client secret from the first line of standard input.
    #[arg(long, group = "client_auth", requires = "client_id")]
    pub client_secret_stdin: bool,
    /// PKCS#8 PEM private key for `private_key_jwt` client authentication.
    #[arg(long, group = "client_auth", requires = "client_id")]
    pub client_key: Option<PathBuf>,
}

/// `--transport` values.
#[derive(ValueEnum, Clone, Copy, Debug)]
pub enum TransportArg {
    /// Streamable HTTP, falling back to HTTP+SSE per the spec's compatibility procedure.
    Auto,
    /// Streamable HTTP only.
    StreamableHttp,
    /// Legacy HTTP+SSE only.
    Sse,
}

/// `--era` values.
#[derive(ValueEnum, Clone, Copy, Debug)]
pub enum EraArg {
    /// `server/discover` first (MCP 2026-07-28), `initialize` for older servers.
    Auto,
    /// Only the 2026-07-28 revision.
    Modern,
    /// Only the `initialize` handshake (2025-11-25 and earlier).
    Legacy,
}

/// `--format` values.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// For people; coloured on a terminal.
    Text,
    /// The Report (docs/DESIGN.md §6) with the snapshot.
    Json,
    /// SARIF 2.1.0.
    Sarif,
}

/// Arguments of `gatehouse rules`.
#[derive(Args, Debug)]
pub struct RulesArgs {}

/// Runs `gatehouse rules`: id, category, default severity, title — one rule a line.
pub fn run_rules(_args: &RulesArgs) -> i32 {
    let mut out = std::io::stdout().lock();
    for rule in analysis::catalogue() {
        let _ = writeln!(
            out,
            "{}\t{}\t{}\t{}",
            rule.id,
            rule.category.as_str(),
            rule.severity.as_str(),
            rule.title
        );
    }
    EXIT_OK
}

/// Runs `gatehouse scan`; returns the process exit code.
pub async fn run_scan(args: &ScanArgs, config: &crate::config::Config) -> i32 {
    // Built while the snapshot is read or crawled (about a third of a
    // small scan's time otherwise).
    std::thread::spawn(analysis::warm_up);
    let rules_path = args.rules.as_ref().or(config.rules_file.as_ref());
    let rules = match rules_path {
        Some(path) => match RulesConfig::load(path) {
            Ok(r) => r,
            Err(e) => return fail(&format!("rules file {}: {e}", path.display())),
        },
        None => RulesConfig::default(),
    };
    if let Some(spec) = &args.package {
        return scan_package(spec, args, config, &rules).await;
    }
    let snapshot = match (&args.snapshot, &args.url) {
        (Some(path), _) => match read_snapshot(path) {
            Ok(s) => s,
            Err(e) => return fail(&e),
        },
        (None, Some(url)) => match crawl(url, args, config).await {
            Ok(s) => s,
            Err(e) => return fail(&e),
        },
        (None, None) if !args.command.is_empty() => {
            let options = CrawlOptions {
                era: era_choice(args.connect.era),
                network: NetPolicy::allow_all(),
                progress: std::io::stderr().is_terminal(),
                ..CrawlOptions::default()
            };
            match discovery::crawl_stdio(&args.command, &options).await {
                Ok(s) => s,
                Err(e) => return fail(&e.to_string()),
            }
        }
        (None, None) => return fail("give a URL, -- COMMAND, --package SPEC or --snapshot FILE"),
    };
    let unread = snapshot
        .crawl
        .as_ref()
        .map(|c| c.unread.clone())
        .unwrap_or_default();
    let mut report = analysis::analyze(&snapshot, &Context::default(), &rules);
    report.snapshot = Some(snapshot);
    print_report(&report, args.format);
    verdict(&report, &unread)
}

/// `gatehouse scan --package SPEC`: install, sandbox, crawl, analyse. Exit
/// codes as for a URL: 2 when the package could not be installed or crawled
/// (the report still lists the package's own findings), 1 on a high finding.
async fn scan_package(
    spec: &str,
    args: &ScanArgs,
    config: &crate::config::Config,
    rules: &RulesConfig,
) -> i32 {
    let mut package = match crate::packages::PackageRef::parse_spec(spec) {
        Ok(p) => p,
        Err(e) => return fail(&e.to_string()),
    };
    package.arguments = args.package_args.clone();
    if !crate::packages::sandbox::available() {
        return fail(
            "bubblewrap (bwrap) is missing or cannot make a sandbox here; install the bubblewrap package",
        );
    }
    let settings = crate::packages::PackagesConfig::new(&config.data_dir);
    let options = CrawlOptions {
        era: era_choice(args.connect.era),
        progress: std::io::stderr().is_terminal(),
        ..CrawlOptions::default()
    };
    let scanned =
        crate::packages::scan(&package, args.server_name.as_deref(), &settings, &options).await;
    let server = analysis::ReportServer {
        name: args
            .server_name
            .clone()
            .unwrap_or_else(|| package.identifier.clone()),
        version: package.version.clone(),
    };
    let mut report = match &scanned.snapshot {
        Some(snapshot) => {
            let analysed = analysis::analyze(snapshot, &Context::default(), rules);
            let mut findings = analysed.findings;
            findings.extend(scanned.findings.clone());
            Report::new(server, findings)
        }
        None => Report::new(server, scanned.findings.clone()),
    };
    let unread = scanned
        .snapshot
        .as_ref()
        .and_then(|s| s.crawl.as_ref())
        .map(|c| c.unread.clone())
        .unwrap_or_default();
    report.snapshot = scanned.snapshot;
    print_report(&report, args.format);
    if let Some(error) = &scanned.error {
        return fail(error);
    }
    verdict(&report, &unread)
}

fn fail(message: &str) -> i32 {
    eprintln!("gatehouse scan: {message}");
    EXIT_USAGE
}

/// The fields of which a Snapshot has at least one (docs/DESIGN.md §6). `{}` or a
/// saved Report would otherwise deserialise as an empty snapshot and pass as
/// "0 findings".
const SNAPSHOT_MARKERS: &[&str] = &[
    "protocolVersion",
    "serverInfo",
    "capabilities",
    "tools",
    "resources",
    "resourceTemplates",
    "prompts",
];

fn read_snapshot(path: &PathBuf) -> Result<Snapshot, String> {
    let shown = path.display();
    let bytes = std::fs::read(path).map_err(|e| format!("{shown}: {e}"))?;
    let parsed = crate::strict_json::parse(&bytes)
        .map_err(|e| format!("{shown}: not a snapshot (not JSON: {e})"))?;
    if let Some(pointer) = parsed.duplicate {
        return Err(format!(
            "{shown}: not a snapshot: the key at {pointer} appears twice, so the file has more than one meaning"
        ));
    }
    let Some(object) = parsed.value.as_object() else {
        return Err(format!(
            "{shown}: not a snapshot: a Snapshot is a JSON object"
        ));
    };
    if !SNAPSHOT_MARKERS.iter().any(|k| object.contains_key(*k)) {
        let hint = if object.contains_key("findings") || object.contains_key("summary") {
            " (this looks like a saved report; its snapshot is under \"snapshot\")"
        } else {
            ""
        };
        return Err(format!(
            "{shown}: not a snapshot: none of {} is present{hint}",
            SNAPSHOT_MARKERS.join(", ")
        ));
    }
    serde_json::from_value(parsed.value).map_err(|e| format!("{shown}: not a snapshot: {e}"))
}

async fn crawl(
    url: &str,
    args: &ScanArgs,
    config: &crate::config::Config,
) -> Result<Snapshot, String> {
    let options = args.connect.options(config)?;
    discovery::crawl(url, &options)
        .await
        .map_err(|e| e.to_string())
}

impl ConnectArgs {
    /// The options of a crawl or a call: the headers, the OAuth credentials
    /// (the secret from stdin, never the command line), the transport and era,
    /// and the network policy of `GATEHOUSE_SCAN_ALLOW_PRIVATE`. An `Err` is bad
    /// input: a malformed header, an unreadable key, an invalid policy.
    pub fn options(&self, config: &crate::config::Config) -> Result<CrawlOptions, String> {
        let mut headers = Vec::new();
        for h in &self.headers {
            let (name, value) = h
                .split_once(':')
                .ok_or_else(|| format!("header {h:?} is not 'Name: value'"))?;
            headers.push((name.trim().to_string(), value.trim().to_string()));
        }
        let network = NetPolicy::from_config(config.scan_allow_private.as_deref())?;
        let oauth = match &self.client_id {
            None => None,
            Some(client_id) => {
                let auth = if let Some(path) = &self.client_key {
                    let pem = std::fs::read_to_string(path)
                        .map_err(|e| format!("{}: {e}", path.display()))?;
                    discovery::key_algorithm(&pem)
                        .map_err(|e| format!("{}: {e}", path.display()))?;
                    ClientAuth::PrivateKey(pem)
                } else {
                    // The secret never appears on the command line, where `ps` would show it.
                    let mut line = String::new();
                    std::io::stdin()
                        .read_line(&mut line)
                        .map_err(|e| format!("reading the client secret from stdin: {e}"))?;
                    let secret = line.trim_end_matches(['\r', '\n']).to_string();
                    if secret.is_empty() {
                        return Err("--client-secret-stdin: standard input held no secret".into());
                    }
                    ClientAuth::Secret(secret)
                };
                Some(OAuthCredentials {
                    client_id: client_id.clone(),
                    auth,
                    issuer: None,
                })
            }
        };
        Ok(CrawlOptions {
            transport: match self.transport {
                TransportArg::Auto => TransportChoice::Auto,
                TransportArg::StreamableHttp => TransportChoice::StreamableHttp,
                TransportArg::Sse => TransportChoice::Sse,
            },
            era: era_choice(self.era),
            oauth,
            headers,
            network,
            progress: std::io::stderr().is_terminal(),
            ..CrawlOptions::default()
        })
    }
}

fn era_choice(era: EraArg) -> EraChoice {
    match era {
        EraArg::Auto => EraChoice::Auto,
        EraArg::Modern => EraChoice::Modern,
        EraArg::Legacy => EraChoice::Legacy,
    }
}

fn print_report(report: &Report, format: Format) {
    let text = match format {
        Format::Json => serde_json::to_string_pretty(report).expect("a report serialises"),
        Format::Sarif => serde_json::to_string_pretty(&analysis::format::sarif(report))
            .expect("SARIF serialises"),
        Format::Text => analysis::format::text(report, std::io::stdout().is_terminal()),
    };
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{text}");
}

/// The exit code of a printed report: a declared list that could not be
/// read was not scanned, so a clean report of the rest must not pass for a
/// clean server.
fn verdict(report: &Report, unread: &[String]) -> i32 {
    if !unread.is_empty() {
        return fail(&format!(
            "crawl error: the declared list(s) {} could not be read, so the report is incomplete (see the protocol findings)",
            unread.join(", ")
        ));
    }
    match report.summary.max_severity {
        Some(s) if s >= Severity::High => EXIT_FINDINGS,
        _ => EXIT_OK,
    }
}
