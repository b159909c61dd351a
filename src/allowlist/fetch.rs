//! Fetching what a client verifies: the allowlist envelope from a registry,
//! and every root newer than the one the client starts from
//! (`/v1/root/{n+1}.json` on the allowlist's origin, until a 404). Shared by
//! `gatehouse verify --url` and `gatehouse gateway`, so both see the registry
//! the same way; verification itself is [`super::verify_allowlist`].
//!
//! A refresh may send the last strong ETag in `If-None-Match`
//! (docs/DESIGN.md §5: the allowlist answers 304 when it is unchanged); the
//! roots are fetched every time, since a rotation does not change the
//! allowlist's bytes until it is re-signed.

use std::time::Duration;

/// Largest document accepted; a 10,000-server allowlist is far below.
pub const MAX_DOCUMENT_BYTES: usize = 256 * 1024 * 1024;
/// Per-request timeout when fetching documents.
pub const FETCH_TIMEOUT: Duration = Duration::from_secs(60);

/// Why the documents could not be fetched. Only an explicit 404 means "there
/// is no newer root"; a timeout or a 500 stops the fetch, so a registry that
/// fails cannot quietly end the root walk early.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{url}: {reason}")]
pub struct FetchError {
    /// The document's URL.
    pub url: String,
    /// What went wrong.
    pub reason: String,
}

/// What one fetch brought.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Documents {
    /// The envelope's bytes; `None` when the registry answered 304 to the ETag given.
    pub envelope: Option<Vec<u8>>,
    /// The envelope's ETag, to send next time.
    pub etag: Option<String>,
    /// Every root newer than the starting version, in order.
    pub roots: Vec<Vec<u8>>,
}

/// An HTTP client for the registry's documents, identified as `agent`.
pub fn client(agent: &str) -> Result<reqwest::Client, FetchError> {
    reqwest::Client::builder()
        .timeout(FETCH_TIMEOUT)
        .user_agent(agent)
        .build()
        .map_err(|e| FetchError {
            url: String::new(),
            reason: format!("http client: {e}"),
        })
}

/// Fetches the allowlist at `url` (with `If-None-Match: etag` when given) and
/// every root after `start_root_version` from the same origin.
pub async fn fetch_documents(
    client: &reqwest::Client,
    url: &str,
    start_root_version: u64,
    etag: Option<&str>,
) -> Result<Documents, FetchError> {
    let parsed = url::Url::parse(url).map_err(|e| FetchError {
        url: url.to_string(),
        reason: e.to_string(),
    })?;
    let origin = parsed.origin().ascii_serialization();
    let mut roots = Vec::new();
    for version in start_root_version + 1..=start_root_version + super::verify::MAX_ROOT_WALK {
        match fetch(client, &format!("{origin}/v1/root/{version}.json"), None).await? {
            Fetched::Body(bytes, _) => roots.push(bytes),
            Fetched::NotFound => break,
            Fetched::NotModified => {
                return Err(FetchError {
                    url: format!("{origin}/v1/root/{version}.json"),
                    reason: "304 to a request without If-None-Match".into(),
                });
            }
        }
    }
    match fetch(client, url, etag).await? {
        Fetched::Body(bytes, etag) => Ok(Documents {
            envelope: Some(bytes),
            etag,
            roots,
        }),
        Fetched::NotModified => Ok(Documents {
            envelope: None,
            etag: etag.map(str::to_string),
            roots,
        }),
        Fetched::NotFound => Err(FetchError {
            url: url.to_string(),
            reason: "404 Not Found".into(),
        }),
    }
}

enum Fetched {
    Body(Vec<u8>, Option<String>),
    NotModified,
    NotFound,
}

/// GETs one document, bounded in size.
async fn fetch(
    client: &reqwest::Client,
    url: &str,
    etag: Option<&str>,
) -> Result<Fetched, FetchError> {
    let failed = |reason: String| FetchError {
        url: url.to_string(),
        reason,
    };
    let mut request = client.get(url);
    if let Some(etag) = etag {
        request = request.header(reqwest::header::IF_NONE_MATCH, etag);
    }
    let mut response = request.send().await.map_err(|e| failed(e.to_string()))?;
    match response.status() {
        reqwest::StatusCode::NOT_FOUND => return Ok(Fetched::NotFound),
        reqwest::StatusCode::NOT_MODIFIED if etag.is_some() => return Ok(Fetched::NotModified),
        status if !status.is_success() => return Err(failed(format!("HTTP {status}"))),
        _ => {}
    }
    let etag = response
        .headers()
        .get(reqwest::header::ETAG)
        .and_then(|v| v.to_str().ok())
        .filter(|v| v.len() <= 256)
        .map(str::to_string);
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(|e| failed(e.to_string()))? {
        if body.len() + chunk.len() > MAX_DOCUMENT_BYTES {
            return Err(failed(format!("larger than {MAX_DOCUMENT_BYTES} bytes")));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(Fetched::Body(body, etag))
}
