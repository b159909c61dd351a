//! Analysis configuration: a TOML rules file with thresholds, severity
//! overrides, disabled rules and extra pattern rules.
//!
//! ```toml
//! disabled = ["GH-QLT-001"]
//!
//! [thresholds]
//! tool_count_medium = 50
//! tool_count_high = 256
//! description_tokens_medium = 10000
//!
//! [severity]
//! "GH-SEC-002" = "medium"
//!
//! [[rules]]
//! id = "ACME-001"
//! category = "exfiltration"
//! severity = "high"
//! title = "Mentions the internal paste service"
//! pattern = 'paste\.internal\.example'
//! ```
//!
//! The same file is read by `gatehouse scan --rules FILE` and by the server
//! (`--rules-file` / `GATEHOUSE_RULES`). Unknown keys and unknown rule ids are
//! errors: a typo in a security configuration must not silently do nothing.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use regex::Regex;
use serde::Deserialize;

use super::catalogue;
use super::report::{Category, Severity};

/// Numeric limits of the bloat and hidden-content rules.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Thresholds {
    /// More tools than this is a medium bloat finding.
    pub tool_count_medium: usize,
    /// More tools than this is a high bloat finding: a flood of hundreds.
    /// Honest servers reach 100–150 tools (GitLab, Linear, Postman, Azure,
    /// Telegram in `corpus/real`); their size is a cost a reviewer should see
    /// (medium), not an attack.
    pub tool_count_high: usize,
    /// More estimated description tokens than this is a medium bloat finding.
    pub description_tokens_medium: usize,
    /// More estimated description tokens than this is a high bloat finding.
    /// Azure's server declares about 55,000 tokens in its first 150 tools.
    pub description_tokens_high: usize,
    /// Description similarity (0–1) above which two tools with similar names are near-duplicates.
    pub duplicate_similarity: f64,
    /// Descriptions shorter than this many characters are "too short".
    pub description_min_chars: usize,
    /// Runs of whitespace at least this long count as padding.
    pub padding_min_chars: usize,
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds {
            tool_count_medium: 50,
            tool_count_high: 256,
            description_tokens_medium: 10_000,
            description_tokens_high: 100_000,
            duplicate_similarity: 0.6,
            description_min_chars: 12,
            padding_min_chars: 200,
        }
    }
}

/// A user-defined pattern rule from the `[[rules]]` table.
#[derive(Debug, Clone)]
pub struct ExtraRule {
    /// Its id (must not collide with a built-in rule).
    pub id: String,
    /// Category of its findings.
    pub category: Category,
    /// Severity of its findings.
    pub severity: Severity,
    /// One-line title, used as the finding's message.
    pub title: String,
    /// Compiled pattern, matched case-insensitively against normalised text.
    pub pattern: Regex,
}

/// Analysis configuration: thresholds, severity overrides, disabled and extra rules.
#[derive(Debug, Clone, Default)]
pub struct RulesConfig {
    /// Numeric limits.
    pub thresholds: Thresholds,
    /// Severity per rule id, replacing the rule's own.
    pub severity: BTreeMap<String, Severity>,
    /// Rule ids that produce no findings.
    pub disabled: BTreeSet<String>,
    /// Extra pattern rules.
    pub extra: Vec<ExtraRule>,
}

/// The file as written, before validation.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    #[serde(default)]
    thresholds: Thresholds,
    #[serde(default)]
    severity: BTreeMap<String, Severity>,
    #[serde(default)]
    disabled: Vec<String>,
    #[serde(default)]
    rules: Vec<RawExtraRule>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawExtraRule {
    id: String,
    category: Category,
    severity: Severity,
    title: String,
    pattern: String,
}

/// Upper bound on a compiled extra pattern, so a rules file cannot make the scanner slow.
const PATTERN_SIZE_LIMIT: usize = 1 << 20;

impl RulesConfig {
    /// Reads and validates a TOML rules file.
    pub fn load(path: &Path) -> Result<RulesConfig, String> {
        let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
        RulesConfig::from_toml(&text)
    }

    /// Parses and validates the text of a rules file.
    pub fn from_toml(text: &str) -> Result<RulesConfig, String> {
        let raw: RawConfig = toml::from_str(text).map_err(|e| e.to_string())?;
        let t = &raw.thresholds;
        if t.tool_count_high < t.tool_count_medium {
            return Err("thresholds.tool_count_high is below tool_count_medium".into());
        }
        if !(0.0..=1.0).contains(&t.duplicate_similarity) {
            return Err("thresholds.duplicate_similarity must be between 0 and 1".into());
        }
        let mut extra = Vec::new();
        for r in raw.rules {
            if catalogue::rule(&r.id).is_some() {
                return Err(format!("rules: id {} is a built-in rule", r.id));
            }
            if r.id.trim().is_empty() || r.title.trim().is_empty() {
                return Err("rules: id and title must not be empty".into());
            }
            if extra.iter().any(|e: &ExtraRule| e.id == r.id) {
                return Err(format!("rules: id {} is defined twice", r.id));
            }
            let pattern = regex::RegexBuilder::new(&r.pattern)
                .case_insensitive(true)
                .size_limit(PATTERN_SIZE_LIMIT)
                .build()
                .map_err(|e| format!("rules: {}: {e}", r.id))?;
            extra.push(ExtraRule {
                id: r.id,
                category: r.category,
                severity: r.severity,
                title: r.title,
                pattern,
            });
        }
        let known = |id: &str| catalogue::rule(id).is_some() || extra.iter().any(|e| e.id == id);
        for id in raw.severity.keys().chain(raw.disabled.iter()) {
            if !known(id) {
                return Err(format!("unknown rule id {id}"));
            }
        }
        Ok(RulesConfig {
            thresholds: raw.thresholds,
            severity: raw.severity,
            disabled: raw.disabled.into_iter().collect(),
            extra,
        })
    }

    /// Whether findings of this rule are wanted.
    pub fn enabled(&self, id: &str) -> bool {
        !self.disabled.contains(id)
    }

    /// The severity a finding of `id` gets: the override, or what the rule computed.
    pub fn severity_for(&self, id: &str, computed: Severity) -> Severity {
        self.severity.get(id).copied().unwrap_or(computed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_rules_file_is_read() {
        let cfg = RulesConfig::from_toml(
            r#"
            disabled = ["GH-QLT-001"]
            [thresholds]
            tool_count_medium = 10
            tool_count_high = 20
            [severity]
            "GH-SEC-002" = "medium"
            [[rules]]
            id = "ACME-001"
            category = "exfiltration"
            severity = "high"
            title = "Mentions the paste service"
            pattern = 'paste\.internal'
            "#,
        )
        .unwrap();
        assert_eq!(cfg.thresholds.tool_count_medium, 10);
        assert_eq!(cfg.thresholds.description_tokens_medium, 10_000);
        assert!(!cfg.enabled("GH-QLT-001"));
        assert_eq!(
            cfg.severity_for("GH-SEC-002", Severity::Low),
            Severity::Medium
        );
        assert_eq!(cfg.extra[0].id, "ACME-001");
    }

    #[test]
    fn an_unknown_rule_id_is_rejected() {
        let err = RulesConfig::from_toml("disabled = [\"GH-XXX-999\"]").unwrap_err();
        assert!(err.contains("GH-XXX-999"));
    }

    #[test]
    fn an_unknown_key_is_rejected() {
        assert!(RulesConfig::from_toml("[thresholds]\ntool_count = 3").is_err());
    }

    #[test]
    fn an_extra_rule_may_not_reuse_a_built_in_id() {
        let toml = r#"[[rules]]
            id = "GH-INJ-001"
            category = "injection"
            severity = "low"
            title = "x"
            pattern = "x""#;
        assert!(RulesConfig::from_toml(toml).is_err());
    }

    #[test]
    fn an_invalid_pattern_is_rejected() {
        let toml = r#"[[rules]]
            id = "X-1"
            category = "injection"
            severity = "low"
            title = "x"
            pattern = "(""#;
        assert!(RulesConfig::from_toml(toml).unwrap_err().contains("X-1"));
    }
}
