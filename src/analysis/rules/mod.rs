//! The rules, grouped by what they look at: `text` (phrases in prose, per
//! field), `hidden` (invisible and encoded content), `names` (impersonation,
//! naming quality, conflicts), `schema`, `bloat`, `protocol` and
//! `annotations`. Every rule reports through a [`Sink`], which applies the
//! configuration (disabled rules, severity overrides) and keeps one finding
//! per rule × target × field.

pub mod annotations;
pub mod bloat;
pub mod directives;
pub mod hidden;
pub mod names;
pub mod protocol;
pub mod schema;
pub mod text;

use super::FastMap;
use super::catalogue;
use super::config::RulesConfig;
use super::report::{Category, Finding, Severity};
use crate::snapshot::{Snapshot, Target};

/// Collects findings, applying configuration and de-duplicating.
pub struct Sink<'c> {
    config: &'c RulesConfig,
    findings: Vec<Finding>,
    /// Hash of (rule, target, field) → index of the first finding with that
    /// key (see [`Sink::add_with_category`] for collisions).
    index: FastMap<u64, usize>,
    keys: ahash::RandomState,
    reports: usize,
}

impl<'c> Sink<'c> {
    /// An empty sink for one analysis.
    pub fn new(config: &'c RulesConfig) -> Sink<'c> {
        Sink {
            config,
            findings: Vec::new(),
            index: FastMap::default(),
            keys: ahash::RandomState::new(),
            reports: 0,
        }
    }

    /// Reports a finding of a built-in rule. `severity` is what the rule
    /// computed (its default, or milder/harsher by context); a configured
    /// override replaces it. A second finding for the same rule, target and
    /// field is kept only if it is more severe.
    pub fn add(
        &mut self,
        rule: &str,
        severity: Severity,
        target: &Target,
        field: &str,
        message: String,
        evidence: String,
    ) {
        self.add_with(rule, severity, target, field, || (message, evidence));
    }

    /// [`Sink::add`] with the message and evidence built only if the finding
    /// is kept (not disabled, not outranked by one already reported).
    pub fn add_with(
        &mut self,
        rule: &str,
        severity: Severity,
        target: &Target,
        field: &str,
        text: impl FnOnce() -> (String, String),
    ) {
        let category = match catalogue::rule(rule) {
            Some(r) => r.category,
            None => match self.config.extra.iter().find(|e| e.id == rule) {
                Some(e) => e.category,
                None => return,
            },
        };
        self.add_lazy(rule, category, severity, target, field, text);
    }

    /// Reports a finding with an explicit category (extra rules).
    #[allow(clippy::too_many_arguments)]
    pub fn add_with_category(
        &mut self,
        rule: &str,
        category: Category,
        severity: Severity,
        target: &Target,
        field: &str,
        message: String,
        evidence: String,
    ) {
        self.add_lazy(rule, category, severity, target, field, || {
            (message, evidence)
        });
    }

    fn add_lazy(
        &mut self,
        rule: &str,
        category: Category,
        severity: Severity,
        target: &Target,
        field: &str,
        text: impl FnOnce() -> (String, String),
    ) {
        self.reports += 1;
        if !self.config.enabled(rule) {
            return;
        }
        let severity = self.config.severity_for(rule, severity);
        let (key, existing) = self.existing(rule, target, field);
        self.keep(key, existing, severity, || {
            let (message, evidence) = text();
            Finding {
                rule: rule.to_string(),
                category,
                severity,
                target: target.clone(),
                field: field.to_string(),
                message,
                evidence,
            }
        });
    }

    /// The key of (rule, target, field) and the index of the finding
    /// already kept for it, if any.
    fn existing(&self, rule: &str, target: &Target, field: &str) -> (u64, Option<usize>) {
        let same = |f: &Finding| f.rule == rule && f.target == *target && f.field == field;
        let key = self.keys.hash_one((rule, target, field));
        let existing = match self.index.get(&key) {
            Some(&i) if same(&self.findings[i]) => Some(i),
            // Two keys with one 64-bit hash: look the key up the slow way.
            Some(_) => self.findings.iter().position(same),
            None => None,
        };
        (key, existing)
    }

    /// Keeps the finding `make` builds, of `severity`, unless the one
    /// already kept at `existing` is at least as severe: in its place, or
    /// after all others.
    fn keep(
        &mut self,
        key: u64,
        existing: Option<usize>,
        severity: Severity,
        make: impl FnOnce() -> Finding,
    ) {
        if existing.is_some_and(|i| self.findings[i].severity >= severity) {
            return;
        }
        let finding = make();
        match existing {
            Some(i) => self.findings[i] = finding,
            None => {
                self.index.entry(key).or_insert(self.findings.len());
                self.findings.push(finding);
            }
        }
    }

    /// Adds the findings of another sink of the same configuration (one
    /// that read a later run of fields), as if they had been reported here:
    /// configuration is already applied, and de-duplication keeps the first
    /// of the most severe findings for each rule, target and field.
    pub fn absorb(&mut self, findings: Vec<Finding>) {
        for finding in findings {
            self.reports += 1;
            let (key, existing) = self.existing(&finding.rule, &finding.target, &finding.field);
            self.keep(key, existing, finding.severity, || finding);
        }
    }

    /// The configuration in force.
    pub fn config(&self) -> &'c RulesConfig {
        self.config
    }

    /// How many reports were made so far (including ones merged or
    /// filtered), so a caller can tell whether a step reported anything.
    pub fn reported(&self) -> usize {
        self.reports
    }

    /// Every finding, in the order reported.
    pub fn into_findings(self) -> Vec<Finding> {
        self.findings
    }
}

/// The default severity of a built-in rule.
pub fn default_severity(rule: &str) -> Severity {
    catalogue::rule(rule).map_or(Severity::Medium, |r| r.severity)
}

/// Shortest tail of a tool name that counts as the tool's name (shorter
/// tails such as `get` or `list` are ordinary words).
const MIN_MOUNTED_TAIL: usize = 6;

/// Longest tail kept: a hostile name of many thousand `_` would otherwise
/// store the square of its length.
const MAX_MOUNTED_TAIL: usize = 128;

/// What the text rules need to know about the server as a whole.
#[derive(Debug, Default)]
pub struct Names {
    /// Every identifier the server itself defines (capability names, schema
    /// keys, enum values), lower-cased: a reference to one of these is not a
    /// reference to a foreign tool.
    own_words: crate::analysis::collect::OwnWords,
    /// `serverInfo.name`, lower-cased.
    pub server_name: String,
    /// Tools of approved servers, lower-cased name → server.
    pub approved_tools: FastMap<String, String>,
    /// What the server as a whole is for (its tools' contracts together),
    /// the contract of `instructions` and other server-level text.
    pub server_contract: crate::analysis::directive::Contract,
    /// Every tail of the server's tool names (lower-cased) that follows a
    /// `_`, `-` or `.`: the names a tool goes by without the prefix its
    /// server mounts it under (`get_attachments` of `confluence_get_attachments`).
    mounted_tails: std::collections::HashSet<String, ahash::RandomState>,
    /// Each capability's contract, by name, computed once: every field of a
    /// capability is read against it.
    contracts: FastMap<String, crate::analysis::directive::Contract>,
}

/// Every tail of the snapshot's tool names (see `Names::mounted_tails`).
/// Each tail is copied once, however many names end with it, and a name
/// with no upper-case letter is not copied to be lower-cased.
fn mounted_tails(snapshot: &Snapshot) -> std::collections::HashSet<String, ahash::RandomState> {
    let mut tails = std::collections::HashSet::default();
    for t in &snapshot.tools {
        let name: std::borrow::Cow<'_, str> =
            if t.name.is_ascii() && !t.name.bytes().any(|b| b.is_ascii_uppercase()) {
                std::borrow::Cow::Borrowed(&t.name)
            } else {
                std::borrow::Cow::Owned(t.name.to_lowercase())
            };
        for (i, _) in name.match_indices(['_', '-', '.']) {
            let tail = &name[i + 1..];
            if (MIN_MOUNTED_TAIL..=MAX_MOUNTED_TAIL).contains(&tail.len()) && !tails.contains(tail)
            {
                tails.insert(tail.to_string());
            }
        }
    }
    tails
}

impl Names {
    /// Gathers the names of a snapshot and the approved servers' tools;
    /// `schema_words` are the keys and enum values of the tools' schemas,
    /// gathered by [`crate::analysis::collect::collect`] on its walk.
    pub fn of(
        snapshot: &Snapshot,
        approved_tools: &[(String, String)],
        schema_words: crate::analysis::collect::OwnWords,
    ) -> Names {
        let mut n = Names {
            server_name: snapshot
                .server_info
                .as_ref()
                .map(|i| i.name.to_lowercase())
                .unwrap_or_default(),
            approved_tools: approved_tools
                .iter()
                .map(|(t, s)| (t.to_lowercase(), s.clone()))
                .collect(),
            own_words: schema_words,
            server_contract: Default::default(),
            mounted_tails: mounted_tails(snapshot),
            contracts: FastMap::default(),
        };
        let caps = snapshot
            .tools
            .iter()
            .map(|t| &t.name)
            .chain(snapshot.prompts.iter().map(|p| &p.name))
            .chain(snapshot.resources.iter().map(|r| &r.name))
            .chain(snapshot.resource_templates.iter().map(|r| &r.name));
        for name in caps {
            n.own_words.insert(name);
            if !n.contracts.contains_key(name.as_str()) {
                let contract = crate::analysis::directive::Contract::of_name(name);
                n.contracts.insert(name.clone(), contract);
            }
        }
        // A resource whose URI is a secret file speaks of a secret.
        for r in &snapshot.resources {
            if let Some(c) = n.contracts.get_mut(r.name.as_str()) {
                c.add_uri(&r.uri);
            }
        }
        // The server covers what each tool's name covers: the union of the
        // tools' own contracts (each name split into words once, not once
        // for each).
        for t in &snapshot.tools {
            if let Some(c) = n.contracts.get(t.name.as_str()) {
                n.server_contract.covers |= c.covers;
                n.server_contract.secret_store |= c.secret_store;
            }
        }
        for p in &snapshot.prompts {
            for a in p.arguments.iter().flatten() {
                n.own_words.insert(&a.name);
            }
        }
        n
    }

    /// The contract a capability's text is read against.
    pub fn contract(&self, target: &Target) -> crate::analysis::directive::Contract {
        match target.kind {
            crate::snapshot::TargetKind::Server => self.server_contract.clone(),
            _ => match self.contracts.get(target.name.as_str()) {
                Some(contract) => contract.clone(),
                None => crate::analysis::directive::Contract::of_name(&target.name),
            },
        }
    }

    /// Whether `ident` (lower-case) names something this server defines,
    /// also under a prefix the server adds when it mounts its tools
    /// (`get_attachments` for `confluence_get_attachments`).
    pub fn is_own(&self, ident: &str) -> bool {
        let bare = ident.rsplit(['.', '/']).next().unwrap_or(ident);
        self.own_words.contains(ident)
            || self.own_words.contains(bare)
            || (bare.len() >= MIN_MOUNTED_TAIL && self.mounted_tails.contains(bare))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names_of(tools: &[&str]) -> Names {
        let snapshot: Snapshot = serde_json::from_value(serde_json::json!({
            "tools": tools.iter().map(|n| serde_json::json!({
                "name": n, "inputSchema": {"type": "object"}
            })).collect::<Vec<_>>()
        }))
        .expect("snapshot");
        Names::of(&snapshot, &[], Default::default())
    }

    #[test]
    fn a_tool_is_own_also_without_the_prefix_its_server_mounts_it_under() {
        let names = names_of(&["confluence_get_attachments", "Jira-Create_Issue"]);
        for own in [
            "confluence_get_attachments",
            "get_attachments",
            "attachments",
            "create_issue",
            "mcp/create_issue",
        ] {
            assert!(names.is_own(own), "{own}");
        }
        for foreign in ["nfluence_get_attachments", "get_attachment", "delete_issue"] {
            assert!(!names.is_own(foreign), "{foreign}");
        }
    }

    #[test]
    fn a_name_made_of_thousands_of_parts_is_indexed_in_bounded_space() {
        let hostile = "ab_".repeat(30_000);
        let names = names_of(&[&hostile]);
        assert!(names.mounted_tails.len() <= MAX_MOUNTED_TAIL);
        assert!(names.is_own(&"ab_".repeat(10)));
    }
}
