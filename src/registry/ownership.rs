//! Who runs a remote URL (issue 15). The official registry stopped checking
//! remote URLs, and whoever registered a URL first used to block its real
//! owner; here each remote gets a verification state, set by every scan,
//! shown to reviewers and carried in the allowlist entry:
//!
//! - `domain`: the remote's host is the domain of one of the publisher's
//!   reverse-DNS namespaces, or lies under it (`com.example` → `example.com`,
//!   `mcp.example.com`). Namespaces are granted to a publisher by an admin
//!   (`gatehouse publisher create --namespace`), which is the proof.
//! - `card`: the remote's origin serves a Server Card (draft SEP-2127, media
//!   type `application/mcp-server-card+json`) at `/server-card`, or names one
//!   in `/.well-known/ai-catalog.json`, whose `name` is the server's name.
//! - `challenge`: the origin serves, at [`CHALLENGE_PATH`], the token
//!   Gatehouse issued to this publisher for this origin
//!   (`POST /api/v1/publisher/challenges`).
//! - `unverified`: none of these; a `medium` finding (GH-OWN-003), and with
//!   the admin setting `require_remote_verification` no approval.
//!
//! Everything fetched is hostile and bounded: the guarded client of the
//! scanner (SSRF policy, no redirect to another origin), a timeout and a
//! byte bound per document.

use std::time::Duration;

use serde_json::Value;

use crate::discovery::{NetPolicy, fetch_document};

/// Where a publisher serves its challenge token on the remote's origin.
pub const CHALLENGE_PATH: &str = "/.well-known/gatehouse-challenge";
/// The Server Card's media type (draft SEP-2127).
pub const CARD_MEDIA_TYPE: &str = "application/mcp-server-card+json";

/// Largest document read (card, catalog, challenge file).
const MAX_DOCUMENT: usize = 64 * 1024;
/// Longest wait for one document.
const TIMEOUT: Duration = Duration::from_secs(5);
/// Most catalog entries looked at.
const MAX_CATALOG_ENTRIES: usize = 16;

/// A remote's verification state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verification {
    /// A Server Card on the origin names the server.
    Card,
    /// The publisher's challenge token is served on the origin.
    Challenge,
    /// The host lies under a namespace's domain.
    Domain,
    /// Nothing proves it.
    Unverified,
}

impl Verification {
    /// The stored and published spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Verification::Card => "card",
            Verification::Challenge => "challenge",
            Verification::Domain => "domain",
            Verification::Unverified => "unverified",
        }
    }

    /// Whether ownership is proven.
    pub fn verified(self) -> bool {
        self != Verification::Unverified
    }
}

/// `scheme://host[:port]` of a URL, the unit challenge tokens are issued for.
pub fn origin_of(url: &str) -> Option<String> {
    let parsed = url::Url::parse(url).ok()?;
    if !matches!(parsed.scheme(), "http" | "https") || parsed.host_str().is_none() {
        return None;
    }
    Some(parsed.origin().ascii_serialization())
}

/// The DNS domain of a reverse-DNS namespace (`com.example` → `example.com`);
/// `None` for a single label, which names no registrable domain.
pub fn domain_of(namespace: &str) -> Option<String> {
    let labels: Vec<&str> = namespace.split('.').collect();
    if labels.len() < 2 || labels.iter().any(|l| l.is_empty()) {
        return None;
    }
    Some(
        labels
            .iter()
            .rev()
            .map(|l| l.to_ascii_lowercase())
            .collect::<Vec<_>>()
            .join("."),
    )
}

/// Whether `host` is the domain of one of `namespaces` or lies under it.
pub fn host_under_namespaces(host: &str, namespaces: &[String]) -> bool {
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    namespaces
        .iter()
        .filter_map(|n| domain_of(n))
        .any(|domain| host == domain || host.ends_with(&format!(".{domain}")))
}

/// Verifies that the publisher holding `namespaces` (and, when issued, the
/// challenge `token` for the URL's origin) runs the remote `url` of the
/// server `server_name`: domain first (no network), then the Server Card,
/// then the challenge.
pub async fn verify_remote(
    url: &str,
    server_name: &str,
    namespaces: &[String],
    token: Option<&str>,
    network: &NetPolicy,
) -> Verification {
    let Ok(parsed) = url::Url::parse(url) else {
        return Verification::Unverified;
    };
    if parsed
        .host_str()
        .is_some_and(|h| host_under_namespaces(h, namespaces))
    {
        return Verification::Domain;
    }
    let Some(origin) = origin_of(url) else {
        return Verification::Unverified;
    };
    if card_names(&origin, server_name, network).await {
        return Verification::Card;
    }
    if let Some(token) = token
        && challenge_served(&origin, token, network).await
    {
        return Verification::Challenge;
    }
    Verification::Unverified
}

/// Whether the origin's Server Card (at `/server-card`, or named in
/// `/.well-known/ai-catalog.json`) has `name` equal to `server_name`.
async fn card_names(origin: &str, server_name: &str, network: &NetPolicy) -> bool {
    if card_at(&format!("{origin}/server-card"), server_name, network).await {
        return true;
    }
    let Ok(catalog) = fetch_document(
        &format!("{origin}/.well-known/ai-catalog.json"),
        "application/json",
        network,
        MAX_DOCUMENT,
        TIMEOUT,
    )
    .await
    else {
        return false;
    };
    if catalog.status != 200 {
        return false;
    }
    let Ok(value) = serde_json::from_slice::<Value>(&catalog.body) else {
        return false;
    };
    for card_url in catalog_cards(&value, origin)
        .into_iter()
        .take(MAX_CATALOG_ENTRIES)
    {
        if card_at(&card_url, server_name, network).await {
            return true;
        }
    }
    false
}

/// The Server Card URLs an AI catalog lists: entries (top-level array, or
/// under `servers`, `entries`, `items` or `cards`) whose media type is the
/// card's, by `url` or `href`, relative ones resolved against the origin.
fn catalog_cards(catalog: &Value, origin: &str) -> Vec<String> {
    let entries = match catalog {
        Value::Array(a) => Some(a),
        Value::Object(o) => ["servers", "entries", "items", "cards"]
            .iter()
            .find_map(|k| o.get(*k).and_then(Value::as_array)),
        _ => None,
    };
    let base = url::Url::parse(origin).ok();
    entries
        .into_iter()
        .flatten()
        .filter(|e| {
            ["type", "mediaType", "mimeType", "contentType"]
                .iter()
                .filter_map(|k| e.get(*k).and_then(Value::as_str))
                .any(|t| t.eq_ignore_ascii_case(CARD_MEDIA_TYPE))
        })
        .filter_map(|e| {
            let link = e.get("url").or_else(|| e.get("href"))?.as_str()?;
            base.as_ref()?.join(link).ok().map(|u| u.to_string())
        })
        .collect()
}

async fn card_at(url: &str, server_name: &str, network: &NetPolicy) -> bool {
    let Ok(card) = fetch_document(url, CARD_MEDIA_TYPE, network, MAX_DOCUMENT, TIMEOUT).await
    else {
        return false;
    };
    let media_type = card.content_type.split(';').next().unwrap_or("").trim();
    card.status == 200
        && media_type == CARD_MEDIA_TYPE
        && serde_json::from_slice::<Value>(&card.body)
            .ok()
            .and_then(|v| v.get("name").and_then(Value::as_str).map(str::to_string))
            .is_some_and(|name| name == server_name)
}

/// Whether the origin serves the token at [`CHALLENGE_PATH`] (the body, trimmed, is the token).
async fn challenge_served(origin: &str, token: &str, network: &NetPolicy) -> bool {
    let Ok(file) = fetch_document(
        &format!("{origin}{CHALLENGE_PATH}"),
        "text/plain",
        network,
        MAX_DOCUMENT,
        TIMEOUT,
    )
    .await
    else {
        return false;
    };
    file.status == 200 && std::str::from_utf8(&file.body).is_ok_and(|text| text.trim() == token)
}

/// Verifies every remote of a server.json that its server holds, records
/// each state (`server_remotes.verification`) and returns them by URL.
/// Remotes whose URL still has `{variables}` cannot be fetched and stay
/// `unverified` unless their host is under a namespace domain.
pub async fn verify_remotes(
    db: &crate::storage::Db,
    server_id: &str,
    server_name: &str,
    publisher_id: &str,
    doc: &Value,
    network: &NetPolicy,
) -> Result<Vec<(String, Verification)>, sqlx::Error> {
    let namespaces = crate::storage::accounts::publisher_by_id(db, publisher_id)
        .await?
        .map(|p| p.namespaces)
        .unwrap_or_default();
    let urls: Vec<String> = doc
        .get("remotes")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|r| r.get("url").and_then(Value::as_str).map(str::to_string))
        .take(16)
        .collect();
    let mut states = Vec::new();
    for url in urls {
        let token = match origin_of(&url) {
            Some(origin) => {
                crate::storage::ownership::issued_token(db, publisher_id, &origin).await?
            }
            None => None,
        };
        let state = if url.contains('{') {
            let host_ok = url::Url::parse(&url.replace(['{', '}'], ""))
                .ok()
                .and_then(|u| u.host_str().map(|h| host_under_namespaces(h, &namespaces)))
                .unwrap_or(false);
            if host_ok {
                Verification::Domain
            } else {
                Verification::Unverified
            }
        } else {
            verify_remote(&url, server_name, &namespaces, token.as_deref(), network).await
        };
        let mut tx = db.begin().await?;
        crate::storage::ownership::set_verification(&mut tx, server_id, &url, state.as_str())
            .await?;
        tx.commit().await?;
        states.push((url, state));
    }
    Ok(states)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_host_under_a_namespace_domain_is_verified_by_domain() {
        let ns = vec!["com.example".to_string(), "io.github.alice".to_string()];
        assert!(host_under_namespaces("example.com", &ns));
        assert!(host_under_namespaces("mcp.Example.com.", &ns));
        assert!(host_under_namespaces("alice.github.io", &ns));
        assert!(!host_under_namespaces("badexample.com", &ns));
        assert!(!host_under_namespaces("github.io", &ns));
        assert!(!host_under_namespaces("example.com.evil.test", &ns));
        assert_eq!(domain_of("com"), None);
    }

    #[test]
    fn origins_and_catalog_entries_are_read_strictly() {
        assert_eq!(
            origin_of("https://mcp.example.com:8443/mcp?x=1").as_deref(),
            Some("https://mcp.example.com:8443")
        );
        assert_eq!(origin_of("file:///etc/passwd"), None);
        let catalog = serde_json::json!({"servers": [
            {"type": "application/mcp-server-card+json", "url": "/cards/a.json"},
            {"type": "text/html", "url": "/other"},
            {"mediaType": "application/mcp-server-card+json", "href": "https://cards.example.com/b"}
        ]});
        assert_eq!(
            catalog_cards(&catalog, "https://mcp.example.com"),
            [
                "https://mcp.example.com/cards/a.json",
                "https://cards.example.com/b"
            ]
        );
    }
}
