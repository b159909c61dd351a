//! Bait-and-switch (issue 14, item 4): the server is crawled again under the
//! `clientInfo` names real clients send, declaring the *same* capabilities as
//! the scan's own crawl; any difference in the tools, prompts or resources
//! listed is a high finding ([`ids::PRO_CLIENT_SWITCH`]) with the diff.
//!
//! A server may legitimately list more to a client that declares more (MCP
//! 2025-11-25, Lifecycle §Capability Negotiation: the capabilities a client
//! declares decide which features are available in the session). So one more
//! crawl, under the scanner's own name, declares the client capabilities real
//! clients declare (`roots`, `sampling`, `elicitation`); a difference there is
//! attributed to the declared capabilities and shown as information
//! ([`ids::PRO_CAPABILITY_LISTS`]), never flagged high. A difference under
//! another name with the same capabilities cannot be explained that way.
//!
//! The extra crawls reuse the crawler (`discovery::crawl`, same network policy,
//! bounds and credentials), are bounded in number
//! ([`IdentitySettings::max_crawls`]) and in total time
//! ([`IdentitySettings::budget`]); an identity that could not be crawled within
//! them is reported (medium: undecided, for the reviewer), not guessed.

use std::time::Duration;

use serde_json::{Value, json};
use tokio::time::Instant;

use crate::analysis::catalogue::ids;
use crate::analysis::{Category, Finding, Severity};
use crate::discovery::{self, ClientIdentity, CrawlOptions};
use crate::review::diff::{self, Diff};
use crate::snapshot::{Snapshot, Target};

/// A client name (and version) to pose as.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientName {
    /// `clientInfo.name`.
    pub name: String,
    /// `clientInfo.version`.
    pub version: String,
}

/// How the bait-and-switch crawls run.
#[derive(Debug, Clone)]
pub struct IdentitySettings {
    /// The client names to pose as (empty turns the check off).
    pub clients: Vec<ClientName>,
    /// Most extra crawls per scan, the capability crawl included.
    pub max_crawls: usize,
    /// Longest time all extra crawls of one scan may take together.
    pub budget: Duration,
    /// Whether to crawl once more declaring client capabilities, to explain
    /// differences that follow them.
    pub probe_capabilities: bool,
}

impl Default for IdentitySettings {
    fn default() -> IdentitySettings {
        IdentitySettings {
            clients: default_clients(),
            max_crawls: 6,
            budget: Duration::from_secs(60),
            probe_capabilities: true,
        }
    }
}

/// The names real clients send in `clientInfo`:
///
/// - Claude Code: `claude-code` (as logged by servers it connects to);
/// - Cursor: `cursor-vscode` (idem);
/// - Visual Studio Code: `Visual Studio Code` (its MCP client sends the
///   product's `nameLong`, microsoft/vscode
///   `src/vs/workbench/contrib/mcp/common/mcpServerRequestHandler.ts`);
/// - the official Python SDK: `mcp` 0.1.0, its `DEFAULT_CLIENT_INFO`
///   (modelcontextprotocol/python-sdk `src/mcp/client/session.py`);
/// - the official TypeScript SDK has no default: its client example names
///   itself `example-client` (modelcontextprotocol/typescript-sdk
///   `src/examples/client/simpleStreamableHttp.ts`).
pub fn default_clients() -> Vec<ClientName> {
    [
        ("claude-code", "2.0.0"),
        ("cursor-vscode", "1.0.0"),
        ("Visual Studio Code", "1.105.0"),
        ("mcp", "0.1.0"),
        ("example-client", "1.0.0"),
    ]
    .iter()
    .map(|(name, version)| ClientName {
        name: (*name).into(),
        version: (*version).into(),
    })
    .collect()
}

/// Whether a finding is one of this module's (not of the analysis).
pub fn is_identity_rule(rule: &str) -> bool {
    rule == ids::PRO_CLIENT_SWITCH || rule == ids::PRO_CAPABILITY_LISTS
}

/// Parses `name[@version],…` (the `--client-identities` setting); an empty
/// string is no identity at all. Names are bounded (128 characters, at most 16).
pub fn parse_clients(spec: &str) -> Result<Vec<ClientName>, String> {
    let mut out = Vec::new();
    for part in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (name, version) = part.split_once('@').unwrap_or((part, "1.0.0"));
        if name.is_empty() || name.chars().count() > 128 || version.chars().count() > 64 {
            return Err(format!(
                "client identity {part:?}: name of 1 to 128 characters, version up to 64"
            ));
        }
        if name.chars().any(char::is_control) || version.chars().any(char::is_control) {
            return Err(format!("client identity {part:?}: control characters"));
        }
        out.push(ClientName {
            name: name.into(),
            version: version.into(),
        });
    }
    if out.len() > 16 {
        return Err("at most 16 client identities".into());
    }
    Ok(out)
}

/// The client capabilities the capability crawl declares (what Claude Code,
/// VS Code and the SDKs' clients commonly declare; 2025-11-25 schema
/// `ClientCapabilities`).
fn declared_capabilities() -> Value {
    json!({"roots": {"listChanged": true}, "sampling": {}, "elicitation": {}})
}

/// Crawls `url` again under each identity and once with declared capabilities,
/// and returns the findings (empty when every crawl listed the same as
/// `primary`). `options` are the primary crawl's. The crawls run one after
/// the other: a hostile server can make a job hold one crawl's bounded
/// memory at a time, not seven (BENCHMARKS.md "Monitor" for the cost).
pub async fn cross_check(
    url: &str,
    options: &CrawlOptions,
    primary: &Snapshot,
    settings: &IdentitySettings,
) -> Vec<Finding> {
    let mut findings = Vec::new();
    if settings.clients.is_empty() || settings.max_crawls == 0 {
        return findings;
    }
    let deadline = Instant::now() + settings.budget;
    let mut crawls = 0;
    for client in &settings.clients {
        if crawls >= settings.max_crawls {
            break;
        }
        crawls += 1;
        let mut posed = options.clone();
        posed.client = ClientIdentity {
            name: client.name.clone(),
            title: None,
            version: client.version.clone(),
            capabilities: options.client.capabilities.clone(),
        };
        match crawl_within(url, &posed, deadline).await {
            Ok(other) => {
                let d = diff::diff(primary, &other);
                if !is_empty(&d) {
                    findings.push(finding(
                        ids::PRO_CLIENT_SWITCH,
                        Severity::High,
                        format!(
                            "Crawled as client {:?} with the same declared capabilities, the server listed other capabilities: {}",
                            client.name,
                            summary(&d)
                        ),
                        &d,
                    ));
                }
            }
            Err(why) => findings.push(finding(
                ids::PRO_CLIENT_SWITCH,
                Severity::Medium,
                format!(
                    "Could not compare the lists under client name {:?} ({why}); a reviewer should check",
                    client.name
                ),
                &Diff::default(),
            )),
        }
    }
    if settings.probe_capabilities && crawls < settings.max_crawls {
        let mut declaring = options.clone();
        declaring.client.capabilities = declared_capabilities();
        if let Ok(other) = crawl_within(url, &declaring, deadline).await {
            let d = diff::diff(primary, &other);
            if !is_empty(&d) {
                findings.push(finding(
                    ids::PRO_CAPABILITY_LISTS,
                    Severity::Info,
                    format!(
                        "A client that declares roots, sampling and elicitation is listed other capabilities (explained by the declared capabilities, not by its name): {}",
                        summary(&d)
                    ),
                    &d,
                ));
            }
        }
    }
    findings
}

async fn crawl_within(
    url: &str,
    options: &CrawlOptions,
    deadline: Instant,
) -> Result<Snapshot, String> {
    let left = deadline.saturating_duration_since(Instant::now());
    if left.is_zero() {
        return Err("time budget spent".into());
    }
    match tokio::time::timeout(left, discovery::crawl(url, options)).await {
        Err(_) => Err("time budget spent".into()),
        Ok(Err(failure)) => Err(format!("crawl failed: {}", failure.code)),
        Ok(Ok(snapshot)) => match snapshot.crawl.as_ref().filter(|c| !c.unread.is_empty()) {
            Some(c) => Err(format!("lists not read: {}", c.unread.join(", "))),
            None => Ok(snapshot),
        },
    }
}

fn is_empty(d: &Diff) -> bool {
    d.added.is_empty() && d.removed.is_empty() && d.changed.is_empty()
}

/// `added tool x, removed prompt y, changed tool z (description)`, bounded.
fn summary(d: &Diff) -> String {
    let mut parts: Vec<String> = Vec::new();
    parts.extend(
        d.added
            .iter()
            .map(|i| format!("added {} {:?}", i.kind, i.name)),
    );
    parts.extend(
        d.removed
            .iter()
            .map(|i| format!("removed {} {:?}", i.kind, i.name)),
    );
    parts.extend(d.changed.iter().map(|c| {
        let fields: Vec<&str> = c.fields.iter().map(|f| f.field.as_str()).collect();
        format!("changed {} {:?} ({})", c.kind, c.name, fields.join(", "))
    }));
    cut(&parts.join("; "), 2000)
}

fn finding(rule: &str, severity: Severity, message: String, d: &Diff) -> Finding {
    let evidence = if is_empty(d) {
        String::new()
    } else {
        cut(
            &serde_json::to_string(d).expect("diffs serialise"),
            8 * 1024,
        )
    };
    Finding {
        rule: rule.into(),
        category: Category::Protocol,
        severity,
        target: Target::server(),
        field: "lists".into(),
        message: cut(&message, 4000),
        evidence: crate::visible::render(&evidence),
    }
}

fn cut(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut out: String = s.chars().take(max).collect();
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_identities_parse_with_bounds() {
        let parsed = parse_clients("claude-code@2.1.0, cursor-vscode").unwrap();
        assert_eq!(parsed[0].name, "claude-code");
        assert_eq!(parsed[0].version, "2.1.0");
        assert_eq!(parsed[1].version, "1.0.0");
        assert!(parse_clients("").unwrap().is_empty());
        assert!(parse_clients(&"x".repeat(129)).is_err());
        assert!(parse_clients("a\u{7}b").is_err());
    }

    #[test]
    fn the_default_names_are_those_real_clients_send() {
        let names: Vec<String> = default_clients().into_iter().map(|c| c.name).collect();
        for n in ["claude-code", "cursor-vscode", "Visual Studio Code", "mcp"] {
            assert!(names.iter().any(|x| x == n), "{n}");
        }
    }
}
