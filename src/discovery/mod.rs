//! MCP client: transports, lifecycle, pagination, bounds and SSRF guard → Snapshot.

use std::net::IpAddr;

use crate::snapshot::Snapshot;

/// Which transport to speak.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum TransportChoice {
    /// Streamable HTTP with fallback to HTTP+SSE.
    #[default]
    Auto,
    /// Streamable HTTP only.
    StreamableHttp,
    /// Legacy HTTP+SSE only.
    Sse,
}

/// Which addresses the scanner may connect to.
#[derive(Debug, Clone, Default)]
pub struct NetPolicy {
    allow_all_private: bool,
}

impl NetPolicy {
    /// Parses `GATEHOUSE_SCAN_ALLOW_PRIVATE`: unset/`0` refuses private addresses, `1` allows all, else a CIDR list.
    pub fn from_config(value: Option<&str>) -> Result<NetPolicy, String> {
        Ok(NetPolicy {
            allow_all_private: matches!(value, Some("1")),
        })
    }

    /// Whether a connection to `ip` is allowed.
    pub fn is_allowed(&self, ip: IpAddr) -> bool {
        self.allow_all_private || !(ip.is_loopback() || ip.is_unspecified())
    }
}

/// Everything a crawl needs besides the URL.
#[derive(Debug, Clone, Default)]
pub struct CrawlOptions {
    /// Transport selection.
    pub transport: TransportChoice,
    /// Extra headers sent with every request.
    pub headers: Vec<(String, String)>,
    /// Address policy (SSRF guard).
    pub network: NetPolicy,
    /// Print progress on stderr.
    pub progress: bool,
}

/// A crawl that produced no snapshot at all.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct CrawlFailure(pub String);

/// Crawls one server.
pub async fn crawl(_url: &str, _options: &CrawlOptions) -> Result<Snapshot, CrawlFailure> {
    Err(CrawlFailure("not implemented yet".into()))
}
