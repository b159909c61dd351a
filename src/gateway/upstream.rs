//! One approved server behind the gateway: its live lists (cached, refreshed
//! by crawling it with the discovery client: both protocol eras, the same
//! bounds and network policy as a scan), a small pool of open conversations
//! for forwarded calls, and a watcher of its change notifications.
//!
//! A server with a remote is reached over HTTP. A package-only server (npm or
//! PyPI) is installed and started in the package sandbox (`packages`, issue
//! 15) when the gateway has an install cache: crawled over the sandboxed
//! process's stdio like a scan, and called on a sandboxed process of its own
//! per pooled conversation. It gets no arguments and placeholder environment
//! (the allowlist names the package, not a user's configuration). Without a
//! cache, or for other package types, it is listed as unavailable
//! ([`Upstream::package_seam`]).

use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;
use tokio::sync::{Mutex, RwLock, mpsc};

use crate::allowlist::payload::ServerEntry;
use crate::discovery::{self, CrawlOptions, Session, SessionError};
use crate::snapshot::Snapshot;

/// Most idle conversations kept open per upstream.
const MAX_IDLE_SESSIONS: usize = 128;
/// Pause before reopening a notification stream that ended; doubled after
/// each failure to open one, up to [`RELISTEN_MAX`].
const RELISTEN_AFTER: Duration = Duration::from_secs(1);
/// Longest pause between attempts to open a notification stream.
const RELISTEN_MAX: Duration = Duration::from_secs(60);

/// Whether an upstream can be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Availability {
    /// Not crawled yet.
    Pending,
    /// Crawled; its capabilities are exposed as far as they match their pins.
    Available,
    /// The last crawl failed; nothing of it is exposed.
    Unreachable(String),
    /// No remote to connect to and no package the gateway can run.
    PackageOnly,
}

/// One upstream server.
pub struct Upstream {
    /// Its allowlist entry.
    pub entry: ServerEntry,
    /// The remote URL connected to (`streamable-http` preferred, then `sse`).
    pub url: Option<String>,
    options: CrawlOptions,
    /// For a package-only server: the package run in the sandbox, and where it is installed.
    package: Option<(crate::packages::PackageRef, crate::packages::PackagesConfig)>,
    /// The last crawl and whether it succeeded.
    state: RwLock<(Option<Arc<Snapshot>>, Availability)>,
    idle: Mutex<Vec<Session>>,
}

impl Upstream {
    /// An upstream for `entry`, connected with `options`; a package-only
    /// entry is run in the sandbox when `packages` (the install cache) is given.
    pub fn new(
        entry: ServerEntry,
        options: CrawlOptions,
        packages: Option<&crate::packages::PackagesConfig>,
    ) -> Upstream {
        let remotes = &entry.match_.remotes;
        let url = remotes
            .iter()
            .find(|r| r.type_ == "streamable-http")
            .or_else(|| remotes.iter().find(|r| r.type_ == "sse"))
            .map(|r| r.url.clone());
        let package = match (&url, packages) {
            (None, Some(settings)) => entry.match_.packages.iter().find_map(|p| {
                let spec = match p.registry_type.as_str() {
                    "npm" => format!("npm:{}@{}", p.identifier, p.version),
                    "pypi" => format!("pypi:{}=={}", p.identifier, p.version),
                    _ => return None,
                };
                let package = crate::packages::PackageRef::parse_spec(&spec).ok()?;
                Some((package, settings.clone()))
            }),
            _ => None,
        };
        let availability = if url.is_none() && package.is_none() {
            Availability::PackageOnly
        } else {
            Availability::Pending
        };
        Upstream {
            entry,
            url,
            options,
            package,
            state: RwLock::new((None, availability)),
            idle: Mutex::new(Vec::new()),
        }
    }

    /// Why a package-only entry cannot be run (no install cache, or no npm or
    /// PyPI package), or `None` when the upstream can be reached.
    pub fn package_seam(&self) -> Option<&'static str> {
        (self.url.is_none() && self.package.is_none())
            .then_some("package servers need the package sandbox and an npm or PyPI package")
    }

    /// Crawls the upstream: over HTTP, or its package in the sandbox.
    async fn crawl(&self) -> Result<Snapshot, discovery::CrawlFailure> {
        if let Some(url) = &self.url {
            return discovery::crawl(url, &self.options).await;
        }
        let Some((package, settings)) = &self.package else {
            return Err(unavailable());
        };
        let installed = install(package, settings).await?;
        crate::packages::crawl_installed(&installed, package, &settings.limits, &self.options).await
    }

    /// A new conversation: over HTTP, or with a fresh sandboxed process.
    async fn open_session(&self) -> Result<Session, discovery::CrawlFailure> {
        if let Some(url) = &self.url {
            return Session::open(url, &self.options).await;
        }
        let Some((package, settings)) = &self.package else {
            return Err(unavailable());
        };
        let installed = install(package, settings).await?;
        let command = crate::packages::sandboxed(&installed, package, &settings.limits)?;
        Session::open_prepared(command, &self.options).await
    }

    /// The last crawl (when it succeeded) and the availability.
    pub async fn live(&self) -> (Option<Arc<Snapshot>>, Availability) {
        self.state.read().await.clone()
    }

    /// Crawls the upstream afresh (the cache is replaced, never merged): a
    /// failed crawl leaves nothing exposed. Idle conversations are closed, so
    /// calls after a refresh start on a new connection too.
    pub async fn refresh(&self) {
        if self.package_seam().is_some() {
            return;
        }
        let crawled = self.crawl().await;
        let next = match crawled {
            Ok(snapshot) => {
                let unread = snapshot
                    .crawl
                    .as_ref()
                    .map(|c| c.unread.clone())
                    .unwrap_or_default();
                if !unread.is_empty() {
                    tracing::warn!(server = %self.entry.name, unread = ?unread, "some lists of the upstream were not read to the end; their capabilities are not exposed");
                }
                (Some(Arc::new(snapshot)), Availability::Available)
            }
            Err(failure) => {
                tracing::warn!(server = %self.entry.name, code = failure.code, error = %failure.message, "upstream unreachable; none of its capabilities are exposed");
                (None, Availability::Unreachable(failure.message))
            }
        };
        *self.state.write().await = next;
        let idle = std::mem::take(&mut *self.idle.lock().await);
        for session in idle {
            session.close().await;
        }
    }

    /// Forwards `method` with `params` on an idle conversation, or a new one.
    /// A conversation that failed is dropped; one that answered goes back to the pool.
    pub async fn forward(&self, method: &str, params: Value) -> Result<Value, SessionError> {
        let idle = self.idle.lock().await.pop();
        let mut session = match idle {
            Some(session) => session,
            None => self.open_session().await.map_err(SessionError::Failed)?,
        };
        let result = session.request(method, Some(params)).await;
        match &result {
            Err(SessionError::Failed(_)) => session.close().await,
            _ => {
                let mut idle = self.idle.lock().await;
                if idle.len() < MAX_IDLE_SESSIONS {
                    idle.push(session);
                } else {
                    drop(idle);
                    session.close().await;
                }
            }
        }
        result
    }

    /// Watches the upstream's change notifications until `changes` closes:
    /// every list change, and every opening of the stream (a change made while
    /// none was open went unannounced), is sent as a refresh request. A server that offers no stream is left to the
    /// periodic recheck.
    pub async fn watch(self: Arc<Self>, changes: mpsc::Sender<String>) {
        let Some(url) = self.url.clone() else { return };
        let mut delay = RELISTEN_AFTER;
        loop {
            if changes.is_closed() {
                return;
            }
            let opened = match Session::open(&url, &self.options).await {
                Ok(session) => session.listen().await,
                Err(failure) => Err(failure),
            };
            match opened {
                Ok(mut stream) => {
                    delay = RELISTEN_AFTER;
                    // Whatever changed while no stream was open (before the
                    // first one, or during a reconnect) was not announced:
                    // the cache is refreshed now that changes will be.
                    let _ = changes.send(self.entry.name.clone()).await;
                    loop {
                        match stream.next().await {
                            Ok(Some(method)) if method.ends_with("/list_changed") => {
                                tracing::info!(server = %self.entry.name, notification = %method, "upstream list changed");
                                if changes.send(self.entry.name.clone()).await.is_err() {
                                    stream.close().await;
                                    return;
                                }
                            }
                            Ok(Some(_)) => {}
                            Ok(None) | Err(_) => break,
                        }
                    }
                    stream.close().await;
                }
                Err(failure) => {
                    tracing::debug!(server = %self.entry.name, error = %failure.message, "no notification stream; relying on the recheck");
                    delay = (delay * 2).min(RELISTEN_MAX);
                }
            }
            tokio::time::sleep(delay).await;
        }
    }
}

/// The failure of an upstream that cannot be reached at all.
fn unavailable() -> discovery::CrawlFailure {
    discovery::CrawlFailure {
        code: crate::snapshot::crawl_codes::TRANSPORT,
        message: "package servers need the package sandbox and an npm or PyPI package".into(),
        retryable: false,
        auth: None,
    }
}

/// The package's install (from the cache after the first time).
async fn install(
    package: &crate::packages::PackageRef,
    settings: &crate::packages::PackagesConfig,
) -> Result<crate::packages::Installed, discovery::CrawlFailure> {
    crate::packages::install::install(package, settings)
        .await
        .map_err(|e| discovery::CrawlFailure {
            code: crate::snapshot::crawl_codes::TRANSPORT,
            message: format!("installing {}: {e}", package.spec()),
            retryable: e.retryable(),
            auth: None,
        })
}
