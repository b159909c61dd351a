//! Client configuration exports of an audience's signed allowlist: what a
//! client's own managed settings can enforce, which is less than the gateway
//! does (README, "Exports and their limits").
//!
//! - Claude Code ([`claude_code`]): the approved servers as a fixed managed
//!   set (`managed-mcp.json`'s `mcpServers`, under `managedMcpServers`),
//!   `allowedMcpServers` restricted to their URLs (and the exact launch
//!   commands of npm and PyPI packages), `allowManagedMcpServersOnly`, and a
//!   `permissions.deny` rule `mcp__<name>__<tool>` for every tool of an
//!   approved server that was *not* approved (code.claude.com/docs/en/managed-mcp;
//!   permission rules for MCP tools in code.claude.com/docs/en/permissions).
//! - GitHub Copilot ([`copilot`]): the enterprise managed-settings
//!   `allowedMcpServers` (`serverUrl`, `serverCommand`) and an empty
//!   `deniedMcpServers` (docs.github.com, "Configuring an MCP server allowlist
//!   for your enterprise"). Copilot has no per-tool rule: a server with
//!   unapproved tools is left out entirely, so the export stays narrower than
//!   the allowlist, never wider.
//!
//! Names and definitions come from the signed payload; the scanned tool names
//! (for the deny rules) from the scan the approval rests on.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::payload::ServerEntry;

/// One server of the allowlist with every tool its approved scan listed.
#[derive(Debug, Clone)]
pub struct ExportServer {
    /// The signed entry (its pins are the approved tools).
    pub entry: ServerEntry,
    /// Every tool name the scan the approval rests on found.
    pub scanned_tools: Vec<String>,
}

impl ExportServer {
    /// Scanned tools that were not approved.
    pub fn unapproved_tools(&self) -> Vec<&str> {
        let mut left_out: Vec<&str> = self
            .scanned_tools
            .iter()
            .filter(|t| !self.entry.tools.pins.iter().any(|p| &p.name == *t))
            .map(String::as_str)
            .collect();
        left_out.sort_unstable();
        left_out.dedup();
        left_out
    }
}

/// The configured name of a server in Claude Code: the last segment of its
/// registry name with every character outside `[A-Za-z0-9_-]` made `_` (the
/// characters a `mcp__<server>__<tool>` rule can name).
pub fn client_name(server: &str) -> String {
    server
        .rsplit('/')
        .next()
        .unwrap_or(server)
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Unique client names for the servers, in order: a repeat gets `-2`, `-3`, …
fn client_names(servers: &[ExportServer]) -> Vec<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    servers
        .iter()
        .map(|s| {
            let base = client_name(&s.entry.name);
            let count = seen.entry(base.clone()).or_default();
            *count += 1;
            if *count == 1 {
                base
            } else {
                format!("{base}-{count}")
            }
        })
        .collect()
}

/// The launch command Claude Code and Copilot match a package server by.
fn package_command(registry_type: &str, identifier: &str, version: &str) -> Option<Vec<String>> {
    match registry_type {
        "npm" => Some(vec![
            "npx".into(),
            "-y".into(),
            format!("{identifier}@{version}"),
        ]),
        "pypi" => Some(vec!["uvx".into(), format!("{identifier}=={version}")]),
        _ => None,
    }
}

/// The Claude Code managed-settings document of the approved servers.
pub fn claude_code(servers: &[ExportServer]) -> Value {
    let mut managed = serde_json::Map::new();
    let mut allowed: Vec<Value> = Vec::new();
    let mut deny: Vec<String> = Vec::new();
    for (server, name) in servers.iter().zip(client_names(servers)) {
        let rules = &server.entry.match_;
        // One configured server per approved version: its streamable-http
        // remote when it has one, else its SSE remote, else its package.
        let remote = rules
            .remotes
            .iter()
            .find(|r| r.type_ == "streamable-http")
            .or_else(|| rules.remotes.iter().find(|r| r.type_ == "sse"));
        let package = rules
            .packages
            .iter()
            .find_map(|p| package_command(&p.registry_type, &p.identifier, &p.version));
        let config = match (remote, package) {
            (Some(remote), _) => {
                let kind = if remote.type_ == "sse" { "sse" } else { "http" };
                json!({"type": kind, "url": remote.url})
            }
            (None, Some(command)) => {
                json!({"type": "stdio", "command": command[0], "args": command[1..]})
            }
            (None, None) => continue,
        };
        managed.insert(name.clone(), config);
        for remote in &rules.remotes {
            allowed.push(json!({"serverUrl": remote.url}));
        }
        for package in &rules.packages {
            if let Some(command) = package_command(
                &package.registry_type,
                &package.identifier,
                &package.version,
            ) {
                allowed.push(json!({"serverCommand": command}));
            }
        }
        for tool in server.unapproved_tools() {
            deny.push(format!("mcp__{name}__{tool}"));
        }
    }
    allowed.sort_by_key(|e| e.to_string());
    allowed.dedup();
    deny.sort();
    deny.dedup();
    json!({
        "managedMcpServers": {"mcpServers": managed},
        "allowedMcpServers": allowed,
        "allowManagedMcpServersOnly": true,
        "permissions": {"deny": deny},
    })
}

/// The GitHub Copilot enterprise managed-settings document: every approved
/// server all of whose scanned tools were approved, by URL or exact command.
pub fn copilot(servers: &[ExportServer]) -> Value {
    let mut allowed: Vec<Value> = Vec::new();
    let mut left_out: Vec<Value> = Vec::new();
    for server in servers {
        let unapproved = server.unapproved_tools();
        if !unapproved.is_empty() {
            left_out.push(json!({"name": server.entry.name, "unapprovedTools": unapproved}));
            continue;
        }
        for remote in &server.entry.match_.remotes {
            allowed.push(json!({"serverUrl": remote.url}));
        }
        for package in &server.entry.match_.packages {
            if let Some(command) = package_command(
                &package.registry_type,
                &package.identifier,
                &package.version,
            ) {
                allowed.push(json!({"serverCommand": command}));
            }
        }
    }
    allowed.sort_by_key(|e| e.to_string());
    allowed.dedup();
    json!({
        "allowedMcpServers": allowed,
        "deniedMcpServers": [],
        "_leftOut": left_out,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::allowlist::Risk;
    use crate::allowlist::payload::{MatchRules, NamePin, Pins, RemoteMatch, ToolPins};

    fn server(name: &str, url: &str, approved: &[&str], scanned: &[&str]) -> ExportServer {
        ExportServer {
            entry: ServerEntry {
                name: name.into(),
                version: "1.0.0".into(),
                approved_at: chrono::Utc::now(),
                match_: MatchRules {
                    remotes: vec![RemoteMatch {
                        type_: "streamable-http".into(),
                        url: url.into(),
                        verification: None,
                    }],
                    packages: vec![],
                },
                tools: ToolPins {
                    mode: "pinned".into(),
                    pins: approved
                        .iter()
                        .map(|n| NamePin {
                            name: n.to_string(),
                            sha256: "00".into(),
                        })
                        .collect(),
                },
                prompts: Pins { pins: vec![] },
                resources: Pins { pins: vec![] },
                instructions_sha256: None,
                risk: Risk::default(),
            },
            scanned_tools: scanned.iter().map(|s| s.to_string()).collect(),
        }
    }

    #[test]
    fn two_servers_with_the_same_last_segment_get_distinct_names_and_rules() {
        let servers = [
            server("com.a/tools", "https://a/mcp", &["x"], &["x", "y"]),
            server("com.b/tools", "https://b/mcp", &["x"], &["x", "z"]),
        ];

        let settings = claude_code(&servers);

        assert_eq!(
            settings["permissions"]["deny"],
            json!(["mcp__tools-2__z", "mcp__tools__y"])
        );
        assert!(settings["managedMcpServers"]["mcpServers"]["tools-2"].is_object());
    }

    #[test]
    fn a_server_approved_whole_gets_no_deny_rule_and_copilot_keeps_it() {
        let servers = [server("com.a/full", "https://a/mcp", &["x"], &["x"])];

        assert_eq!(claude_code(&servers)["permissions"]["deny"], json!([]));
        assert_eq!(
            copilot(&servers)["allowedMcpServers"],
            json!([{"serverUrl": "https://a/mcp"}])
        );
    }
}
