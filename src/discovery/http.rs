//! The guarded HTTP client and bounded body reading.
//!
//! Three things here are why the scanner does not use `rmcp`'s client
//! transports (rmcp 3.x builds them on reqwest 0.13 with its own connector and
//! reads whole bodies and SSE streams without a byte bound):
//!
//! - **SSRF-checked connections.** [`GuardedResolver`] is reqwest's resolver: it
//!   looks a name up once and hands reqwest only the addresses the
//!   [`NetPolicy`] allows, so the address checked is the address connected to
//!   and no second lookup can be answered differently (DNS rebinding). reqwest
//!   does not resolve IP literals, so [`check_url`] judges those itself, for the
//!   first URL and for every redirect hop ([`redirect_policy`]).
//! - **Byte bounds while reading.** [`Meter`] counts every byte as it arrives,
//!   per message and per crawl, so a 1 GiB body costs at most one message's
//!   bound of memory before the read stops.
//! - **Incremental SSE** with a line-length bound ([`super::sse`]).

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use reqwest::{Response, Url};

use super::policy::NetPolicy;

/// Why one exchange with the server went wrong; `crawler.rs` turns it into a [`crate::snapshot::CrawlError`].
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Fault {
    /// A crawl bound was hit (bytes, depth, timeout, deadline).
    Bound(String),
    /// The network failed.
    Transport(String),
    /// The SSRF guard refused an address, a host name or a redirect.
    Refused(String),
    /// The server answered with an HTTP error status.
    Status(u16),
    /// The bytes were not JSON-RPC, or not the answer expected.
    Invalid(String),
    /// The server answered with a JSON-RPC error object.
    Rpc {
        /// JSON-RPC error code.
        code: i64,
        /// The server's message (hostile text, kept as data).
        message: String,
        /// The error's `data` member, parsed within the message bounds
        /// (`supported` of an `UnsupportedProtocolVersion` error).
        data: Option<serde_json::Value>,
    },
    /// HTTP 401: the server wants a bearer token (MCP 2025-11-25 and
    /// 2026-07-28, Authorization §Authorization Server Location).
    Unauthorized {
        /// The `WWW-Authenticate` header, cut at 4 KiB; empty when absent.
        challenge: String,
    },
    /// An SSE response stream ended before it carried the response.
    StreamEnded,
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fault::Bound(m) | Fault::Transport(m) | Fault::Refused(m) | Fault::Invalid(m) => {
                f.write_str(m)
            }
            Fault::Status(code) => write!(f, "HTTP status {code}"),
            Fault::Rpc { code, message, .. } => write!(f, "JSON-RPC error {code}: {message:?}"),
            Fault::Unauthorized { .. } => f.write_str("HTTP status 401: the server requires OAuth"),
            Fault::StreamEnded => f.write_str("the SSE stream ended before the response"),
        }
    }
}

/// The error a refused address or host name carries through reqwest's error chain.
#[derive(Debug)]
struct Refused(String);

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "refused by the scan network policy (see GATEHOUSE_SCAN_ALLOW_PRIVATE): {}",
            self.0
        )
    }
}

impl std::error::Error for Refused {}

/// reqwest's resolver, filtering every answer through the [`NetPolicy`].
struct GuardedResolver {
    policy: NetPolicy,
}

impl Resolve for GuardedResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let policy = self.policy.clone();
        let host = name.as_str().to_string();
        Box::pin(async move {
            if !policy.is_host_allowed(&host) {
                return Err(Box::new(Refused(format!("{host} is a cloud metadata name"))) as _);
            }
            // Port 0: reqwest replaces it with the URL's port on each address.
            let found: Vec<SocketAddr> = tokio::net::lookup_host((host.as_str(), 0))
                .await
                .map_err(|e| Box::new(e) as Box<dyn std::error::Error + Send + Sync>)?
                .collect();
            let allowed: Vec<SocketAddr> = found
                .iter()
                .copied()
                .filter(|a| policy.is_allowed(a.ip()))
                .collect();
            if allowed.is_empty() {
                let shown: Vec<String> = found.iter().map(|a| a.ip().to_string()).collect();
                return Err(Box::new(Refused(format!(
                    "{host} resolves only to refused addresses ({})",
                    shown.join(", ")
                ))) as _);
            }
            Ok(Box::new(allowed.into_iter()) as Addrs)
        })
    }
}

/// Checks what reqwest will not ask the resolver about: the scheme, IP-literal
/// hosts and metadata names. Called on the crawl URL, every redirect hop and
/// the legacy SSE endpoint.
pub(crate) fn check_url(url: &Url, policy: &NetPolicy) -> Result<(), String> {
    if !matches!(url.scheme(), "http" | "https") {
        return Err(format!("scheme {:?} is not http or https", url.scheme()));
    }
    match url.host() {
        None => Err("the URL has no host".into()),
        Some(url::Host::Ipv4(ip)) => allow_ip(IpAddr::V4(ip), policy),
        Some(url::Host::Ipv6(ip)) => allow_ip(IpAddr::V6(ip), policy),
        Some(url::Host::Domain(name)) if !policy.is_host_allowed(name) => {
            Err(Refused(format!("{name} is a cloud metadata name")).to_string())
        }
        Some(url::Host::Domain(_)) => Ok(()),
    }
}

fn allow_ip(ip: IpAddr, policy: &NetPolicy) -> Result<(), String> {
    if policy.is_allowed(ip) {
        Ok(())
    } else {
        Err(Refused(format!("address {ip}")).to_string())
    }
}

/// Follows at most `max` redirects, each hop checked like the first URL.
/// With `same_origin` (the crawl carries credentials), a hop to another origin
/// than the request's own is refused: reqwest drops `Authorization` on such a
/// hop but keeps other headers (a secret `X-Api-Key`) and a 307/308 keeps the
/// body (a `client_secret_post` form).
fn redirect_policy(policy: NetPolicy, max: usize, same_origin: bool) -> reqwest::redirect::Policy {
    reqwest::redirect::Policy::custom(move |attempt| {
        if attempt.previous().len() > max {
            let message = format!("more than {max} redirects");
            return attempt.error(Refused(message));
        }
        if same_origin
            && attempt
                .previous()
                .first()
                .is_some_and(|first| first.origin() != attempt.url().origin())
        {
            let message = format!(
                "a redirect to another origin ({}) would carry the crawl credentials",
                attempt.url().origin().ascii_serialization()
            );
            return attempt.error(Refused(message));
        }
        match check_url(attempt.url(), &policy) {
            Ok(()) => attempt.follow(),
            Err(reason) => {
                let message = format!("redirect to {}: {reason}", attempt.url());
                attempt.error(Refused(message))
            }
        }
    })
}

/// Builds the client every request of one crawl goes through.
pub(crate) fn guarded_client(
    policy: &NetPolicy,
    connect_timeout: Duration,
    max_redirects: usize,
    same_origin_redirects: bool,
) -> Result<reqwest::Client, String> {
    reqwest::Client::builder()
        // A proxy would connect on our behalf to whatever address it resolves:
        // the guard must see the real peer, so environment proxies are ignored.
        .no_proxy()
        .dns_resolver(Arc::new(GuardedResolver {
            policy: policy.clone(),
        }))
        .redirect(redirect_policy(
            policy.clone(),
            max_redirects,
            same_origin_redirects,
        ))
        .connect_timeout(connect_timeout)
        // One small request at a time: never hold a write back waiting for an ACK.
        .tcp_nodelay(true)
        .user_agent(concat!("gatehouse-scanner/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(|e| format!("building the HTTP client: {e}"))
}

/// Describes a reqwest error with its causes, marking SSRF refusals as such.
pub(crate) fn describe(error: &reqwest::Error) -> Fault {
    let mut text = error.to_string();
    let mut refused = false;
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        refused |= cause.is::<Refused>();
        source = cause.source();
    }
    if refused {
        return Fault::Refused(text);
    }
    if error.is_timeout() {
        return Fault::Bound(format!("request timed out: {text}"));
    }
    Fault::Transport(text)
}

/// Defence in depth: the peer reqwest actually connected to must be allowed too.
pub(crate) fn check_peer(response: &Response, policy: &NetPolicy) -> Result<(), Fault> {
    match response.remote_addr() {
        Some(peer) if !policy.is_allowed(peer.ip()) => Err(Fault::Refused(
            Refused(format!("connected peer {}", peer.ip())).to_string(),
        )),
        _ => Ok(()),
    }
}

/// Byte counters shared by every read of one crawl.
#[derive(Debug)]
pub(crate) struct Meter {
    /// Bytes read so far in this crawl.
    pub used: u64,
    /// The crawl's total byte bound.
    pub max_crawl: u64,
    /// The bound on one JSON-RPC message (a body, or one SSE event).
    pub max_message: u64,
    /// JSON values parsed so far in this crawl.
    pub values: u64,
    /// The crawl's bound on parsed JSON values.
    pub max_values: u64,
}

impl Meter {
    /// Counts `n` more bytes against the crawl total.
    pub fn take(&mut self, n: usize) -> Result<(), Fault> {
        self.used += n as u64;
        if self.used > self.max_crawl {
            return Err(Fault::Bound(format!(
                "the crawl read more than {} bytes",
                self.max_crawl
            )));
        }
        Ok(())
    }

    /// Counts `n` more parsed JSON values against the crawl's budget.
    pub fn take_values(&mut self, n: u64) -> Result<(), Fault> {
        self.values += n;
        if self.values > self.max_values {
            return Err(Fault::Bound(format!(
                "the crawl's JSON held more than {} values",
                self.max_values
            )));
        }
        Ok(())
    }

    /// The error for a message over the per-message bound.
    pub fn message_too_large(&self) -> Fault {
        Fault::Bound(format!("a message exceeded {} bytes", self.max_message))
    }
}

/// Reads a whole (JSON) body, stopping as soon as a bound is crossed.
pub(crate) async fn read_body(
    response: &mut Response,
    meter: &mut Meter,
) -> Result<Vec<u8>, Fault> {
    // A declared length over the bound is refused before reading anything.
    if response
        .content_length()
        .is_some_and(|len| len > meter.max_message)
    {
        return Err(meter.message_too_large());
    }
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(|e| describe(&e))? {
        meter.take(chunk.len())?;
        if (body.len() + chunk.len()) as u64 > meter.max_message {
            return Err(meter.message_too_large());
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}
