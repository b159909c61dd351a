//! The allowlist payload (docs/DESIGN.md §7) and how it is built from approved
//! versions (the client exports of the same approvals are in `exports`).
//!
//! The builder is deterministic: servers, pins and revocations are sorted, so
//! the same approvals always give the same bytes and an unchanged allowlist
//! keeps its ETag.

use chrono::{DateTime, Utc};
use ed25519_dalek::SigningKey;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::dsse::{self, ALLOWLIST_PAYLOAD_TYPE, Envelope};
use super::pin::{pin_instructions, pin_prompt, pin_resource, pin_tool};
use super::{SPEC_VERSION, timestamp};
use crate::snapshot::{Prompt, Resource, Tool};

/// `_type` of an allowlist payload.
pub const ALLOWLIST_TYPE: &str = "gatehouse/allowlist";

/// One approved server version, as the review flow hands it to the builder.
#[derive(Debug, Clone, PartialEq)]
pub struct ApprovedServer {
    /// Reverse-DNS server name (`com.example/weather`).
    pub name: String,
    /// The approved version.
    pub version: String,
    /// When a reviewer approved it.
    pub approved_at: DateTime<Utc>,
    /// The published `server.json`; `remotes` and `packages` become the match rules.
    pub server_json: Value,
    /// The approved subset of the scanned tools, exactly as crawled.
    pub tools: Vec<Tool>,
    /// The scanned prompts.
    pub prompts: Vec<Prompt>,
    /// The scanned resources.
    pub resources: Vec<Resource>,
    /// The server's `instructions`, when it sent any.
    pub instructions: Option<String>,
    /// The risk summary of the scan the approval was based on.
    pub risk: Risk,
}

/// Risk summary of an approved version's scan.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Risk {
    /// Highest finding severity (`info` … `critical`); `null` without findings.
    pub max_severity: Option<String>,
    /// Number of findings.
    pub findings: u32,
}

/// A revoked version, listed so clients drop it even from caches.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Revoked {
    /// Server name.
    pub name: String,
    /// Revoked version.
    pub version: String,
    /// Why, for people.
    pub reason: String,
    /// When it was revoked.
    #[serde(with = "timestamp")]
    pub at: DateTime<Utc>,
}

/// The signed allowlist payload.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AllowlistPayload {
    /// Always [`ALLOWLIST_TYPE`].
    #[serde(rename = "_type")]
    pub type_: String,
    /// Format version, `1.0`.
    pub spec_version: String,
    /// Public URL of the registry that signed it.
    pub issuer: String,
    /// The audience this list is for (`default` unless a reviewer chose others).
    pub audience: String,
    /// Strictly increasing per audience: clients refuse anything older.
    pub version: u64,
    /// When it was signed.
    #[serde(with = "timestamp")]
    pub issued_at: DateTime<Utc>,
    /// After this instant clients must refuse it (fail closed).
    #[serde(with = "timestamp")]
    pub expires: DateTime<Utc>,
    /// Policy for servers not listed: always `deny`.
    pub default: String,
    /// The approved servers.
    pub servers: Vec<ServerEntry>,
    /// Revoked versions.
    #[serde(default)]
    pub revoked: Vec<Revoked>,
}

/// One approved server version in the payload.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ServerEntry {
    /// Server name.
    pub name: String,
    /// Approved version.
    pub version: String,
    /// When it was approved.
    #[serde(with = "timestamp")]
    pub approved_at: DateTime<Utc>,
    /// How a client recognises this server.
    #[serde(rename = "match")]
    pub match_: MatchRules,
    /// Pins of the approved tools; any other tool must be hidden.
    pub tools: ToolPins,
    /// Pins of the prompts.
    pub prompts: Pins<NamePin>,
    /// Pins of the resources.
    pub resources: Pins<UriPin>,
    /// Hex SHA-256 of the instructions text, `null` when there were none.
    pub instructions_sha256: Option<String>,
    /// Scan summary.
    pub risk: Risk,
}

/// How a client recognises a server: its remote endpoints and its packages.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchRules {
    /// Remote endpoints (`remotes[]` of server.json).
    #[serde(default)]
    pub remotes: Vec<RemoteMatch>,
    /// Installable packages at exact versions (`packages[]` of server.json).
    #[serde(default)]
    pub packages: Vec<PackageMatch>,
}

/// A remote endpoint.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct RemoteMatch {
    /// `streamable-http` or `sse`.
    #[serde(rename = "type")]
    pub type_: String,
    /// The endpoint URL.
    pub url: String,
    /// Who is proven to run it (issue 15, an additive field): `card`,
    /// `challenge`, `domain` or `unverified`; absent in entries signed before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verification: Option<String>,
}

/// A package at an exact version.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PackageMatch {
    /// `npm`, `pypi`, `oci`, `nuget`, `mcpb`, …
    pub registry_type: String,
    /// The package name in that registry.
    pub identifier: String,
    /// The exact version.
    pub version: String,
}

/// Tool pins with their mode (`pinned`: only these tools, only with these hashes).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolPins {
    /// Always `pinned` in this version of the format.
    pub mode: String,
    /// One pin per approved tool, sorted by name.
    pub pins: Vec<NamePin>,
}

/// A list of pins.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pins<P> {
    /// The pins, sorted.
    pub pins: Vec<P>,
}

/// The pin of a named capability (tool, prompt).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct NamePin {
    /// The capability's name, exactly as the server sent it.
    pub name: String,
    /// Hex SHA-256 of its canonical restricted JSON.
    pub sha256: String,
}

/// The pin of a resource, which is known by its URI.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct UriPin {
    /// The resource URI.
    pub uri: String,
    /// Hex SHA-256 of its canonical restricted JSON.
    pub sha256: String,
}

/// Builds the payload for one audience from its approved versions.
pub fn build_payload(
    issuer: &str,
    audience: &str,
    version: u64,
    issued_at: DateTime<Utc>,
    expires: DateTime<Utc>,
    servers: &[ApprovedServer],
    revoked: &[Revoked],
) -> AllowlistPayload {
    let mut entries = server_entries(servers);
    one_entry_per_url(&mut entries);
    entries.sort_by(|a, b| (&a.name, &a.version).cmp(&(&b.name, &b.version)));
    let mut revoked: Vec<Revoked> = revoked
        .iter()
        .map(|r| Revoked {
            at: timestamp::whole_seconds(r.at),
            ..r.clone()
        })
        .collect();
    revoked.sort_by(|a, b| (&a.name, &a.version).cmp(&(&b.name, &b.version)));
    AllowlistPayload {
        type_: ALLOWLIST_TYPE.into(),
        spec_version: SPEC_VERSION.into(),
        issuer: issuer.into(),
        audience: audience.into(),
        version,
        issued_at: timestamp::whole_seconds(issued_at),
        expires: timestamp::whole_seconds(expires),
        default: "deny".into(),
        servers: entries,
        revoked,
    }
}

/// Makes every remote URL of a server name apply to one entry only.
///
/// Two approved versions of one server may list the same endpoint with
/// different pins; a client that finds the URL twice could not tell which pins
/// to enforce. The newest approval wins (latest `approved_at`, then the larger
/// version string on a tie): the URL is removed from the older entries, and an
/// entry left with neither remotes nor packages is dropped. See
/// `docs/versions.md`. Packages match an exact version, so they never clash.
pub fn one_entry_per_url(entries: &mut Vec<ServerEntry>) {
    let mut order: Vec<usize> = (0..entries.len()).collect();
    // Newest approval first, so the first entry to claim a URL keeps it.
    order.sort_by(|&a, &b| {
        let (x, y) = (&entries[a], &entries[b]);
        (y.approved_at, &y.version).cmp(&(x.approved_at, &x.version))
    });
    let mut claimed: std::collections::HashSet<(String, String)> = Default::default();
    let mut emptied = vec![false; entries.len()];
    for i in order {
        let entry = &mut entries[i];
        let name = entry.name.to_lowercase();
        let before = entry.match_.remotes.len();
        entry
            .match_
            .remotes
            .retain(|r| claimed.insert((name.clone(), r.url.clone())));
        emptied[i] =
            before > 0 && entry.match_.remotes.is_empty() && entry.match_.packages.is_empty();
    }
    let mut index = 0;
    entries.retain(|_| {
        index += 1;
        !emptied[index - 1]
    });
}

/// Serialises `payload` and signs it as an allowlist with `keys`.
pub fn sign_allowlist(payload: &AllowlistPayload, keys: &[&SigningKey]) -> Envelope {
    // Plain data with string keys: serialisation cannot fail.
    let body = serde_json::to_vec(payload).expect("an allowlist payload always serialises");
    dsse::sign(ALLOWLIST_PAYLOAD_TYPE, &body, keys)
}

/// Fewest servers per thread when pinning in parallel; below this a thread costs more than it saves.
const MIN_SERVERS_PER_THREAD: usize = 512;

/// The entries of all servers. Pinning is the bulk of the work (a JCS
/// serialisation and a hash per capability), and servers are independent, so
/// large lists are split across the machine's cores. Callers on an async
/// runtime should run the builder in `spawn_blocking`.
fn server_entries(servers: &[ApprovedServer]) -> Vec<ServerEntry> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads = cores.min(servers.len() / MIN_SERVERS_PER_THREAD).max(1);
    if threads == 1 {
        return servers.iter().map(server_entry).collect();
    }
    let chunk = servers.len().div_ceil(threads);
    std::thread::scope(|scope| {
        let workers: Vec<_> = servers
            .chunks(chunk)
            .map(|part| scope.spawn(move || part.iter().map(server_entry).collect::<Vec<_>>()))
            .collect();
        workers
            .into_iter()
            // Pinning has no panicking path; if a worker died anyway, so do we, loudly.
            .flat_map(|worker| worker.join().expect("a pinning thread panicked"))
            .collect()
    })
}

/// The payload entry of one approved server.
pub fn server_entry(server: &ApprovedServer) -> ServerEntry {
    let mut tool_pins: Vec<NamePin> = server
        .tools
        .iter()
        .map(|t| NamePin {
            name: t.name.clone(),
            sha256: pin_tool(t),
        })
        .collect();
    tool_pins.sort();
    let mut prompt_pins: Vec<NamePin> = server
        .prompts
        .iter()
        .map(|p| NamePin {
            name: p.name.clone(),
            sha256: pin_prompt(p),
        })
        .collect();
    prompt_pins.sort();
    let mut resource_pins: Vec<UriPin> = server
        .resources
        .iter()
        .map(|r| UriPin {
            uri: r.uri.clone(),
            sha256: pin_resource(r),
        })
        .collect();
    resource_pins.sort();
    ServerEntry {
        name: server.name.clone(),
        version: server.version.clone(),
        approved_at: timestamp::whole_seconds(server.approved_at),
        match_: match_rules(&server.server_json),
        tools: ToolPins {
            mode: "pinned".into(),
            pins: tool_pins,
        },
        prompts: Pins { pins: prompt_pins },
        resources: Pins {
            pins: resource_pins,
        },
        instructions_sha256: server.instructions.as_deref().map(pin_instructions),
        risk: server.risk.clone(),
    }
}

/// Match rules from a `server.json`: `remotes[].type/url` and
/// `packages[].registryType/identifier/version`.
///
/// The registry validated the document on publish; an entry that still lacks
/// a field is left out rather than matched loosely (a package without a
/// version must not match every version).
pub fn match_rules(server_json: &Value) -> MatchRules {
    let field = |item: &Value, key: &str| item.get(key).and_then(Value::as_str).map(str::to_string);
    let items = |key: &str| {
        server_json
            .get(key)
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    let mut remotes: Vec<RemoteMatch> = items("remotes")
        .iter()
        .filter_map(|r| {
            Some(RemoteMatch {
                type_: field(r, "type")?,
                url: field(r, "url")?,
                verification: None,
            })
        })
        .collect();
    remotes.sort();
    remotes.dedup();
    let mut packages: Vec<PackageMatch> = items("packages")
        .iter()
        .filter_map(|p| {
            Some(PackageMatch {
                registry_type: field(p, "registryType")?,
                identifier: field(p, "identifier")?,
                version: field(p, "version")?,
            })
        })
        .collect();
    packages.sort();
    packages.dedup();
    MatchRules { remotes, packages }
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use serde_json::json;

    use super::*;

    #[test]
    fn one_url_of_one_server_is_pinned_by_the_newest_approval_only() {
        let mut older = weather();
        older.version = "1.0.0".into();
        older.approved_at = Utc.with_ymd_and_hms(2026, 11, 1, 9, 0, 0).unwrap();
        older.server_json = json!({"name": "com.example/weather", "version": "1.0.0",
            "remotes": [{"type": "streamable-http", "url": "https://mcp.example.com/mcp"}]});
        let newer = weather();
        let mut entries = vec![server_entry(&older), server_entry(&newer)];
        one_entry_per_url(&mut entries);
        let holders: Vec<&str> = entries
            .iter()
            .filter(|e| {
                e.match_
                    .remotes
                    .iter()
                    .any(|r| r.url == "https://mcp.example.com/mcp")
            })
            .map(|e| e.version.as_str())
            .collect();
        assert_eq!(holders, vec!["1.4.2"]);
        // The older entry matched nothing else, so it is gone.
        assert_eq!(entries.len(), 1);
    }

    fn weather() -> ApprovedServer {
        ApprovedServer {
            name: "com.example/weather".into(),
            version: "1.4.2".into(),
            approved_at: Utc.with_ymd_and_hms(2026, 12, 1, 9, 0, 0).unwrap(),
            server_json: json!({
                "name": "com.example/weather",
                "version": "1.4.2",
                "remotes": [{"type": "streamable-http", "url": "https://mcp.example.com/mcp"}],
                "packages": [
                    {"registryType": "npm", "identifier": "@example/weather", "version": "1.4.2",
                     "transport": {"type": "stdio"}},
                    {"registryType": "pypi", "identifier": "example-weather", "version": "1.4.2"},
                    {"registryType": "oci", "identifier": "example/weather", "version": "1.4.2"},
                    {"registryType": "npm", "identifier": "no-version"}
                ]
            }),
            tools: vec![
                serde_json::from_value(
                    json!({"name": "z_last", "inputSchema": {"type": "object"}}),
                )
                .unwrap(),
                serde_json::from_value(
                    json!({"name": "get_forecast", "inputSchema": {"type": "object"}}),
                )
                .unwrap(),
            ],
            prompts: vec![],
            resources: vec![],
            instructions: Some("Use get_forecast for weather.".into()),
            risk: Risk {
                max_severity: Some("low".into()),
                findings: 2,
            },
        }
    }

    fn build(servers: &[ApprovedServer]) -> AllowlistPayload {
        let at = Utc.with_ymd_and_hms(2026, 12, 2, 10, 0, 0).unwrap();
        build_payload(
            "https://gh.example",
            "default",
            42,
            at,
            at + chrono::Duration::days(7),
            servers,
            &[],
        )
    }

    #[test]
    fn the_payload_has_the_contract_shape() {
        let payload = build(&[weather()]);

        let json = serde_json::to_value(&payload).unwrap();

        assert_eq!(json["_type"], "gatehouse/allowlist");
        assert_eq!(json["spec_version"], "1.0");
        assert_eq!(json["default"], "deny");
        assert_eq!(json["issued_at"], "2026-12-02T10:00:00Z");
        assert_eq!(json["expires"], "2026-12-09T10:00:00Z");
        let server = &json["servers"][0];
        assert_eq!(
            server["match"]["remotes"][0]["url"],
            "https://mcp.example.com/mcp"
        );
        assert_eq!(server["tools"]["mode"], "pinned");
        assert_eq!(server["tools"]["pins"][0]["name"], "get_forecast");
        assert_eq!(server["risk"], json!({"maxSeverity": "low", "findings": 2}));
        assert_eq!(server["instructions_sha256"].as_str().unwrap().len(), 64);
    }

    #[test]
    fn packages_without_a_version_are_not_matched() {
        let rules = match_rules(&weather().server_json);

        let identifiers: Vec<&str> = rules
            .packages
            .iter()
            .map(|p| p.identifier.as_str())
            .collect();

        assert_eq!(
            identifiers,
            ["@example/weather", "example/weather", "example-weather"]
        );
    }

    #[test]
    fn a_server_without_instructions_has_a_null_instructions_pin() {
        let mut server = weather();
        server.instructions = None;

        let json = serde_json::to_value(build(&[server])).unwrap();

        assert!(json["servers"][0]["instructions_sha256"].is_null());
    }

    #[test]
    fn the_same_approvals_in_another_order_give_the_same_bytes() {
        let mut other = weather();
        other.name = "com.example/alpha".into();

        let a = serde_json::to_vec(&build(&[weather(), other.clone()])).unwrap();
        let b = serde_json::to_vec(&build(&[other, weather()])).unwrap();

        assert_eq!(a, b);
    }
}
