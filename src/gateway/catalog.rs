//! What the gateway exposes, computed from the verified allowlist and the
//! upstreams' live lists (pure: no I/O).
//!
//! A capability is exposed only when its *live* definition hashes to its pin
//! (`allowlist::pin`): nothing added since approval, nothing changed. Public
//! names come from the allowlist alone ([`public_names`]), never from what the
//! upstreams happen to serve, so the mapping is the same after a restart, and
//! a drifting server cannot rename another server's tools by adding one.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use serde_json::Value;

use crate::allowlist::payload::ServerEntry;
use crate::allowlist::{pin_prompt, pin_resource, pin_tool};
use crate::snapshot::{Prompt, Resource, Snapshot, Tool};

/// Separator between the server prefix and the capability name (`weather__search`).
pub const PREFIX_SEPARATOR: &str = "__";

/// A capability kind, as logged and reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// A tool.
    Tool,
    /// A prompt.
    Prompt,
    /// A resource.
    Resource,
}

impl Kind {
    /// `tool`, `prompt` or `resource`.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Tool => "tool",
            Kind::Prompt => "prompt",
            Kind::Resource => "resource",
        }
    }
}

/// An exposed tool: the live definition (which matches its pin) under its public name.
#[derive(Debug, Clone)]
pub struct ExposedTool {
    /// The name clients see and call.
    pub public_name: String,
    /// The upstream server's name (`com.example/weather`).
    pub server: String,
    /// The tool's name at the upstream.
    pub upstream_name: String,
    /// The definition listed to clients (the live one, renamed).
    pub definition: Value,
    /// The pinned `inputSchema`, compiled; `None` when it does not compile,
    /// in which case every call is refused (fail closed).
    pub validator: Option<Arc<jsonschema::Validator>>,
}

/// An exposed prompt.
#[derive(Debug, Clone)]
pub struct ExposedPrompt {
    /// The name clients see.
    pub public_name: String,
    /// The upstream server's name.
    pub server: String,
    /// The prompt's name at the upstream.
    pub upstream_name: String,
    /// The definition listed to clients.
    pub definition: Value,
    /// The declared arguments: name and whether required.
    pub arguments: Vec<(String, bool)>,
}

/// An exposed resource (resources keep their URI: it is their identity).
#[derive(Debug, Clone)]
pub struct ExposedResource {
    /// The URI.
    pub uri: String,
    /// The upstream server's name.
    pub server: String,
    /// The definition listed to clients.
    pub definition: Value,
}

/// A capability whose live definition no longer matches its pin.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Drift {
    /// The server's name.
    pub server: String,
    /// The approved version.
    pub version: String,
    /// What kind of capability.
    pub kind: &'static str,
    /// Its name (a URI for a resource).
    pub name: String,
    /// The pin.
    pub expected: String,
    /// The live hash.
    pub found: String,
}

/// Everything one audience's clients see.
#[derive(Debug, Clone, Default)]
pub struct Catalog {
    /// Tools in public-name order.
    pub tools: Vec<ExposedTool>,
    /// Prompts in public-name order.
    pub prompts: Vec<ExposedPrompt>,
    /// Resources in URI order.
    pub resources: Vec<ExposedResource>,
    tool_index: HashMap<String, usize>,
    prompt_index: HashMap<String, usize>,
    resource_index: HashMap<String, usize>,
    /// What drifted from its pin in the lists this catalog was built from.
    pub drift: Vec<Drift>,
}

impl Catalog {
    /// The exposed tool called `name`.
    pub fn tool(&self, name: &str) -> Option<&ExposedTool> {
        self.tool_index.get(name).map(|&i| &self.tools[i])
    }

    /// The exposed prompt called `name`.
    pub fn prompt(&self, name: &str) -> Option<&ExposedPrompt> {
        self.prompt_index.get(name).map(|&i| &self.prompts[i])
    }

    /// The exposed resource at `uri`.
    pub fn resource(&self, uri: &str) -> Option<&ExposedResource> {
        self.resource_index.get(uri).map(|&i| &self.resources[i])
    }

    /// A fingerprint of each list (public name and pin of every item), to
    /// tell whether a rebuild changed what clients see.
    pub fn fingerprint(&self) -> [String; 3] {
        let tools: Vec<String> = self
            .tools
            .iter()
            .map(|t| format!("{}={}", t.public_name, t.definition))
            .collect();
        let prompts: Vec<String> = self
            .prompts
            .iter()
            .map(|p| format!("{}={}", p.public_name, p.definition))
            .collect();
        let resources: Vec<String> = self
            .resources
            .iter()
            .map(|r| format!("{}={}", r.uri, r.definition))
            .collect();
        [tools.join("\n"), prompts.join("\n"), resources.join("\n")]
    }
}

/// The last segment of a reverse-DNS server name: `com.example/weather` → `weather`.
pub fn short_name(server: &str) -> &str {
    server.rsplit('/').next().unwrap_or(server)
}

/// Public names for the pinned names of every entry (`(server, name)` → public
/// name): a name stays bare when one server alone pins it, and becomes
/// `<last segment of the server name>__<name>` when several do. Should two
/// colliding servers share their last segment too, the whole server name with
/// every character outside `[A-Za-z0-9_-]` made `_` is the prefix. Only the
/// allowlist decides, so the mapping is stable across restarts.
pub fn public_names<'a>(
    pinned: impl Iterator<Item = (&'a str, &'a str)>,
) -> HashMap<(String, String), String> {
    let mut by_name: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (server, name) in pinned {
        let servers = by_name.entry(name).or_default();
        if !servers.contains(&server) {
            servers.push(server);
        }
    }
    let mut names = HashMap::new();
    for (name, servers) in by_name {
        if servers.len() == 1 {
            names.insert((servers[0].to_string(), name.to_string()), name.to_string());
            continue;
        }
        let short_clash = |server: &str| {
            servers
                .iter()
                .filter(|other| short_name(other) == short_name(server))
                .count()
                > 1
        };
        for server in &servers {
            let prefix = if short_clash(server) {
                server
                    .chars()
                    .map(|c| {
                        if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                            c
                        } else {
                            '_'
                        }
                    })
                    .collect()
            } else {
                short_name(server).to_string()
            };
            names.insert(
                (server.to_string(), name.to_string()),
                format!("{prefix}{PREFIX_SEPARATOR}{name}"),
            );
        }
    }
    names
}

/// One upstream's live lists, as far as they are known.
pub struct Live<'a> {
    /// The allowlist entry.
    pub entry: &'a ServerEntry,
    /// The last crawl, `None` when the upstream is unavailable (then nothing of it is exposed).
    pub snapshot: Option<&'a Snapshot>,
}

/// Builds the catalog: per entry, the live tools, prompts and resources whose
/// hash equals their pin, under their public names; everything else is left
/// out, and a pinned capability whose live hash differs is recorded as drift.
pub fn build(live: &[Live<'_>]) -> Catalog {
    let tool_names = public_names(live.iter().flat_map(|l| {
        l.entry
            .tools
            .pins
            .iter()
            .map(move |p| (l.entry.name.as_str(), p.name.as_str()))
    }));
    let prompt_names = public_names(live.iter().flat_map(|l| {
        l.entry
            .prompts
            .pins
            .iter()
            .map(move |p| (l.entry.name.as_str(), p.name.as_str()))
    }));
    let mut catalog = Catalog::default();
    for upstream in live {
        let Some(snapshot) = upstream.snapshot else {
            continue;
        };
        let entry = upstream.entry;
        add_tools(&mut catalog, entry, &snapshot.tools, &tool_names);
        add_prompts(&mut catalog, entry, &snapshot.prompts, &prompt_names);
        add_resources(&mut catalog, entry, &snapshot.resources);
    }
    catalog
        .tools
        .sort_by(|a, b| a.public_name.cmp(&b.public_name));
    catalog
        .prompts
        .sort_by(|a, b| a.public_name.cmp(&b.public_name));
    catalog.resources.sort_by(|a, b| a.uri.cmp(&b.uri));
    catalog.tool_index = index(catalog.tools.iter().map(|t| t.public_name.clone()));
    catalog.prompt_index = index(catalog.prompts.iter().map(|p| p.public_name.clone()));
    catalog.resource_index = index(catalog.resources.iter().map(|r| r.uri.clone()));
    catalog.drift.sort();
    catalog
}

fn index(keys: impl Iterator<Item = String>) -> HashMap<String, usize> {
    keys.enumerate().map(|(i, k)| (k, i)).collect()
}

fn drift(entry: &ServerEntry, kind: Kind, name: &str, expected: &str, found: String) -> Drift {
    Drift {
        server: entry.name.clone(),
        version: entry.version.clone(),
        kind: kind.as_str(),
        name: name.to_string(),
        expected: expected.to_string(),
        found,
    }
}

fn add_tools(
    catalog: &mut Catalog,
    entry: &ServerEntry,
    live: &[Tool],
    names: &HashMap<(String, String), String>,
) {
    for pin in &entry.tools.pins {
        // A server listing the same name twice is ambiguous: which one would a
        // call reach? Neither is exposed.
        let mut matching = live.iter().filter(|t| t.name == pin.name);
        let (Some(tool), None) = (matching.next(), matching.next()) else {
            continue;
        };
        let found = pin_tool(tool);
        if found != pin.sha256 {
            catalog
                .drift
                .push(drift(entry, Kind::Tool, &pin.name, &pin.sha256, found));
            continue;
        }
        let Some(public_name) = names.get(&(entry.name.clone(), pin.name.clone())) else {
            continue;
        };
        let mut definition = serde_json::to_value(tool).unwrap_or_default();
        definition["name"] = Value::String(public_name.clone());
        let schema = tool
            .input_schema
            .clone()
            .unwrap_or_else(|| serde_json::json!({"type": "object"}));
        let validator = jsonschema::validator_for(&schema).ok().map(Arc::new);
        catalog.tools.push(ExposedTool {
            public_name: public_name.clone(),
            server: entry.name.clone(),
            upstream_name: tool.name.clone(),
            definition,
            validator,
        });
    }
}

fn add_prompts(
    catalog: &mut Catalog,
    entry: &ServerEntry,
    live: &[Prompt],
    names: &HashMap<(String, String), String>,
) {
    for pin in &entry.prompts.pins {
        let mut matching = live.iter().filter(|p| p.name == pin.name);
        let (Some(prompt), None) = (matching.next(), matching.next()) else {
            continue;
        };
        let found = pin_prompt(prompt);
        if found != pin.sha256 {
            catalog
                .drift
                .push(drift(entry, Kind::Prompt, &pin.name, &pin.sha256, found));
            continue;
        }
        let Some(public_name) = names.get(&(entry.name.clone(), pin.name.clone())) else {
            continue;
        };
        let mut definition = serde_json::to_value(prompt).unwrap_or_default();
        definition["name"] = Value::String(public_name.clone());
        let arguments = prompt
            .arguments
            .iter()
            .flatten()
            .map(|a| (a.name.clone(), a.required.unwrap_or(false)))
            .collect();
        catalog.prompts.push(ExposedPrompt {
            public_name: public_name.clone(),
            server: entry.name.clone(),
            upstream_name: prompt.name.clone(),
            definition,
            arguments,
        });
    }
}

fn add_resources(catalog: &mut Catalog, entry: &ServerEntry, live: &[Resource]) {
    for pin in &entry.resources.pins {
        let mut matching = live.iter().filter(|r| r.uri == pin.uri);
        let (Some(resource), None) = (matching.next(), matching.next()) else {
            continue;
        };
        let found = pin_resource(resource);
        if found != pin.sha256 {
            catalog
                .drift
                .push(drift(entry, Kind::Resource, &pin.uri, &pin.sha256, found));
            continue;
        }
        // A URI is global: two servers offering the same one cannot both be
        // reached under it, so the second (in allowlist order) is left out.
        if catalog.resources.iter().any(|r| r.uri == resource.uri) {
            continue;
        }
        catalog.resources.push(ExposedResource {
            uri: resource.uri.clone(),
            server: entry.name.clone(),
            definition: serde_json::to_value(resource).unwrap_or_default(),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_one_server_pins_stays_bare_and_a_shared_one_gets_the_short_prefix() {
        let pinned = [
            ("com.example/alpha", "search"),
            ("com.example/alpha", "fetch"),
            ("org.other/beta", "search"),
        ];

        let names = public_names(pinned.iter().copied());

        let name = |s: &str, t: &str| names[&(s.to_string(), t.to_string())].clone();
        assert_eq!(name("com.example/alpha", "fetch"), "fetch");
        assert_eq!(name("com.example/alpha", "search"), "alpha__search");
        assert_eq!(name("org.other/beta", "search"), "beta__search");
    }

    #[test]
    fn servers_sharing_a_last_segment_are_told_apart_by_their_whole_name() {
        let pinned = [("com.a/tools", "run"), ("com.b/tools", "run")];

        let names = public_names(pinned.iter().copied());

        assert_eq!(
            names[&("com.a/tools".to_string(), "run".to_string())],
            "com_a_tools__run"
        );
        assert_eq!(
            names[&("com.b/tools".to_string(), "run".to_string())],
            "com_b_tools__run"
        );
    }

    #[test]
    fn the_mapping_does_not_depend_on_the_order_of_the_allowlist() {
        let forward = [("com.a/x", "search"), ("com.b/y", "search")];
        let backward = [("com.b/y", "search"), ("com.a/x", "search")];

        assert_eq!(
            public_names(forward.iter().copied()),
            public_names(backward.iter().copied())
        );
    }
}
