//! The rules, grouped by what they look at: `text` (phrases in prose, per
//! field), `hidden` (invisible and encoded content), `names` (impersonation,
//! naming quality, conflicts), `schema`, `bloat`, `protocol` and
//! `annotations`. Every rule reports through a [`Sink`], which applies the
//! configuration (disabled rules, severity overrides) and keeps one finding
//! per rule × target × field.

pub mod annotations;
pub mod bloat;
pub mod hidden;
pub mod names;
pub mod protocol;
pub mod schema;
pub mod text;

use std::collections::{HashMap, HashSet};

use super::catalogue;
use super::config::RulesConfig;
use super::report::{Category, Finding, Severity};
use crate::snapshot::{Snapshot, Target};

/// Collects findings, applying configuration and de-duplicating.
pub struct Sink<'c> {
    config: &'c RulesConfig,
    findings: Vec<Finding>,
    index: HashMap<(String, Target, String), usize>,
    reports: usize,
}

impl<'c> Sink<'c> {
    /// An empty sink for one analysis.
    pub fn new(config: &'c RulesConfig) -> Sink<'c> {
        Sink {
            config,
            findings: Vec::new(),
            index: HashMap::new(),
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
        let category = match catalogue::rule(rule) {
            Some(r) => r.category,
            None => match self.config.extra.iter().find(|e| e.id == rule) {
                Some(e) => e.category,
                None => return,
            },
        };
        self.add_with_category(rule, category, severity, target, field, message, evidence);
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
        self.reports += 1;
        if !self.config.enabled(rule) {
            return;
        }
        let severity = self.config.severity_for(rule, severity);
        let finding = Finding {
            rule: rule.to_string(),
            category,
            severity,
            target: target.clone(),
            field: field.to_string(),
            message,
            evidence,
        };
        let key = (rule.to_string(), target.clone(), field.to_string());
        match self.index.get(&key) {
            Some(&i) if self.findings[i].severity >= severity => {}
            Some(&i) => self.findings[i] = finding,
            None => {
                self.index.insert(key, self.findings.len());
                self.findings.push(finding);
            }
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

/// What the text rules need to know about the server as a whole.
#[derive(Debug, Default)]
pub struct Names {
    /// The server's own tool, prompt and resource names, lower-cased.
    pub own_capabilities: HashSet<String>,
    /// Every identifier the server itself defines (capability names, property
    /// names, enum values), lower-cased: a reference to one of these is not a
    /// reference to a foreign tool.
    pub own_words: HashSet<String>,
    /// `serverInfo.name`, lower-cased.
    pub server_name: String,
    /// Tools of approved servers, lower-cased name → server.
    pub approved_tools: HashMap<String, String>,
}

impl Names {
    /// Gathers the names of a snapshot and the approved servers' tools.
    pub fn of(snapshot: &Snapshot, approved_tools: &[(String, String)]) -> Names {
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
            ..Names::default()
        };
        let caps = snapshot
            .tools
            .iter()
            .map(|t| &t.name)
            .chain(snapshot.prompts.iter().map(|p| &p.name))
            .chain(snapshot.resources.iter().map(|r| &r.name))
            .chain(snapshot.resource_templates.iter().map(|r| &r.name));
        for name in caps {
            n.own_capabilities.insert(name.to_lowercase());
            n.own_words.insert(name.to_lowercase());
        }
        for tool in &snapshot.tools {
            for schema in [&tool.input_schema, &tool.output_schema]
                .into_iter()
                .flatten()
            {
                collect_words(schema, &mut n.own_words, 0);
            }
        }
        for p in &snapshot.prompts {
            for a in p.arguments.iter().flatten() {
                n.own_words.insert(a.name.to_lowercase());
            }
        }
        n
    }

    /// Whether `ident` (lower-case) names something this server defines.
    pub fn is_own(&self, ident: &str) -> bool {
        let bare = ident.rsplit(['.', '/']).next().unwrap_or(ident);
        self.own_words.contains(ident) || self.own_words.contains(bare)
    }
}

/// Property names and enum values of a schema, lower-cased.
fn collect_words(v: &serde_json::Value, out: &mut HashSet<String>, depth: usize) {
    if depth > 64 {
        return;
    }
    match v {
        serde_json::Value::Object(map) => {
            for (k, item) in map {
                out.insert(k.to_lowercase());
                collect_words(item, out, depth + 1);
            }
        }
        serde_json::Value::Array(items) => {
            for item in items {
                collect_words(item, out, depth + 1);
            }
        }
        serde_json::Value::String(s) if s.len() <= 128 && !s.contains(' ') => {
            out.insert(s.to_lowercase());
        }
        _ => {}
    }
}
