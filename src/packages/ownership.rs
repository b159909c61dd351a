//! Package ownership, checked as the official MCP Registry checks it
//! (registry docs, "Package ownership verification"): a package proves that
//! it belongs to a server by naming the server itself.
//!
//! - npm: `package.json` has `"mcpName": "<server name>"`;
//! - PyPI and NuGet: the README (the package's long description) contains
//!   `mcp-name: <server name>`, usually inside an HTML comment.
//!
//! A package that does not name the server, or names another, is a `high`
//! finding of category `impersonation` (GH-OWN-001, GH-OWN-002): anyone can
//! put someone else's package in a server.json, and approving it needs an
//! explicit override by the reviewer.

use serde_json::Value;

use super::{Installed, PackageRef, RegistryType, finding};
use crate::analysis::{Category, Finding, Severity, catalogue::ids};

/// The ownership findings of an installed package published as `server_name`.
pub fn check_package(
    package: &PackageRef,
    installed: &Installed,
    server_name: &str,
) -> Vec<Finding> {
    match package.registry {
        RegistryType::Npm => check_npm(installed.manifest.as_ref(), server_name)
            .into_iter()
            .collect(),
        RegistryType::Pypi | RegistryType::Nuget => {
            check_readme(installed.readme.as_deref(), server_name)
                .into_iter()
                .collect()
        }
        _ => Vec::new(),
    }
}

/// GH-OWN-001 unless `manifest.mcpName` equals `server_name`.
pub fn check_npm(manifest: Option<&Value>, server_name: &str) -> Option<Finding> {
    let declared = manifest.and_then(|m| m.get("mcpName"));
    if declared.and_then(Value::as_str) == Some(server_name) {
        return None;
    }
    let (message, evidence) = match declared {
        None => (
            format!(
                "The npm package's package.json has no mcpName; it does not say it belongs to {server_name}"
            ),
            String::new(),
        ),
        Some(Value::String(other)) => (
            format!(
                "The npm package's package.json names another server in mcpName, not {server_name}"
            ),
            other.clone(),
        ),
        Some(other) => (
            "The npm package's mcpName is not a string".to_string(),
            other.to_string(),
        ),
    };
    Some(finding(
        ids::OWN_NPM,
        Category::Impersonation,
        Severity::High,
        bounded(message),
        evidence,
    ))
}

/// GH-OWN-002 unless the README carries `mcp-name: <server_name>` (the name
/// ending at whitespace, a quote, `-->` or the end of the text).
pub fn check_readme(readme: Option<&str>, server_name: &str) -> Option<Finding> {
    let text = readme.unwrap_or_default();
    let needle = format!("mcp-name: {server_name}");
    let found = text.match_indices(&needle).any(|(at, _)| {
        let after = &text[at + needle.len()..];
        after.starts_with("-->")
            || after
                .chars()
                .next()
                .is_none_or(|c| c.is_whitespace() || matches!(c, '"' | '\'' | '<' | '`' | ')'))
    });
    if found {
        return None;
    }
    let other = text
        .split("mcp-name:")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .map(str::to_string);
    let message = match &other {
        Some(_) => {
            format!("The package's README names another server in mcp-name, not {server_name}")
        }
        None => format!(
            "The package's README has no mcp-name: {server_name} line; it does not say it belongs to this server"
        ),
    };
    Some(finding(
        ids::OWN_README,
        Category::Impersonation,
        Severity::High,
        bounded(message),
        other.unwrap_or_default(),
    ))
}

fn bounded(message: String) -> String {
    crate::analysis::normalize::truncate(&message, 400).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn npm_mcp_name_must_equal_the_server_name() {
        let ok = json!({"mcpName": "io.github.x/y"});
        assert!(check_npm(Some(&ok), "io.github.x/y").is_none());
        let other = check_npm(Some(&ok), "io.github.z/y").unwrap();
        assert_eq!(other.rule, "GH-OWN-001");
        assert_eq!(other.severity, Severity::High);
        assert_eq!(other.category, Category::Impersonation);
        assert_eq!(other.evidence, "io.github.x/y");
        assert!(check_npm(Some(&json!({})), "io.github.x/y").is_some());
        assert!(check_npm(None, "io.github.x/y").is_some());
    }

    #[test]
    fn the_readme_must_carry_mcp_name_exactly() {
        let readme = "# Time\n<!-- mcp-name: io.github.x/time -->\n";
        assert!(check_readme(Some(readme), "io.github.x/time").is_none());
        // A longer name does not prove a shorter one.
        for longer in [
            "mcp-name: io.github.x/timer",
            "mcp-name: io.github.x/time-2",
        ] {
            assert!(check_readme(Some(longer), "io.github.x/time").is_some());
        }
        assert!(
            check_readme(
                Some("<!--mcp-name: io.github.x/time-->"),
                "io.github.x/time"
            )
            .is_none()
        );
        let f = check_readme(Some(readme), "io.github.y/time").unwrap();
        assert_eq!(
            (f.rule.as_str(), f.evidence.as_str()),
            ("GH-OWN-002", "io.github.x/time")
        );
        assert!(check_readme(None, "io.github.x/time").is_some());
        assert!(check_readme(Some("mcp-name: io.github.x/time"), "io.github.x/time").is_none());
    }
}
