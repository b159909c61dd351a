//! One small document fetched from a server's origin, under the crawl's
//! network policy: the Server Card (draft SEP-2127, "MCP Server Cards"),
//! `/.well-known/ai-catalog.json`, and the ownership challenge file that
//! prove who runs a remote (issue 15). The same guarded client as a crawl:
//! the SSRF check on every resolved and connected address, at most three
//! redirects and none to another origin (a document served elsewhere proves
//! nothing about this origin), a timeout, and a byte bound on the body.

use std::time::Duration;

use reqwest::Url;

use super::http::{check_peer, check_url, describe, guarded_client};
use super::policy::NetPolicy;

/// A fetched document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Document {
    /// The HTTP status.
    pub status: u16,
    /// The `Content-Type` header (empty when absent), lower-cased.
    pub content_type: String,
    /// The body, at most the requested number of bytes.
    pub body: Vec<u8>,
}

/// GETs `url` with `accept`, within `timeout` and `max_bytes`; a body larger
/// than `max_bytes` is an error. `Err` says why nothing was fetched.
pub async fn fetch_document(
    url: &str,
    accept: &str,
    network: &NetPolicy,
    max_bytes: usize,
    timeout: Duration,
) -> Result<Document, String> {
    let parsed = Url::parse(url).map_err(|e| format!("{url:?} is not a URL: {e}"))?;
    check_url(&parsed, network)?;
    let client = guarded_client(network, timeout, 3, true)?;
    let fetch = async {
        let mut response = client
            .get(parsed)
            .header(reqwest::header::ACCEPT, accept)
            .send()
            .await
            .map_err(|e| describe(&e).to_string())?;
        check_peer(&response, network).map_err(|f| f.to_string())?;
        let status = response.status().as_u16();
        let content_type = response
            .headers()
            .get(reqwest::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_ascii_lowercase();
        let mut body = Vec::new();
        while let Some(chunk) = response
            .chunk()
            .await
            .map_err(|e| describe(&e).to_string())?
        {
            if body.len() + chunk.len() > max_bytes {
                return Err(format!("the document is larger than {max_bytes} bytes"));
            }
            body.extend_from_slice(&chunk);
        }
        Ok(Document {
            status,
            content_type,
            body,
        })
    };
    tokio::time::timeout(timeout, fetch)
        .await
        .map_err(|_| format!("no complete answer within {} s", timeout.as_secs()))?
}
