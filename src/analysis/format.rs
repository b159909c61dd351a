//! Report renderings: text for people, SARIF 2.1.0 for code-scanning tools.
//!
//! Everything printed that came from a server (names, messages, evidence) is
//! passed through [`visible`] once more, so that no escape sequence or
//! invisible character a server sent can reach a terminal or a viewer.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde_json::{Value, json};

use super::catalogue::catalogue;
use super::normalize::visible;
use super::report::{Finding, Report, Severity};

/// ANSI colour per severity, for terminals.
fn colour(s: Severity) -> &'static str {
    match s {
        Severity::Critical => "\x1b[1;35m",
        Severity::High => "\x1b[1;31m",
        Severity::Medium => "\x1b[33m",
        Severity::Low => "\x1b[36m",
        Severity::Info => "\x1b[2m",
    }
}

const RESET: &str = "\x1b[0m";

/// `kind:name`, or `server` for the server itself.
fn target_label(f: &Finding) -> String {
    if f.target.name.is_empty() {
        f.target.kind.as_str().to_string()
    } else {
        format!("{}:{}", f.target.kind.as_str(), visible(&f.target.name))
    }
}

/// Renders a report for a terminal (`color` adds ANSI colours).
pub fn text(report: &Report, color: bool) -> String {
    let mut out = String::new();
    let max = report.summary.max_severity.map_or("none", |s| s.as_str());
    let counts: Vec<String> = Severity::ALL
        .iter()
        .rev()
        .map(|s| {
            format!(
                "{} {}",
                report.summary.counts.get(s).copied().unwrap_or(0),
                s.as_str()
            )
        })
        .collect();
    let _ = writeln!(
        out,
        "{} {} — {} findings, max severity {} ({})",
        visible(&report.server.name),
        visible(&report.server.version),
        report.findings.len(),
        max,
        counts.join(", ")
    );
    for f in &report.findings {
        let sev = format!("{:<8}", f.severity.as_str().to_uppercase());
        let sev = if color {
            format!("{}{sev}{RESET}", colour(f.severity))
        } else {
            sev
        };
        let _ = writeln!(
            out,
            "\n{sev} {} [{}] {} · {}",
            f.rule,
            f.category.as_str(),
            target_label(f),
            visible(&f.field)
        );
        let _ = writeln!(out, "         {}", visible(&f.message));
        if !f.evidence.is_empty() {
            let _ = writeln!(out, "         evidence: {}", visible(&f.evidence));
        }
    }
    out
}

/// SARIF `level` for a severity.
fn level(s: Severity) -> &'static str {
    match s {
        Severity::Critical | Severity::High => "error",
        Severity::Medium => "warning",
        Severity::Low | Severity::Info => "note",
    }
}

/// GitHub code scanning's numeric `security-severity` for a severity.
fn security_severity(s: Severity) -> &'static str {
    match s {
        Severity::Critical => "9.5",
        Severity::High => "8.0",
        Severity::Medium => "5.0",
        Severity::Low => "2.0",
        Severity::Info => "0.0",
    }
}

/// SARIF logical-location kind for a capability kind.
fn location_kind(kind: crate::snapshot::TargetKind) -> &'static str {
    use crate::snapshot::TargetKind as K;
    match kind {
        K::Server => "module",
        K::Tool => "function",
        K::Resource | K::ResourceTemplate => "resource",
        K::Prompt => "object",
    }
}

/// Renders a report as a SARIF 2.1.0 log: one run, the rule catalogue as the
/// driver's rules, one result per finding whose logical locations name the
/// capability and the field.
pub fn sarif(report: &Report) -> Value {
    let mut rules: Vec<Value> = Vec::new();
    let mut index: BTreeMap<String, usize> = BTreeMap::new();
    for r in catalogue() {
        index.insert(r.id.to_string(), rules.len());
        rules.push(json!({
            "id": r.id,
            "name": r.title,
            "shortDescription": {"text": r.title},
            "fullDescription": {"text": r.rationale},
            "help": {"text": format!("{}\nExample: {}", r.rationale, r.example)},
            "defaultConfiguration": {"level": level(r.severity)},
            "properties": {
                "category": r.category.as_str(),
                "severity": r.severity.as_str(),
                "security-severity": security_severity(r.severity),
                "tags": ["security", "mcp", r.category.as_str()],
            },
        }));
    }
    // Rules from a configuration file are not in the catalogue; describe them from their findings.
    for f in &report.findings {
        if !index.contains_key(&f.rule) {
            index.insert(f.rule.clone(), rules.len());
            rules.push(json!({
                "id": f.rule,
                "shortDescription": {"text": visible(&f.message)},
                "defaultConfiguration": {"level": level(f.severity)},
                "properties": {"category": f.category.as_str(), "severity": f.severity.as_str(), "tags": ["custom", f.category.as_str()]},
            }));
        }
    }
    let results: Vec<Value> = report
        .findings
        .iter()
        .map(|f| {
            let capability = if f.target.name.is_empty() { "server".to_string() } else { visible(&f.target.name) };
            let qualified = format!("{}:{}", f.target.kind.as_str(), capability);
            json!({
                "ruleId": f.rule,
                "ruleIndex": index[&f.rule],
                "level": level(f.severity),
                "message": {"text": format!("{} — {}", visible(&f.message), visible(&f.evidence))},
                "locations": [{
                    "logicalLocations": [
                        {"name": capability, "fullyQualifiedName": qualified, "kind": location_kind(f.target.kind)},
                        {"name": visible(&f.field), "fullyQualifiedName": format!("{qualified}/{}", visible(&f.field)), "kind": "member"},
                    ],
                }],
                "partialFingerprints": {"gatehouse/v1": format!("{}|{}|{}", f.rule, qualified, visible(&f.field))},
                "properties": {
                    "severity": f.severity.as_str(),
                    "security-severity": security_severity(f.severity),
                    "category": f.category.as_str(),
                    "target": {"kind": f.target.kind.as_str(), "name": f.target.name},
                    "field": f.field,
                    "evidence": f.evidence,
                },
            })
        })
        .collect();
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "gatehouse",
                "version": env!("CARGO_PKG_VERSION"),
                "informationUri": "https://modelcontextprotocol.io/",
                "rules": rules,
            }},
            "results": results,
            "properties": {
                "server": {"name": report.server.name, "version": report.server.version},
                "maxSeverity": report.summary.max_severity.map(|s| s.as_str()),
            },
        }],
    })
}
