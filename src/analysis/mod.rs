//! Capability analysis: rules over a Snapshot → Report (pure; no I/O).

pub mod format;
pub mod report;

pub use report::{Category, Finding, Report, ReportServer, Severity, Summary};

use std::path::Path;

use crate::snapshot::Snapshot;

/// What the analysis knows beyond the snapshot: already-approved servers.
#[derive(Debug, Clone, Default)]
pub struct Context {
    /// Tool names of approved servers, each with the name of the server that owns it.
    pub approved_tools: Vec<(String, String)>,
    /// Names of approved servers.
    pub approved_servers: Vec<String>,
}

/// Analysis configuration: thresholds, severity overrides, disabled and extra rules (a TOML file).
#[derive(Debug, Clone, Default)]
pub struct RulesConfig {}

impl RulesConfig {
    /// Reads and validates a TOML rules file.
    pub fn load(path: &Path) -> Result<RulesConfig, String> {
        let _ = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
        Ok(RulesConfig::default())
    }
}

/// A rule of the catalogue.
#[derive(Debug, Clone)]
pub struct RuleInfo {
    /// Stable id, e.g. `GH-INJ-001`.
    pub id: &'static str,
    /// Category of its findings.
    pub category: Category,
    /// Default severity.
    pub severity: Severity,
    /// One-line title.
    pub title: &'static str,
    /// Why the rule exists.
    pub rationale: &'static str,
    /// An example of text it flags.
    pub example: &'static str,
}

/// Every rule, in id order.
pub fn catalogue() -> &'static [RuleInfo] {
    &[]
}

/// Analyses a snapshot. (Rules land with the analysis issue.)
pub fn analyze(snapshot: &Snapshot, _ctx: &Context, _rules: &RulesConfig) -> Report {
    let server = snapshot
        .server_info
        .as_ref()
        .map(|i| ReportServer {
            name: i.name.clone(),
            version: i.version.clone(),
        })
        .unwrap_or_default();
    Report::new(server, Vec::new())
}
