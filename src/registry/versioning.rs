//! Version strings: what the registry accepts, and which version is "latest".
//!
//! Mirrors the official MCP Registry's rules: a version must be a specific
//! version (not `latest`, not a range such as `^1.2`, `>=1.0`, `1.x`), and the
//! latest version of a server is decided by semantic-version order when both
//! versions are valid semver; a semver version beats a non-semver one; two
//! non-semver versions are ordered by publication time.

use std::cmp::Ordering;

/// Longest version string accepted (the official schema's `maxLength`).
pub const MAX_VERSION_LEN: usize = 255;

/// Why a version string is refused.
///
/// Beyond the official registry's rules, a version must look like exactly
/// what it is: `"1.0.0 "` or `"1.0.0\u{200B}"` beside `1.0.0` would show as the
/// same version in the UI, the audit log and `verify` (issue 11), so
/// whitespace, control and invisible characters are refused anywhere in it.
pub fn version_problem(version: &str) -> Option<&'static str> {
    if version.len() > MAX_VERSION_LEN {
        return Some("the version is longer than 255 bytes");
    }
    if version.trim() != version {
        return Some("the version has leading or trailing whitespace");
    }
    if version.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Some("the version contains whitespace or a control character");
    }
    if version.chars().any(is_invisible) {
        return Some("the version contains an invisible character");
    }
    let v = version;
    if v.is_empty() {
        return Some("the version is empty");
    }
    if v.eq_ignore_ascii_case("latest") {
        return Some("\"latest\" is reserved; publish a specific version");
    }
    if looks_like_range(v) {
        return Some("a version range is not a version; publish a specific version such as 1.2.3");
    }
    None
}

/// Characters that render as nothing (or change how neighbours render):
/// format characters such as zero-width spaces and joiners, bidirectional
/// controls, the byte-order mark, soft hyphens, variation selectors, fillers and tags.
fn is_invisible(c: char) -> bool {
    matches!(c as u32,
        0x00AD | 0x034F | 0x061C | 0x115F | 0x1160 | 0x17B4 | 0x17B5 | 0x180B..=0x180F
        | 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x206F | 0x3164 | 0xFE00..=0xFE0F
        | 0xFEFF | 0xFFA0 | 0xFFF0..=0xFFFB | 0x1BCA0..=0x1BCA3 | 0x1D173..=0x1D17A
        | 0xE0000..=0xE0FFF)
}

/// Whether a string is a version range rather than one version.
fn looks_like_range(v: &str) -> bool {
    if v.starts_with(['^', '~', '>', '<', '=']) || v.contains("||") || v.contains(" - ") || v == "*"
    {
        return true;
    }
    // Wildcard components: 1.x, 1.2.*, 1.X
    let core = v.split(['-', '+']).next().unwrap_or(v);
    core.split('.').any(|part| matches!(part, "x" | "X" | "*"))
}

/// Parses a version the way the official registry compares them (a leading `v` is allowed).
fn parse_semver(v: &str) -> Option<semver::Version> {
    semver::Version::parse(v.strip_prefix('v').unwrap_or(v)).ok()
}

/// Compares two published versions: semver order when both are semver, semver
/// above non-semver, otherwise by publication time (RFC 3339 text compares as time).
pub fn compare(a: &str, a_published: &str, b: &str, b_published: &str) -> Ordering {
    match (parse_semver(a), parse_semver(b)) {
        (Some(x), Some(y)) => x.cmp(&y).then_with(|| a_published.cmp(b_published)),
        (Some(_), None) => Ordering::Greater,
        (None, Some(_)) => Ordering::Less,
        (None, None) => a_published.cmp(b_published),
    }
}

/// Index of the latest version among `(version, published_at)` pairs.
pub fn latest_index(versions: &[(String, String)]) -> Option<usize> {
    (0..versions.len()).max_by(|&i, &j| {
        compare(
            &versions[i].0,
            &versions[i].1,
            &versions[j].0,
            &versions[j].1,
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latest_and_ranges_are_refused() {
        for bad in [
            "latest",
            "LATEST",
            "^1.2.0",
            "~1.2",
            ">=1.0.0",
            "1.x",
            "1.2.*",
            "1.0.0 - 2.0.0",
            "1 || 2",
            "*",
            "",
        ] {
            assert!(version_problem(bad).is_some(), "{bad} should be refused");
        }
        for good in [
            "1.0.0",
            "2.0.0-beta.1",
            "1.0.0+build.5",
            "2024.06.01",
            "v1.2.3",
            "0.1",
        ] {
            assert_eq!(version_problem(good), None, "{good} should be accepted");
        }
    }

    #[test]
    fn look_alike_versions_are_refused() {
        for bad in [
            "1.0.0 ",
            " 1.0.0",
            "1.0.0\n",
            "1.0 .0",
            "1.0.0\u{200B}",
            "1.0.0\u{FEFF}",
            "1.0.0\u{202E}",
            "1.0.0\u{0007}",
        ] {
            assert!(version_problem(bad).is_some(), "{bad:?} should be refused");
        }
        assert!(version_problem(&"1".repeat(256)).is_some());
        assert_eq!(version_problem(&"1".repeat(255)), None);
    }

    #[test]
    fn semver_order_decides_latest_including_prereleases() {
        let t = "2026-01-01T00:00:00.000000Z";
        let vs: Vec<(String, String)> = ["1.10.0", "2.0.0-beta.1", "1.0.0", "1.9.0"]
            .iter()
            .map(|v| (v.to_string(), t.to_string()))
            .collect();
        assert_eq!(vs[latest_index(&vs).unwrap()].0, "2.0.0-beta.1");
        let without_beta = vs
            .iter()
            .filter(|v| v.0 != "2.0.0-beta.1")
            .cloned()
            .collect::<Vec<_>>();
        assert_eq!(
            without_beta[latest_index(&without_beta).unwrap()].0,
            "1.10.0"
        );
    }

    #[test]
    fn non_semver_versions_fall_back_to_publication_time() {
        let vs = vec![
            (
                "2024.06".to_string(),
                "2026-01-02T00:00:00.000000Z".to_string(),
            ),
            (
                "2024.05".to_string(),
                "2026-01-03T00:00:00.000000Z".to_string(),
            ),
        ];
        assert_eq!(vs[latest_index(&vs).unwrap()].0, "2024.05");
        let mixed = vec![
            vs[0].clone(),
            (
                "0.0.1".to_string(),
                "2020-01-01T00:00:00.000000Z".to_string(),
            ),
        ];
        assert_eq!(mixed[latest_index(&mixed).unwrap()].0, "0.0.1");
    }
}
