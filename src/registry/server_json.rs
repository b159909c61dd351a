//! `server.json` validation: the official JSON Schema (vendored in `schemas/`)
//! plus the registry's own rules (namespaces, versions, remote URLs).

use std::net::IpAddr;
use std::sync::LazyLock;

use serde::Serialize;
use serde_json::Value;

use super::versioning;
use crate::discovery::NetPolicy;

/// The official server.json schema, 2025-12-11 (see `schemas/README.md`).
pub const SERVER_SCHEMA: &str = include_str!("../../schemas/server.schema.json");

static VALIDATOR: LazyLock<jsonschema::Validator> = LazyLock::new(|| {
    let schema: Value = serde_json::from_str(SERVER_SCHEMA).expect("the vendored schema is JSON");
    jsonschema::validator_for(&schema).expect("the vendored schema compiles")
});

/// One problem with one field of the submitted document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FieldError {
    /// JSON Pointer of the offending value (`/remotes/0/url`), `""` for the document.
    pub pointer: String,
    /// What is wrong.
    pub detail: String,
}

impl FieldError {
    fn new(pointer: impl Into<String>, detail: impl Into<String>) -> Self {
        FieldError {
            pointer: pointer.into(),
            detail: detail.into(),
        }
    }
}

/// Validates a document against the official schema; returns every violation (at most 50).
pub fn schema_errors(doc: &Value) -> Vec<FieldError> {
    VALIDATOR
        .iter_errors(doc)
        .take(50)
        .map(|e| {
            let mut detail = e.to_string();
            // Messages quote the offending value; a hostile value can be huge.
            if detail.len() > 300 {
                let mut cut = 300;
                while !detail.is_char_boundary(cut) {
                    cut -= 1;
                }
                detail.truncate(cut);
                detail.push('…');
            }
            FieldError::new(e.instance_path().as_str(), detail)
        })
        .collect()
}

/// The namespace of a server name: the part before `/`.
pub fn namespace(name: &str) -> &str {
    name.split_once('/').map(|(ns, _)| ns).unwrap_or(name)
}

/// Whether a namespace falls under a reverse-DNS prefix (`com.example` covers
/// `com.example` and `com.example.tools`, not `com.examples`). Case-insensitive, as DNS is.
pub fn namespace_allowed(namespace: &str, prefix: &str) -> bool {
    let (ns, p) = (namespace.to_ascii_lowercase(), prefix.to_ascii_lowercase());
    ns == p
        || ns
            .strip_prefix(&p)
            .is_some_and(|rest| rest.starts_with('.'))
}

/// Whether a namespace prefix is well formed (reverse-DNS labels).
pub fn valid_prefix(prefix: &str) -> bool {
    !prefix.is_empty()
        && prefix.len() <= 200
        && prefix.split('.').all(|label| {
            !label.is_empty()
                && label.len() <= 63
                && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
                && !label.starts_with('-')
                && !label.ends_with('-')
        })
}

/// The registry's rules beyond the schema, on a schema-valid document.
pub fn registry_rule_errors(doc: &Value, net: &NetPolicy) -> Vec<FieldError> {
    let mut errors = Vec::new();
    if let Some(version) = doc.get("version").and_then(Value::as_str) {
        if let Some(problem) = versioning::version_problem(version) {
            errors.push(FieldError::new("/version", problem));
        }
    }
    if let Some(packages) = doc.get("packages").and_then(Value::as_array) {
        for (i, p) in packages.iter().enumerate() {
            if let Some(v) = p.get("version").and_then(Value::as_str) {
                if let Some(problem) = versioning::version_problem(v) {
                    errors.push(FieldError::new(
                        format!("/packages/{i}/version"),
                        format!("package {problem}"),
                    ));
                }
            }
        }
    }
    for (i, url) in remote_urls(doc).iter().enumerate() {
        if let Some(problem) = remote_url_problem(url, net) {
            errors.push(FieldError::new(format!("/remotes/{i}/url"), problem));
        }
    }
    // Links a client shows or follows: a `javascript:` or `data:` URL there runs
    // in, or renders as, whatever displays the entry (issue 11).
    let mut links: Vec<(String, &Value)> = Vec::new();
    if let Some(v) = doc.get("websiteUrl") {
        links.push(("/websiteUrl".into(), v));
    }
    if let Some(v) = doc.get("repository").and_then(|r| r.get("url")) {
        links.push(("/repository/url".into(), v));
    }
    if let Some(icons) = doc.get("icons").and_then(Value::as_array) {
        for (i, icon) in icons.iter().enumerate() {
            if let Some(v) = icon.get("src") {
                links.push((format!("/icons/{i}/src"), v));
            }
        }
    }
    for (pointer, value) in links {
        if let Some(problem) = value.as_str().and_then(|u| link_url_problem(u, net)) {
            errors.push(FieldError::new(pointer, problem));
        }
    }
    errors
}

/// Why a link (website, repository, icon) is not acceptable: it must be
/// `https`, or `http` to a loopback host when the scanner may reach private
/// addresses (local development).
fn link_url_problem(raw: &str, net: &NetPolicy) -> Option<String> {
    let Ok(url) = url::Url::parse(raw) else {
        return Some("not a valid absolute URL".into());
    };
    let loopback = match url.host() {
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        Some(url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
        None => false,
    };
    let private_allowed = net.is_allowed(IpAddr::from([127, 0, 0, 1]));
    match url.scheme() {
        "https" if url.host().is_some() => None,
        "http" if loopback && private_allowed => None,
        "http" => Some("links must use https (http only to loopback in development)".into()),
        other => Some(format!(
            "the URL scheme {:?} is not allowed here; use https",
            other.chars().take(20).collect::<String>()
        )),
    }
}

/// The remote URLs a document declares, in order.
pub fn remote_urls(doc: &Value) -> Vec<String> {
    doc.get("remotes")
        .and_then(Value::as_array)
        .map(|rs| {
            rs.iter()
                .filter_map(|r| r.get("url").and_then(Value::as_str))
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// Why a remote URL is not acceptable: it must be `https`, or `http` to a
/// loopback/private address when the scanner may reach private addresses.
fn remote_url_problem(raw: &str, net: &NetPolicy) -> Option<String> {
    let Ok(url) = url::Url::parse(raw) else {
        return Some("not a valid URL".into());
    };
    if url.username() != "" || url.password().is_some() {
        return Some("credentials in a remote URL are not allowed; use headers".into());
    }
    let host_ip: Option<IpAddr> = match url.host() {
        Some(url::Host::Ipv4(ip)) => Some(ip.into()),
        Some(url::Host::Ipv6(ip)) => Some(ip.into()),
        Some(url::Host::Domain(d)) if d.eq_ignore_ascii_case("localhost") => {
            Some(IpAddr::from([127, 0, 0, 1]))
        }
        Some(url::Host::Domain(_)) => None,
        None => return Some("the URL has no host".into()),
    };
    let private = host_ip.is_some_and(|ip| !NetPolicy::default().is_allowed(ip));
    match url.scheme() {
        "https" if private && !host_ip.is_some_and(|ip| net.is_allowed(ip)) => {
            Some("the URL points to a private or loopback address, which this registry does not scan".into())
        }
        "https" => None,
        "http" if private && host_ip.is_some_and(|ip| net.is_allowed(ip)) => None,
        "http" if private => Some(
            "plain http is allowed only to private addresses when GATEHOUSE_SCAN_ALLOW_PRIVATE permits them".into(),
        ),
        "http" => Some("remote URLs must use https".into()),
        other => Some(format!("unsupported URL scheme {other:?}; use https")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn namespaces_match_whole_labels_only() {
        assert!(namespace_allowed("com.example", "com.example"));
        assert!(namespace_allowed("com.example.tools", "com.example"));
        assert!(namespace_allowed("COM.Example", "com.example"));
        assert!(!namespace_allowed("com.examples", "com.example"));
        assert!(!namespace_allowed("com", "com.example"));
    }

    #[test]
    fn prefixes_must_be_reverse_dns() {
        assert!(valid_prefix("io.github.alice"));
        assert!(!valid_prefix("io..github"));
        assert!(!valid_prefix("io.github/alice"));
        assert!(!valid_prefix(""));
    }

    #[test]
    fn a_minimal_remote_server_is_schema_valid() {
        let doc = json!({"name": "com.example/weather", "description": "Weather", "version": "1.0.0",
            "remotes": [{"type": "streamable-http", "url": "https://mcp.example.com/mcp"}]});
        assert_eq!(schema_errors(&doc), vec![]);
        assert_eq!(registry_rule_errors(&doc, &NetPolicy::default()), vec![]);
    }

    #[test]
    fn schema_errors_point_at_the_field() {
        let doc = json!({"name": "no-slash", "description": "x".repeat(101), "version": "1.0.0"});
        let errors = schema_errors(&doc);
        assert!(errors.iter().any(|e| e.pointer == "/name"), "{errors:?}");
        assert!(
            errors.iter().any(|e| e.pointer == "/description"),
            "{errors:?}"
        );
    }

    #[test]
    fn links_must_be_https_or_loopback_http_in_development() {
        let strict = NetPolicy::default();
        let dev = NetPolicy::from_config(Some("1")).unwrap();
        let doc = |site: &str, repo: &str, icon: &str| {
            json!({"version": "1.0.0", "websiteUrl": site,
                   "repository": {"url": repo, "source": "github"},
                   "icons": [{"src": icon}]})
        };
        let pointers = |d: &Value, net: &NetPolicy| -> Vec<String> {
            registry_rule_errors(d, net)
                .into_iter()
                .map(|e| e.pointer)
                .collect()
        };
        let bad = doc(
            "javascript:alert(1)",
            "http://github.com/x/y",
            "data:image/svg+xml,<svg onload=alert(1)>",
        );
        assert_eq!(
            pointers(&bad, &dev),
            ["/websiteUrl", "/repository/url", "/icons/0/src"]
        );
        let good = doc(
            "https://example.com",
            "https://github.com/x/y",
            "https://example.com/i.png",
        );
        assert!(pointers(&good, &strict).is_empty());
        let local = doc(
            "http://127.0.0.1:8000/",
            "http://localhost/x",
            "https://example.com/i.png",
        );
        assert!(pointers(&local, &dev).is_empty());
        assert_eq!(pointers(&local, &strict).len(), 2);
    }

    #[test]
    fn http_remotes_need_a_private_host_and_permission() {
        let doc = |url: &str| json!({"version": "1.0.0", "remotes": [{"type": "sse", "url": url}]});
        let strict = NetPolicy::default();
        let open = NetPolicy::from_config(Some("1")).unwrap();
        assert_eq!(
            registry_rule_errors(&doc("http://mcp.example.com/sse"), &open).len(),
            1
        );
        assert_eq!(
            registry_rule_errors(&doc("http://127.0.0.1:9000/sse"), &strict).len(),
            1
        );
        assert_eq!(
            registry_rule_errors(&doc("http://127.0.0.1:9000/sse"), &open),
            vec![]
        );
        assert_eq!(
            registry_rule_errors(&doc("https://user:pw@mcp.example.com/"), &open).len(),
            1
        );
    }
}
