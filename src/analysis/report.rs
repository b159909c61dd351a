//! The Report contract (DESIGN.md §6): findings about one Snapshot.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::snapshot::{Snapshot, Target};

/// How much a finding matters to a client that loads these descriptions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Worth knowing; no risk.
    Info,
    /// A quality or hygiene problem.
    Low,
    /// Worth a reviewer's attention.
    Medium,
    /// Text that tries to steer the model, hide something or take data.
    High,
    /// An unmistakable attack.
    Critical,
}

impl Severity {
    /// Every severity, lowest first.
    pub const ALL: [Severity; 5] = [
        Severity::Info,
        Severity::Low,
        Severity::Medium,
        Severity::High,
        Severity::Critical,
    ];

    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Low => "low",
            Severity::Medium => "medium",
            Severity::High => "high",
            Severity::Critical => "critical",
        }
    }

    /// Parses a wire name.
    pub fn parse(s: &str) -> Option<Severity> {
        Severity::ALL.into_iter().find(|v| v.as_str() == s)
    }
}

/// The kind of problem a finding describes (DESIGN.md §6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Category {
    /// Text addressed to the model that tries to steer it.
    Injection,
    /// Instructions to hide actions from the user.
    Concealment,
    /// Channels that carry data out.
    Exfiltration,
    /// Credential and secret locations being read or passed.
    SensitiveData,
    /// Instructions about other servers' tools.
    Shadowing,
    /// Invisible or encoded text.
    HiddenContent,
    /// Look-alike names.
    Impersonation,
    /// Invalid or odd JSON Schemas.
    Schema,
    /// Too many tools or too much text.
    Bloat,
    /// Naming and description quality.
    Quality,
    /// Crawl anomalies and bounds.
    Protocol,
    /// Collisions with approved servers.
    Conflict,
}

impl Category {
    /// Every category.
    pub const ALL: [Category; 12] = [
        Category::Injection,
        Category::Concealment,
        Category::Exfiltration,
        Category::SensitiveData,
        Category::Shadowing,
        Category::HiddenContent,
        Category::Impersonation,
        Category::Schema,
        Category::Bloat,
        Category::Quality,
        Category::Protocol,
        Category::Conflict,
    ];

    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Category::Injection => "injection",
            Category::Concealment => "concealment",
            Category::Exfiltration => "exfiltration",
            Category::SensitiveData => "sensitive-data",
            Category::Shadowing => "shadowing",
            Category::HiddenContent => "hidden-content",
            Category::Impersonation => "impersonation",
            Category::Schema => "schema",
            Category::Bloat => "bloat",
            Category::Quality => "quality",
            Category::Protocol => "protocol",
            Category::Conflict => "conflict",
        }
    }

    /// Parses a wire name.
    pub fn parse(s: &str) -> Option<Category> {
        Category::ALL.into_iter().find(|v| v.as_str() == s)
    }
}

/// One problem found in a Snapshot.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Finding {
    /// Stable rule id, e.g. `GH-INJ-001`.
    pub rule: String,
    /// The rule's category.
    pub category: Category,
    /// Severity after configuration overrides.
    pub severity: Severity,
    /// The capability concerned.
    pub target: Target,
    /// Path inside the capability (`description`, `inputSchema.properties.x.description`, …).
    pub field: String,
    /// What is wrong, for people.
    pub message: String,
    /// The offending text, with invisible and control characters made visible.
    pub evidence: String,
}

/// Server identity as the report shows it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ReportServer {
    /// `serverInfo.name` (or the registry name when known).
    pub name: String,
    /// `serverInfo.version` (or the registry version).
    pub version: String,
}

/// Counts per severity and the maximum.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    /// The highest severity of any finding; `None` when there are none.
    pub max_severity: Option<Severity>,
    /// Findings per severity, every severity present.
    pub counts: BTreeMap<Severity, u32>,
}

impl Summary {
    /// Summarises a list of findings.
    pub fn of(findings: &[Finding]) -> Summary {
        let mut counts: BTreeMap<Severity, u32> = Severity::ALL.iter().map(|s| (*s, 0)).collect();
        for f in findings {
            *counts.entry(f.severity).or_default() += 1;
        }
        Summary {
            max_severity: findings.iter().map(|f| f.severity).max(),
            counts,
        }
    }
}

/// The result of analysing one Snapshot (`gatehouse scan --format json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// Which server this is about.
    pub server: ReportServer,
    /// Counts and maximum severity.
    pub summary: Summary,
    /// Every finding, most severe first.
    pub findings: Vec<Finding>,
    /// The analysed snapshot, when the caller asked for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub snapshot: Option<Snapshot>,
}

impl Report {
    /// Builds a report, ordering findings most severe first (stable within a severity).
    pub fn new(server: ReportServer, mut findings: Vec<Finding>) -> Report {
        findings.sort_by_key(|f| std::cmp::Reverse(f.severity));
        Report {
            server,
            summary: Summary::of(&findings),
            findings,
            snapshot: None,
        }
    }
}
