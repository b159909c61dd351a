//! `gatehouse gateway`: one MCP endpoint in front of the approved servers of
//! an audience, exposing only what was approved and still matches its pin
//! (docs/DESIGN.md §4, issue 16).
//!
//! The pieces, in the order a request meets them:
//!
//! - [`http`] (Streamable HTTP, both protocol eras) and [`stdio`] are the
//!   downstream transports; HTTP checks `Host`/`Origin` against DNS rebinding
//!   and maps a bearer token to an audience ([`TokenMap`]).
//! - [`server`] answers the JSON-RPC methods from the audience's [`Catalog`]
//!   and forwards `tools/call`, `prompts/get` and `resources/read` only for
//!   exposed names with arguments that satisfy the pinned schema: calls are
//!   the security boundary, filtering a list is not. Every decision is a
//!   structured log event and a metric ([`Decisions`]).
//! - [`trust`] keeps the audience's allowlist verified exactly as `gatehouse
//!   verify` does (same code, same state file); fail closed.
//! - [`upstream`] keeps each approved remote's live lists (discovery client),
//!   open conversations for calls, and a watcher of its change notifications.
//! - [`catalog`] (pure) decides what is exposed and under which name.
//! - [`report`] tells the registry about drift, so the monitor rescans at once.
//!
//! Lists are refreshed on an upstream's `list_changed` (or its
//! `subscriptions/listen` stream), every `--recheck` seconds and after a
//! reconnect; the allowlist every `--allowlist-refresh` seconds. When what an
//! audience sees changes, its clients get `notifications/*/list_changed`,
//! debounced.

pub mod catalog;
pub mod http;
pub mod report;
pub mod server;
pub mod stdio;
pub mod trust;
pub mod upstream;

use std::collections::{BTreeSet, HashMap};
use std::path::PathBuf;
use std::sync::{Arc, RwLock};
use std::time::Duration;

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::registry::Registry;
use sha2::{Digest, Sha256};
use tokio::sync::{Mutex, broadcast, mpsc};
use tokio::task::JoinHandle;

pub use catalog::Catalog;
use catalog::{Drift, Live};
use trust::{SharedState, Trust, TrustError};
use upstream::Upstream;

use crate::discovery::CrawlOptions;

/// Default audience (`--audience`).
pub const DEFAULT_AUDIENCE: &str = "default";
/// Quiet time before a change of the exposed lists is announced to clients.
pub const DEFAULT_DEBOUNCE: Duration = Duration::from_millis(250);

/// Everything the gateway needs to run.
#[derive(Clone)]
pub struct GatewayOptions {
    /// The registry's base URL (`https://registry.example`).
    pub registry: String,
    /// The pinned root document's bytes.
    pub pinned_root: Vec<u8>,
    /// The audience of clients that present no token (and of stdio).
    pub audience: String,
    /// Bearer tokens of HTTP clients and their audiences; when set, every
    /// HTTP request must carry one of them.
    pub tokens: Option<TokenMap>,
    /// The rollback-protection state file.
    pub state: Option<PathBuf>,
    /// How often every upstream is crawled again.
    pub recheck: Duration,
    /// How often the allowlist is fetched again.
    pub allowlist_refresh: Duration,
    /// A registry token to report drift with.
    pub report_token: Option<String>,
    /// How upstreams are reached: network policy, bounds.
    pub crawl: CrawlOptions,
    /// Quiet time before clients hear of a change.
    pub debounce: Duration,
    /// Where package-only servers are installed to run in the package
    /// sandbox; `None`: they are listed as unavailable.
    pub packages: Option<crate::packages::PackagesConfig>,
}

impl std::fmt::Debug for GatewayOptions {
    // Tokens never reach a log line.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GatewayOptions")
            .field("registry", &self.registry)
            .field("audience", &self.audience)
            .field("tokens", &self.tokens.as_ref().map(|t| t.len()))
            .field("state", &self.state)
            .field("recheck", &self.recheck)
            .field("allowlist_refresh", &self.allowlist_refresh)
            .field(
                "report_token",
                &self.report_token.as_ref().map(|_| "<redacted>"),
            )
            .finish()
    }
}

/// A client known by its bearer token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientIdentity {
    /// The name logged for it.
    pub name: String,
    /// The audience whose capabilities it sees.
    pub audience: String,
}

/// Bearer tokens → clients. Tokens are kept only as SHA-256 digests, so a
/// memory dump or a `{:?}` shows none of them.
#[derive(Clone, Default)]
pub struct TokenMap {
    by_digest: HashMap<[u8; 32], ClientIdentity>,
}

impl TokenMap {
    /// Reads a token file: JSON `{"tokens": [{"token", "audience", "client"?}]}`.
    pub fn parse(bytes: &[u8]) -> Result<TokenMap, String> {
        #[derive(serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        struct File {
            tokens: Vec<Entry>,
        }
        #[derive(serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Entry {
            token: String,
            audience: String,
            client: Option<String>,
        }
        let file: File = serde_json::from_slice(bytes).map_err(|e| format!("token file: {e}"))?;
        let mut map = TokenMap::default();
        for (i, entry) in file.tokens.into_iter().enumerate() {
            if entry.token.len() < 16 || entry.token.len() > 256 {
                return Err(format!(
                    "token file: token {i} must be 16 to 256 characters"
                ));
            }
            if !valid_audience(&entry.audience) {
                return Err(format!(
                    "token file: token {i}: an audience is 1-64 characters of a-z, 0-9, '-', '_' or '.'"
                ));
            }
            let identity = ClientIdentity {
                name: entry.client.unwrap_or_else(|| format!("token-{i}")),
                audience: entry.audience,
            };
            if map
                .by_digest
                .insert(digest(&entry.token), identity)
                .is_some()
            {
                return Err(format!("token file: token {i} is listed twice"));
            }
        }
        Ok(map)
    }

    /// The client a token belongs to.
    pub fn client(&self, token: &str) -> Option<&ClientIdentity> {
        self.by_digest.get(&digest(token))
    }

    /// The audiences named in the file.
    pub fn audiences(&self) -> BTreeSet<String> {
        self.by_digest
            .values()
            .map(|c| c.audience.clone())
            .collect()
    }

    /// How many tokens.
    pub fn len(&self) -> usize {
        self.by_digest.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.by_digest.is_empty()
    }
}

fn digest(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

/// The audience names the registry accepts (`review::valid_audience`'s rule,
/// restated here: the gateway imports no service).
pub fn valid_audience(audience: &str) -> bool {
    (1..=64).contains(&audience.len())
        && audience
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"-_.".contains(&b))
}

/// Which list changed, for `notifications/<list>/list_changed`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ListKind {
    /// `tools`.
    Tools,
    /// `prompts`.
    Prompts,
    /// `resources`.
    Resources,
}

impl ListKind {
    /// The notification method.
    pub fn notification(self) -> &'static str {
        match self {
            ListKind::Tools => "notifications/tools/list_changed",
            ListKind::Prompts => "notifications/prompts/list_changed",
            ListKind::Resources => "notifications/resources/list_changed",
        }
    }

    /// The `subscriptions/listen` filter key (2026-07-28).
    pub fn filter_key(self) -> &'static str {
        match self {
            ListKind::Tools => "toolsListChanged",
            ListKind::Prompts => "promptsListChanged",
            ListKind::Resources => "resourcesListChanged",
        }
    }

    /// Every kind.
    pub const ALL: [ListKind; 3] = [ListKind::Tools, ListKind::Prompts, ListKind::Resources];
}

/// Labels of a call decision.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct DecisionLabels {
    /// `tools/call`, `prompts/get` or `resources/read`.
    pub method: String,
    /// `allowed` or `denied`.
    pub decision: String,
    /// Why (`exposed`, `not_exposed`, `invalid_arguments`, `schema_unusable`, `upstream_error`).
    pub reason: String,
}

/// The gateway's metrics: every call decision, and drift seen.
pub struct Decisions {
    registry: Registry,
    decisions: Family<DecisionLabels, Counter>,
    drift: Counter,
}

impl Decisions {
    fn new() -> Decisions {
        let mut registry = Registry::default();
        let decisions = Family::<DecisionLabels, Counter>::default();
        let drift = Counter::default();
        registry.register(
            "gatehouse_gateway_decisions",
            "Forwarding decisions on tools/call, prompts/get and resources/read",
            decisions.clone(),
        );
        registry.register(
            "gatehouse_gateway_drift",
            "Capabilities seen drifting from their pins",
            drift.clone(),
        );
        Decisions {
            registry,
            decisions,
            drift,
        }
    }

    /// Counts one decision.
    pub fn count(&self, method: &str, allowed: bool, reason: &str) {
        self.decisions
            .get_or_create(&DecisionLabels {
                method: method.to_string(),
                decision: if allowed { "allowed" } else { "denied" }.to_string(),
                reason: reason.to_string(),
            })
            .inc();
    }

    /// The Prometheus text exposition.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let _ = prometheus_client::encoding::text::encode(&mut out, &self.registry);
        out
    }
}

/// One audience: its verified allowlist's upstreams and what its clients see.
pub struct Audience {
    /// The audience's name.
    pub name: String,
    catalog: RwLock<Arc<Catalog>>,
    upstreams: Mutex<Vec<(Arc<Upstream>, JoinHandle<()>)>>,
    /// The payload digest of the allowlist in force, `None` when none is.
    allowlist: Mutex<Option<String>>,
    /// Debounced list changes, for connected clients.
    changes: broadcast::Sender<ListKind>,
    pending: mpsc::UnboundedSender<ListKind>,
    refresh_requests: mpsc::Sender<String>,
    reported: Mutex<BTreeSet<Drift>>,
}

impl Audience {
    /// What the audience's clients see now.
    pub fn catalog(&self) -> Arc<Catalog> {
        self.catalog.read().expect("the catalog lock").clone()
    }

    /// A receiver of the audience's (debounced) list changes.
    pub fn subscribe(&self) -> broadcast::Receiver<ListKind> {
        self.changes.subscribe()
    }

    /// The upstream serving `server`.
    pub async fn upstream(&self, server: &str) -> Option<Arc<Upstream>> {
        self.upstreams
            .lock()
            .await
            .iter()
            .find(|(u, _)| u.entry.name == server)
            .map(|(u, _)| u.clone())
    }
}

/// A running gateway.
pub struct Gateway {
    /// Its options.
    pub options: GatewayOptions,
    audiences: HashMap<String, Arc<Audience>>,
    /// Decision and drift metrics.
    pub decisions: Decisions,
    reporter: Option<report::Reporter>,
    tasks: std::sync::Mutex<Vec<JoinHandle<()>>>,
}

impl Drop for Gateway {
    fn drop(&mut self) {
        for task in self.tasks.lock().expect("the task list").drain(..) {
            task.abort();
        }
    }
}

impl Gateway {
    /// Starts the gateway: for each audience (`--audience` and those of the
    /// token file) the allowlist is fetched and verified and the upstreams are
    /// crawled once before this returns, then the refresh loops run in the
    /// background until the gateway is dropped.
    pub async fn start(options: GatewayOptions) -> Result<Arc<Gateway>, TrustError> {
        let state = SharedState::load(options.state.clone())?;
        let mut names: BTreeSet<String> = BTreeSet::from([options.audience.clone()]);
        if let Some(tokens) = &options.tokens {
            names.extend(tokens.audiences());
        }
        let reporter = options
            .report_token
            .as_ref()
            .map(|token| report::Reporter::new(&options.registry, token));
        let mut audiences = HashMap::new();
        let mut receivers = Vec::new();
        for name in names {
            let (changes, _) = broadcast::channel(64);
            let (pending, pending_rx) = mpsc::unbounded_channel();
            let (refresh_requests, refresh_rx) = mpsc::channel(256);
            let audience = Arc::new(Audience {
                name: name.clone(),
                catalog: RwLock::new(Arc::new(Catalog::default())),
                upstreams: Mutex::new(Vec::new()),
                allowlist: Mutex::new(None),
                changes,
                pending,
                refresh_requests,
                reported: Mutex::new(BTreeSet::new()),
            });
            let trust = Trust::new(
                &options.registry,
                options.pinned_root.clone(),
                &name,
                state.clone(),
            )?;
            receivers.push((audience.clone(), trust, pending_rx, refresh_rx));
            audiences.insert(name, audience);
        }
        let gateway = Arc::new(Gateway {
            options,
            audiences,
            decisions: Decisions::new(),
            reporter,
            tasks: std::sync::Mutex::new(Vec::new()),
        });
        let mut tasks = Vec::new();
        for (audience, mut trust, pending_rx, refresh_rx) in receivers {
            gateway.refresh_allowlist(&audience, &mut trust).await;
            tasks.push(tokio::spawn(debounce(
                audience.clone(),
                pending_rx,
                gateway.options.debounce,
            )));
            let weak = Arc::downgrade(&gateway);
            tasks.push(tokio::spawn(allowlist_loop(
                weak.clone(),
                audience.clone(),
                trust,
            )));
            tasks.push(tokio::spawn(refresh_loop(weak, audience, refresh_rx)));
        }
        gateway.tasks.lock().expect("the task list").extend(tasks);
        Ok(gateway)
    }

    /// The audience called `name`.
    pub fn audience(&self, name: &str) -> Option<&Arc<Audience>> {
        self.audiences.get(name)
    }

    /// Fetches and verifies the allowlist; on success the upstream set follows
    /// it, on refusal everything is withdrawn (fail closed).
    async fn refresh_allowlist(&self, audience: &Arc<Audience>, trust: &mut Trust) {
        match trust.refresh().await {
            Ok(verified) => {
                let mut current = audience.allowlist.lock().await;
                if current.as_deref() == Some(verified.payload_sha256.as_str()) {
                    return;
                }
                tracing::info!(audience = %audience.name, version = verified.payload.version, servers = verified.payload.servers.len(), "allowlist verified");
                *current = Some(verified.payload_sha256.clone());
                drop(current);
                self.follow_allowlist(audience, &verified.payload).await;
            }
            Err(error) => {
                let mut current = audience.allowlist.lock().await;
                if current.take().is_some() || audience.upstreams.lock().await.is_empty() {
                    tracing::error!(audience = %audience.name, error = %error, "no verified allowlist: the gateway exposes nothing");
                }
                drop(current);
                self.withdraw(audience).await;
            }
        }
    }

    /// Replaces the upstream set with the entries of `payload`: entries that
    /// did not change keep their upstream, new ones are crawled before the
    /// catalog is rebuilt, gone ones are dropped with their watchers.
    async fn follow_allowlist(
        &self,
        audience: &Arc<Audience>,
        payload: &crate::allowlist::AllowlistPayload,
    ) {
        let mut upstreams = audience.upstreams.lock().await;
        let mut kept = Vec::new();
        let mut fresh = Vec::new();
        let old = std::mem::take(&mut *upstreams);
        let mut old: Vec<Option<(Arc<Upstream>, JoinHandle<()>)>> =
            old.into_iter().map(Some).collect();
        for entry in &payload.servers {
            let reuse = old
                .iter_mut()
                .find(|slot| slot.as_ref().is_some_and(|(u, _)| u.entry == *entry));
            match reuse.and_then(Option::take) {
                Some(pair) => kept.push(pair),
                None => {
                    let upstream = Arc::new(Upstream::new(
                        entry.clone(),
                        self.options.crawl.clone(),
                        self.options.packages.as_ref(),
                    ));
                    if let Some(why) = upstream.package_seam() {
                        tracing::warn!(server = %entry.name, "{why}: listed as unavailable");
                    }
                    fresh.push(upstream);
                }
            }
        }
        for (_, watcher) in old.into_iter().flatten() {
            watcher.abort();
        }
        refresh_all(&fresh).await;
        for upstream in fresh {
            let watcher = tokio::spawn(upstream.clone().watch(audience.refresh_requests.clone()));
            kept.push((upstream, watcher));
        }
        *upstreams = kept;
        drop(upstreams);
        self.rebuild(audience).await;
    }

    /// Withdraws every upstream of the audience: nothing is exposed.
    async fn withdraw(&self, audience: &Arc<Audience>) {
        let old = std::mem::take(&mut *audience.upstreams.lock().await);
        for (_, watcher) in old {
            watcher.abort();
        }
        self.rebuild(audience).await;
    }

    /// Rebuilds the audience's catalog from the upstreams' cached lists;
    /// announces changed lists (debounced), logs and reports new drift.
    async fn rebuild(&self, audience: &Arc<Audience>) {
        let upstreams: Vec<Arc<Upstream>> = audience
            .upstreams
            .lock()
            .await
            .iter()
            .map(|(u, _)| u.clone())
            .collect();
        let mut snapshots = Vec::new();
        for upstream in &upstreams {
            snapshots.push(upstream.live().await.0);
        }
        let live: Vec<Live<'_>> = upstreams
            .iter()
            .zip(&snapshots)
            .map(|(u, s)| Live {
                entry: &u.entry,
                snapshot: s.as_deref(),
            })
            .collect();
        let next = Arc::new(catalog::build(&live));
        let previous = {
            let mut slot = audience.catalog.write().expect("the catalog lock");
            std::mem::replace(&mut *slot, next.clone())
        };
        let (before, after) = (previous.fingerprint(), next.fingerprint());
        for (i, kind) in ListKind::ALL.iter().enumerate() {
            if before[i] != after[i] {
                let _ = audience.pending.send(*kind);
            }
        }
        let mut reported = audience.reported.lock().await;
        for drift in &next.drift {
            if reported.contains(drift) {
                continue;
            }
            self.decisions.drift.inc();
            tracing::warn!(
                audience = %audience.name,
                server = %drift.server,
                version = %drift.version,
                kind = drift.kind,
                name = %drift.name,
                expected = %drift.expected,
                found = %drift.found,
                "capability drifted from its pin: hidden and refused"
            );
            if let Some(reporter) = &self.reporter {
                reporter.report(drift.clone());
            }
            reported.insert(drift.clone());
        }
        // Forget what no longer drifts, so a later drift is reported again.
        reported.retain(|d| next.drift.contains(d));
    }

    /// Crawls one upstream (or all, for `None`) again and rebuilds.
    pub async fn refresh_upstreams(&self, audience: &Arc<Audience>, only: Option<&str>) {
        let upstreams: Vec<Arc<Upstream>> = audience
            .upstreams
            .lock()
            .await
            .iter()
            .filter(|(u, _)| only.is_none_or(|name| u.entry.name == name))
            .map(|(u, _)| u.clone())
            .collect();
        refresh_all(&upstreams).await;
        self.rebuild(audience).await;
    }
}

/// Crawls the upstreams concurrently and waits for all of them.
async fn refresh_all(upstreams: &[Arc<Upstream>]) {
    let mut set = tokio::task::JoinSet::new();
    for upstream in upstreams {
        let upstream = upstream.clone();
        set.spawn(async move { upstream.refresh().await });
    }
    while set.join_next().await.is_some() {}
}

/// Re-verifies the allowlist every `--allowlist-refresh`.
async fn allowlist_loop(
    gateway: std::sync::Weak<Gateway>,
    audience: Arc<Audience>,
    mut trust: Trust,
) {
    let period = match gateway.upgrade() {
        Some(g) => g.options.allowlist_refresh,
        None => return,
    };
    let mut ticks = tokio::time::interval(period);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    ticks.tick().await;
    loop {
        ticks.tick().await;
        let Some(gateway) = gateway.upgrade() else {
            return;
        };
        gateway.refresh_allowlist(&audience, &mut trust).await;
    }
}

/// Crawls again every `--recheck`, and the one upstream that asked (a list
/// change or a reconnection) as soon as it asks.
async fn refresh_loop(
    gateway: std::sync::Weak<Gateway>,
    audience: Arc<Audience>,
    mut requests: mpsc::Receiver<String>,
) {
    let period = match gateway.upgrade() {
        Some(g) => g.options.recheck,
        None => return,
    };
    let mut ticks = tokio::time::interval(period);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    ticks.tick().await;
    loop {
        let only = tokio::select! {
            _ = ticks.tick() => None,
            request = requests.recv() => match request {
                Some(server) => Some(server),
                None => return,
            },
        };
        let Some(gateway) = gateway.upgrade() else {
            return;
        };
        gateway.refresh_upstreams(&audience, only.as_deref()).await;
    }
}

/// Collects list changes and announces each kind once the changes have been
/// quiet for `quiet`, so a burst of upstream changes is one notification.
async fn debounce(
    audience: Arc<Audience>,
    mut pending: mpsc::UnboundedReceiver<ListKind>,
    quiet: Duration,
) {
    while let Some(first) = pending.recv().await {
        let mut kinds = vec![first];
        loop {
            match tokio::time::timeout(quiet, pending.recv()).await {
                Ok(Some(kind)) => {
                    if !kinds.contains(&kind) {
                        kinds.push(kind);
                    }
                }
                Ok(None) => return,
                Err(_) => break,
            }
        }
        for kind in kinds {
            tracing::info!(audience = %audience.name, notification = kind.notification(), "exposed list changed");
            let _ = audience.changes.send(kind);
        }
    }
}
