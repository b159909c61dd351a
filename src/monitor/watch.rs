//! Live watching (issue 14, item 3): the change-notification stream of every
//! approved remote version whose approved snapshot declared `listChanged` is
//! held open, and a `notifications/{tools,prompts,resources}/list_changed`
//! queues a monitor rescan at once, debounced, so that a burst leads to one
//! rescan. The notification carries no content: the rescan re-fetches the
//! full lists (the normal monitor job, `monitor::run_rescan`).
//!
//! The stream is the gateway's: [`discovery::Session`] opened as a crawl
//! opens (same policy, bounds and crawl credentials), turned into
//! [`discovery::Notifications`] — the session's GET stream for an older server
//! (MCP 2025-11-25, Transports §Listening for Messages from the Server), a
//! `subscriptions/listen` request for a 2026-07-28 one (Subscriptions). A
//! stream that ends is reopened after the server's SSE `retry` delay when it
//! sent one (HTML Living Standard, Server-sent events §Processing the event
//! stream: the reconnection time; bounded to 250 ms … 10 min), else after 1 s;
//! a stream that could not be opened or ended within 30 s (flapping) backs off
//! exponentially (1 s doubling to 5 min), never shorter than its `retry`. A
//! reopening queues a rescan too, since a change made while no stream was open
//! went unannounced — at most one such rescan per version every 5 min, so a
//! server that keeps dropping its stream cannot make us rescan it non-stop.
//!
//! Ownership across worker processes (`storage::watch`): each process runs one
//! [`run_watchers`] loop that claims lease rows (one per watched version) like
//! jobs, holds at most [`WatchSettings::max_streams`] streams, and renews its
//! leases every tick; a dead process's streams are taken over once its leases
//! run out ([`WatchSettings::lease`]).

use std::collections::HashMap;
use std::time::Duration;

use serde_json::Value;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio::time::Instant;

use crate::discovery::{Notifications, Session};
use crate::jobs::{self as worker, WorkerConfig};
use crate::snapshot::Snapshot;
use crate::storage::{Db, versions, watch as store};

/// First pause before reopening a stream that could not be opened or ended.
const BACKOFF_FIRST: Duration = Duration::from_secs(1);
/// Longest pause between two attempts.
const BACKOFF_MAX: Duration = Duration::from_secs(300);
/// The longest `retry` a server may ask for (its hint is data: bounded).
const RETRY_MAX: Duration = Duration::from_secs(600);
/// The shortest pause, even when a server asks for `retry: 0`.
const RETRY_MIN: Duration = Duration::from_millis(250);

/// How live watching runs in one process.
#[derive(Debug, Clone)]
pub struct WatchSettings {
    /// Most streams this process holds open (0 turns live watching off).
    pub max_streams: usize,
    /// How often leases are renewed and free versions claimed.
    pub tick: Duration,
    /// How long a claim lasts without renewal (a dead process's streams are
    /// taken over after it).
    pub lease: Duration,
    /// Quiet time after a notification before the rescan is queued: further
    /// notifications within it are folded into the same rescan.
    pub debounce: Duration,
    /// Longest a rescan waits behind a stream of notifications that never goes quiet.
    pub debounce_max: Duration,
    /// Shortest time between two rescans of one version queued by its
    /// notifications: a server that announces changes non-stop gets one
    /// rescan per this time, not one per burst.
    pub cooldown: Duration,
}

impl Default for WatchSettings {
    fn default() -> WatchSettings {
        WatchSettings {
            max_streams: 256,
            tick: Duration::from_secs(5),
            lease: Duration::from_secs(30),
            debounce: Duration::from_millis(500),
            debounce_max: Duration::from_secs(3),
            cooldown: Duration::from_secs(30),
        }
    }
}

/// Whether a server's declared capabilities promise list-change notifications.
pub fn declares_list_changed(capabilities: &Value) -> bool {
    ["tools", "prompts", "resources"]
        .iter()
        .any(|k| capabilities[k]["listChanged"] == Value::Bool(true))
}

/// Runs live watching for this process until `shutdown`: looks at newly
/// approved versions, claims and renews leases, holds one stream per held
/// version and queues debounced rescans. Leases are released on shutdown.
pub async fn run_watchers(
    db: Db,
    config: WorkerConfig,
    owner: String,
    mut shutdown: tokio::sync::watch::Receiver<bool>,
) {
    let settings = config.monitor.watch.clone();
    if settings.max_streams == 0 {
        return;
    }
    let (changes, heard) = mpsc::channel::<String>(4096);
    let debouncer = tokio::spawn(debounce(db.clone(), heard, settings.clone()));
    let mut held: HashMap<String, JoinHandle<()>> = HashMap::new();
    loop {
        if *shutdown.borrow() {
            break;
        }
        if let Err(e) = tick(&db, &config, &owner, &settings, &changes, &mut held).await {
            tracing::error!(error = %format!("{e:#}"), "live watching: tick failed");
        }
        tokio::select! {
            _ = tokio::time::sleep(settings.tick) => {}
            _ = shutdown.changed() => {}
        }
    }
    for (_, task) in held.drain() {
        task.abort();
    }
    if let Err(e) = store::release_all(&db, &owner).await {
        tracing::warn!(error = %e, "live watching: leases not released");
    }
    drop(changes);
    let _ = debouncer.await;
}

async fn tick(
    db: &Db,
    config: &WorkerConfig,
    owner: &str,
    settings: &WatchSettings,
    changes: &mpsc::Sender<String>,
    held: &mut HashMap<String, JoinHandle<()>>,
) -> anyhow::Result<()> {
    look_at_new_versions(db).await?;
    store::forget_unapproved(db).await?;
    let until = chrono::Utc::now()
        + chrono::Duration::from_std(settings.lease).unwrap_or(chrono::Duration::seconds(30));
    let still: std::collections::HashSet<String> =
        store::renew(db, owner, until).await?.into_iter().collect();
    held.retain(|version, task| {
        let keep = still.contains(version) && !task.is_finished();
        if !keep {
            task.abort();
        }
        keep
    });
    let free = settings.max_streams.saturating_sub(held.len()) as i64;
    for version in store::claim(db, owner, free, until).await? {
        if held.contains_key(&version) {
            continue;
        }
        let task = tokio::spawn(hold(
            db.clone(),
            config.clone(),
            version.clone(),
            changes.clone(),
        ));
        held.insert(version, task);
    }
    Ok(())
}

/// Gives every approved version without a watch row one: `listens` when it
/// has a crawlable remote and its newest scan declared `listChanged`.
async fn look_at_new_versions(db: &Db) -> anyhow::Result<()> {
    loop {
        let batch = store::unlooked(db, 500).await?;
        if batch.is_empty() {
            return Ok(());
        }
        for (version_id, server_json, snapshot) in batch {
            let remote = serde_json::from_str::<Value>(&server_json)
                .ok()
                .and_then(|doc| worker::pick_remote(&doc));
            let declared = snapshot
                .as_deref()
                .and_then(|s| serde_json::from_str::<Snapshot>(s).ok())
                .is_some_and(|s| declares_list_changed(&Value::Object(s.capabilities)));
            store::add(db, &version_id, remote.is_some() && declared).await?;
        }
    }
}

/// A stream that lived at least this long was healthy: the backoff starts over.
const HEALTHY: Duration = Duration::from_secs(30);
/// Most one rescan per this time is queued because a stream was reopened (a
/// server that keeps closing its stream must not make us rescan it non-stop).
const REOPEN_RESCAN_EVERY: Duration = Duration::from_secs(300);

/// The pause before reopening a stream, and the backoff after it: the
/// server's `retry` (bounded) after a healthy stream; after a stream that
/// failed to open or ended early (flapping), the larger of it and the
/// exponential backoff, which doubles.
fn next_pause(
    lived: Option<Duration>,
    retry: Option<Duration>,
    backoff: Duration,
) -> (Duration, Duration) {
    let retry = retry.map(|r| r.clamp(RETRY_MIN, RETRY_MAX));
    match lived {
        Some(l) if l >= HEALTHY => (retry.unwrap_or(BACKOFF_FIRST), BACKOFF_FIRST),
        _ => (
            retry.map_or(backoff, |r| r.max(backoff)),
            (backoff * 2).min(BACKOFF_MAX),
        ),
    }
}

/// Holds one version's stream until aborted.
async fn hold(db: Db, config: WorkerConfig, version_id: String, changes: mpsc::Sender<String>) {
    let mut backoff = BACKOFF_FIRST;
    let mut opened_before = false;
    let mut last_reopen_rescan: Option<Instant> = None;
    loop {
        let announce = opened_before
            && last_reopen_rescan.is_none_or(|at| at.elapsed() >= REOPEN_RESCAN_EVERY);
        let (lived, retry) = match listen_once(&db, &config, &version_id, &changes, announce).await
        {
            Ok(Heard::NoStream) => {
                tracing::info!(version = %version_id, "live watching: the server declares no list changes; left to the schedule");
                let _ = store::stop_listening(&db, &version_id).await;
                return;
            }
            Ok(Heard::Ended { lived, retry }) => {
                if announce {
                    last_reopen_rescan = Some(Instant::now());
                }
                opened_before = true;
                (Some(lived), retry)
            }
            Err(e) => {
                tracing::debug!(version = %version_id, error = %format!("{e:#}"), "live watching: no stream");
                (None, None)
            }
        };
        let (pause, next) = next_pause(lived, retry, backoff);
        backoff = next;
        tokio::time::sleep(pause).await;
    }
}

enum Heard {
    /// The server declared no `listChanged`: nothing to hold.
    NoStream,
    /// The stream ended after `lived`; `retry` is the server's SSE reconnection hint.
    Ended {
        lived: Duration,
        retry: Option<Duration>,
    },
}

/// Opens the version's stream once and reads it until it ends.
async fn listen_once(
    db: &Db,
    config: &WorkerConfig,
    version_id: &str,
    changes: &mpsc::Sender<String>,
    reopened: bool,
) -> anyhow::Result<Heard> {
    use anyhow::Context as _;
    let version = versions::get_version_by_id(db, version_id)
        .await?
        .context("the version is gone")?;
    let doc: Value = serde_json::from_str(&version.server_json)?;
    let (url, transport) = worker::pick_remote(&doc).context("no crawlable remote")?;
    let options = worker::crawl_options(db, config, &version, &doc, &url, transport).await?;
    let session = Session::open(&url, &options).await?;
    if !declares_list_changed(session.capabilities()) {
        session.close().await;
        return Ok(Heard::NoStream);
    }
    let mut stream: Notifications = session.listen().await?;
    let opened = Instant::now();
    tracing::debug!(version = %version_id, "live watching: stream open");
    if reopened {
        // A change made while no stream was open went unannounced.
        let _ = changes.send(version_id.to_string()).await;
    }
    loop {
        match stream.next().await {
            Ok(Some(method)) if is_list_change(&method) => {
                tracing::info!(version = %version_id, notification = %method, "live watching: list changed");
                if changes.send(version_id.to_string()).await.is_err() {
                    break;
                }
            }
            Ok(Some(_)) => {}
            Ok(None) | Err(_) => break,
        }
    }
    let retry = stream.retry();
    stream.close().await;
    Ok(Heard::Ended {
        lived: opened.elapsed(),
        retry,
    })
}

/// The three list changes (MCP 2025-11-25 server/tools, prompts, resources
/// §List Changed Notification).
fn is_list_change(method: &str) -> bool {
    matches!(
        method,
        "notifications/tools/list_changed"
            | "notifications/prompts/list_changed"
            | "notifications/resources/list_changed"
    )
}

/// Folds notifications per version: a rescan is queued once the version has
/// been quiet for `debounce` (or `debounce_max` after the first one), and no
/// sooner than `cooldown` after the previous one it queued.
async fn debounce(db: Db, mut heard: mpsc::Receiver<String>, settings: WatchSettings) {
    // version → (first heard, last heard)
    let mut pending: HashMap<String, (Instant, Instant)> = HashMap::new();
    // version → when its last rescan was queued
    let mut queued: HashMap<String, Instant> = HashMap::new();
    let due_at =
        |version: &str, first: Instant, last: Instant, queued: &HashMap<String, Instant>| {
            let quiet = (last + settings.debounce).min(first + settings.debounce_max);
            match queued.get(version) {
                Some(at) => quiet.max(*at + settings.cooldown),
                None => quiet,
            }
        };
    loop {
        let next_due = pending
            .iter()
            .map(|(v, (first, last))| due_at(v, *first, *last, &queued))
            .min();
        let received = match next_due {
            Some(due) => tokio::select! {
                v = heard.recv() => Some(v),
                _ = tokio::time::sleep_until(due) => None,
            },
            None => Some(heard.recv().await),
        };
        match received {
            Some(Some(version)) => {
                let now = Instant::now();
                pending
                    .entry(version)
                    .and_modify(|(_, last)| *last = now)
                    .or_insert((now, now));
            }
            Some(None) => return,
            None => {}
        }
        let now = Instant::now();
        let due: Vec<String> = pending
            .iter()
            .filter(|(v, (first, last))| now >= due_at(v, *first, *last, &queued))
            .map(|(v, _)| v.clone())
            .collect();
        for version in due {
            pending.remove(&version);
            match store::queue_rescan(&db, &version).await {
                Ok(true) => tracing::info!(version = %version, "live watching: rescan queued"),
                Ok(false) => {}
                Err(e) => {
                    tracing::error!(version = %version, error = %e, "live watching: rescan not queued")
                }
            }
            queued.insert(version, now);
        }
        queued.retain(|_, at| at.elapsed() < settings.cooldown);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_servers_retry_is_honoured_within_bounds_and_flapping_backs_off() {
        let s = Duration::from_secs;
        // After a healthy stream: the server's retry, or one second.
        assert_eq!(
            next_pause(Some(s(60)), Some(Duration::from_millis(3000)), s(8)),
            (s(3), BACKOFF_FIRST)
        );
        assert_eq!(next_pause(Some(s(60)), None, s(8)), (s(1), BACKOFF_FIRST));
        // A retry of zero or of a day is bounded.
        assert_eq!(next_pause(Some(s(60)), Some(s(0)), s(1)).0, RETRY_MIN);
        assert_eq!(next_pause(Some(s(60)), Some(s(86_400)), s(1)).0, RETRY_MAX);
        // A stream that did not open, or ended at once: exponential backoff,
        // never shorter than the server asked for.
        assert_eq!(next_pause(None, None, s(2)), (s(2), s(4)));
        assert_eq!(next_pause(Some(s(1)), Some(s(5)), s(2)), (s(5), s(4)));
        assert_eq!(next_pause(Some(s(1)), Some(s(0)), s(2)), (s(2), s(4)));
        assert_eq!(next_pause(None, None, BACKOFF_MAX).1, BACKOFF_MAX);
    }

    #[test]
    fn list_changed_is_read_from_the_three_capabilities() {
        assert!(declares_list_changed(
            &serde_json::json!({"tools": {"listChanged": true}})
        ));
        assert!(declares_list_changed(
            &serde_json::json!({"resources": {"subscribe": true, "listChanged": true}})
        ));
        assert!(!declares_list_changed(
            &serde_json::json!({"tools": {"listChanged": false}, "logging": {}})
        ));
        assert!(!declares_list_changed(&serde_json::json!({"tools": {}})));
    }
}
