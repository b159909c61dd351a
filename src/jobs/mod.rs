//! Background work: scan jobs claimed with a lease, run by workers in
//! `gatehouse serve` or `gatehouse worker`.
//!
//! A job moves its version `pending → scanning → in_review` (or `scan_failed`
//! after [`WorkerConfig::max_attempts`] attempts with exponential backoff).
//! Completing a job is conditional on still holding its lease and the scan row
//! is unique per job, so a job whose worker died mid-crawl is run again by
//! another worker and still stores exactly one completed scan.

use std::time::{Duration, Instant};

use anyhow::Context as _;
use chrono::Utc;
use serde_json::{Value, json};
use tokio::sync::watch;

use crate::analysis::{self, Category, Finding, Report, ReportServer, RulesConfig, Severity};
use crate::discovery::{self, CrawlOptions, TransportChoice};
use crate::registry::lifecycle::Status;
use crate::snapshot::{Snapshot, Target};
use crate::storage::audit::{self, AuditEntry};
use crate::storage::jobs::{self, Job};
use crate::storage::versions::{self, NewScan, VersionRow};
use crate::storage::{Db, now, ts};

/// How workers behave.
#[derive(Debug, Clone)]
pub struct WorkerConfig {
    /// Identifies this worker in the `jobs.locked_by` column.
    pub worker_id: String,
    /// How long a claim lasts without a heartbeat.
    pub lease: Duration,
    /// Attempts before a scan is declared failed.
    pub max_attempts: i64,
    /// First retry delay; doubled on every further attempt.
    pub backoff_base: Duration,
    /// Sleep between polls of an empty queue.
    pub poll_interval: Duration,
    /// Crawl settings (SSRF policy, bounds); headers and transport are set per remote.
    pub crawl: CrawlOptions,
    /// Analysis configuration.
    pub rules: RulesConfig,
    /// The analysis run on each snapshot ([`analysis::analyze`]); a test
    /// swaps in one that panics to check that a panic cannot strand a version.
    pub analyzer: Analyzer,
    /// Opens the crawl credentials publishers stored (`registry::crawl_secrets`);
    /// `None`: servers are crawled without them.
    pub secrets: Option<std::sync::Arc<crate::registry::crawl_secrets::Vault>>,
    /// Signs the allowlists a monitor rescan changes; monitor jobs fail
    /// without it (set by `startup`).
    pub allowlists: Option<std::sync::Arc<crate::signing::Publisher>>,
    /// What a monitor rescan does with drift and unreachable servers.
    pub monitor: crate::monitor::Policy,
    /// Where package servers are installed and how they are sandboxed;
    /// `None`: they are reported as not crawled (GH-PRO-005).
    pub packages: Option<crate::packages::PackagesConfig>,
    /// Verify who runs each remote (Server Card, challenge, namespace domain)
    /// after its crawl; unverified remotes get GH-OWN-003.
    pub verify_remotes: bool,
}

/// The analysis a worker runs on a crawled snapshot.
pub type Analyzer = fn(&Snapshot, &analysis::Context, &RulesConfig) -> Report;

impl WorkerConfig {
    /// Defaults for a process, with a unique worker id.
    pub fn new(crawl: CrawlOptions, rules: RulesConfig) -> WorkerConfig {
        WorkerConfig {
            worker_id: format!("{}-{}", hostname(), &uuid::Uuid::new_v4().to_string()[..8]),
            // Short, because a running job renews it (see `crawl_with_heartbeat`):
            // a killed worker's job is picked up again within seconds.
            lease: Duration::from_secs(15),
            max_attempts: 3,
            backoff_base: Duration::from_secs(10),
            poll_interval: Duration::from_millis(500),
            crawl,
            rules,
            analyzer: analysis::analyze,
            secrets: None,
            allowlists: None,
            monitor: crate::monitor::Policy::default(),
            packages: None,
            verify_remotes: false,
        }
    }
}

fn hostname() -> String {
    std::env::var("HOSTNAME")
        .ok()
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| format!("pid{}", std::process::id()))
}

/// What one call of [`run_next`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The queue had nothing due.
    Idle,
    /// A job was run (or handed back for retry).
    Ran,
}

/// Claims and runs the next due job, if any.
pub async fn run_next(db: &Db, config: &WorkerConfig) -> anyhow::Result<Outcome> {
    let lease = chrono::Duration::from_std(config.lease).context("lease")?;
    let Some(job) = jobs::claim(db, &config.worker_id, lease)
        .await
        .context("claiming a job")?
    else {
        return Ok(Outcome::Idle);
    };
    tracing::info!(job = %job.id, kind = %job.kind, version = %job.version_id, attempt = job.attempts, "job claimed");
    let version = versions::get_version_by_id(db, &job.version_id)
        .await?
        .context("the job's version is gone")?;
    if job.kind == jobs::kinds::MONITOR && crate::monitor::applies(&version) {
        if let Err(e) = crate::monitor::run_rescan(db, config, &job, &version).await {
            // Recorded on the job only: the version's scans and status are the
            // monitor's to change, and the next scheduled rescan tries again.
            tracing::error!(job = %job.id, error = %format!("{e:#}"), "monitor rescan failed");
            let mut tx = db.begin().await?;
            jobs::fail(&mut tx, &job.id, &config.worker_id, &format!("{e:#}")).await?;
            tx.commit().await?;
        }
        return Ok(Outcome::Ran);
    }
    if let Err(e) = run_scan(db, config, &job, &version).await {
        let snapshot = e.downcast_ref::<Permanent>().map(|p| p.1.clone());
        let permanent = snapshot.is_some();
        tracing::error!(job = %job.id, error = %format!("{e:#}"), permanent, "job failed");
        let (error, snapshot) = (format!("{e:#}"), snapshot.flatten());
        let failure = Failure {
            error: &error,
            permanent,
            snapshot: snapshot.as_deref(),
        };
        retry_or_fail(db, config, &job, &version, failure).await?;
    }
    Ok(Outcome::Ran)
}

/// Runs jobs until none is due (tests and `gatehouse worker --once`).
pub async fn run_until_idle(db: &Db, config: &WorkerConfig) -> anyhow::Result<usize> {
    let mut ran = 0;
    while run_next(db, config).await? == Outcome::Ran {
        ran += 1;
    }
    Ok(ran)
}

/// Runs `concurrency` worker loops until `shutdown` turns true; each loop
/// finishes its current job before stopping.
pub async fn run_workers(
    db: Db,
    config: WorkerConfig,
    concurrency: usize,
    shutdown: watch::Receiver<bool>,
) {
    let mut handles = Vec::new();
    for i in 0..concurrency.max(1) {
        let (db, mut config, mut shutdown) = (db.clone(), config.clone(), shutdown.clone());
        config.worker_id = format!("{}/{i}", config.worker_id);
        handles.push(tokio::spawn(async move {
            loop {
                if *shutdown.borrow() {
                    break;
                }
                match run_next(&db, &config).await {
                    Ok(Outcome::Ran) => continue,
                    Ok(Outcome::Idle) => {}
                    Err(e) => tracing::error!(error = %format!("{e:#}"), "worker loop error"),
                }
                tokio::select! {
                    _ = tokio::time::sleep(config.poll_interval) => {}
                    _ = shutdown.changed() => {}
                }
            }
        }));
    }
    // Rescan scheduling: one loop per process (rows are claimed, so many
    // processes share the passes without double work).
    handles.push(tokio::spawn(crate::monitor::run_scheduler(
        db.clone(),
        config.monitor.clone(),
        shutdown.clone(),
    )));
    // Live watching: one loop per process; versions are shared out by lease
    // rows (`storage::watch`), so each stream is held by one process.
    handles.push(tokio::spawn(crate::monitor::watch::run_watchers(
        db.clone(),
        config.clone(),
        format!("{}/watch", config.worker_id),
        shutdown.clone(),
    )));
    // Webhook deliveries: one loop per process, beside the scan loops.
    handles.push(tokio::spawn(crate::monitor::webhooks::run_deliveries(
        db.clone(),
        config.crawl.network.clone(),
        format!("{}/webhooks", config.worker_id),
        config.backoff_base,
        config.poll_interval,
        shutdown.clone(),
    )));
    for h in handles {
        let _ = h.await;
    }
    tracing::info!("workers stopped");
}

/// Crawls `url` for `version` with the worker's bounds and the server's stored
/// crawl credentials (a credential that cannot be unsealed is a permanent
/// failure), renewing the job's lease meanwhile, and binds the credentials to
/// the issuer that first gave them a token. Used by first scans and by the
/// monitor's rescans alike, so a rescan of a server behind OAuth authenticates
/// as its first scan did.
pub(crate) async fn crawl_remote(
    db: &Db,
    config: &WorkerConfig,
    job: &jobs::Job,
    version: &versions::VersionRow,
    doc: &serde_json::Value,
    url: &str,
    transport: TransportChoice,
) -> anyhow::Result<Snapshot> {
    let options = crawl_options(db, config, version, doc, url, transport).await?;
    let snapshot = crawl_with_heartbeat(db, config, job, url, &options).await?;
    // Credentials are bound to the issuer that first gave them a token.
    if let Some(issuer) = snapshot
        .crawl
        .as_ref()
        .and_then(|c| c.auth.as_ref())
        .and_then(|a| a.issuer.as_deref())
        && options.oauth.as_ref().is_some_and(|o| o.issuer.is_none())
    {
        crate::registry::crawl_secrets::bind_issuer(
            db,
            &version.server_id,
            &version.server_name,
            issuer,
        )
        .await?;
    }
    Ok(snapshot)
}

/// The crawl options of `version`'s remote `url`: the worker's policy and
/// bounds with the server's stored crawl credentials (a credential that
/// cannot be unsealed is a permanent failure). Crawls, bait-and-switch crawls
/// and the live watcher's streams all connect with these.
pub(crate) async fn crawl_options(
    db: &Db,
    config: &WorkerConfig,
    version: &versions::VersionRow,
    doc: &serde_json::Value,
    url: &str,
    transport: TransportChoice,
) -> anyhow::Result<CrawlOptions> {
    let mut options = config.crawl.clone();
    options.transport = transport;
    if let Some(vault) = &config.secrets {
        crate::registry::crawl_secrets::apply(
            db,
            vault,
            &version.server_id,
            doc,
            url,
            &mut options,
        )
        .await
        .map_err(|e| anyhow::Error::new(Permanent(e.to_string(), None)))?;
    }
    Ok(options)
}

/// Crawls (or, for package-only servers, skips crawling), analyses and stores the scan.
async fn run_scan(
    db: &Db,
    config: &WorkerConfig,
    job: &Job,
    version: &VersionRow,
) -> anyhow::Result<()> {
    if version.status == Status::Pending {
        let mut tx = db.begin().await?;
        if versions::set_status(&mut tx, &version.id, Status::Pending, Status::Scanning).await? {
            audit_transition(
                &mut tx,
                version,
                Status::Pending,
                Status::Scanning,
                json!({"job": job.id}),
            )
            .await?;
        }
        tx.commit().await?;
    }
    let started = Utc::now();
    let clock = Instant::now();
    let doc: Value = serde_json::from_str(&version.server_json).context("stored server.json")?;
    let server = ReportServer {
        name: version.server_name.clone(),
        version: version.version.clone(),
    };

    let (snapshot, report) = match pick_remote(&doc) {
        None => match &config.packages {
            None => (None, package_only_report(server)),
            Some(settings) => {
                let (snapshot, mut findings) =
                    scan_packages(db, config, job, settings, &doc, &version.server_name).await?;
                let report = match &snapshot {
                    Some(snapshot) => {
                        if let Some(error) = incomplete(snapshot) {
                            anyhow::bail!(error);
                        }
                        let ctx = crate::review::approved_context(db, &version.server_name).await?;
                        let analysed = analyze_guarded(config, snapshot, &ctx);
                        findings.extend(analysed.findings);
                        Report::new(server, findings)
                    }
                    None => Report::new(server, findings),
                };
                (snapshot, report)
            }
        },
        Some((url, transport)) => {
            let snapshot = crawl_remote(db, config, job, version, &doc, &url, transport).await?;
            // What was declared but not read was not scanned: fail closed (retried,
            // then `scan_failed`) rather than send a partial snapshot to review as clean.
            if let Some(error) = incomplete(&snapshot) {
                anyhow::bail!(error);
            }
            let ctx = crate::review::approved_context(db, &version.server_name).await?;
            let analysed = analyze_guarded(config, &snapshot, &ctx);
            let mut findings = analysed.findings;
            if config.verify_remotes {
                findings.extend(remote_ownership(db, config, version, &doc).await?);
            }
            let mut report = Report::new(server, findings);
            cross_check_identities(
                db,
                config,
                job,
                version,
                &doc,
                &url,
                transport,
                &snapshot,
                &mut report,
            )
            .await?;
            (Some(snapshot), report)
        }
    };
    let snapshot_text = snapshot
        .as_ref()
        .map(|s| serde_json::to_string(s).expect("snapshots serialise"));
    let report_text = serde_json::to_string(&report).expect("reports serialise");
    let max = report.summary.max_severity.map(|s| s.as_str());

    let mut tx = db.begin().await?;
    if !jobs::complete(&mut tx, &job.id, &config.worker_id).await? {
        // Our lease expired and another worker owns the job now; it will store the scan.
        tracing::warn!(job = %job.id, "lease lost; discarding this run's result");
        return Ok(());
    }
    let stored = versions::insert_scan(
        &mut tx,
        NewScan {
            version_id: &version.id,
            job_id: Some(&job.id),
            started_at: &ts(started),
            duration_ms: clock.elapsed().as_millis() as i64,
            snapshot: snapshot_text.as_deref(),
            report: Some(&report_text),
            max_severity: max,
            error: None,
        },
    )
    .await?;
    if stored {
        let current = versions::get_version_by_id_tx(&mut tx, &version.id)
            .await?
            .context("version vanished")?;
        let to = match current.status {
            Status::Pending | Status::Scanning => Some(Status::InReview),
            _ => None,
        };
        if let Some(to) = to {
            versions::set_status(&mut tx, &version.id, current.status, to).await?;
            audit_transition(
                &mut tx,
                version,
                current.status,
                to,
                json!({"job": job.id, "maxSeverity": max}),
            )
            .await?;
            crate::storage::webhooks::emit(
                &mut tx,
                "scanned",
                json!({"name": version.server_name, "version": version.version, "maxSeverity": max, "findings": report.findings.len()}),
            )
            .await?;
        }
    }
    tx.commit().await?;
    tracing::info!(job = %job.id, version = %version.id, findings = report.findings.len(), max_severity = ?max, "scan stored");
    Ok(())
}

/// Why a snapshot is not a complete scan: a declared list could not be read.
pub(crate) fn incomplete(snapshot: &Snapshot) -> Option<String> {
    let crawl = snapshot.crawl.as_ref()?;
    if crawl.unread.is_empty() {
        return None;
    }
    let cause: String = crawl
        .errors
        .first()
        .map(|e| format!(" ({}: {})", e.code, e.message))
        .unwrap_or_default()
        .chars()
        .take(300)
        .collect();
    Some(format!(
        "crawl incomplete: the declared list(s) {} could not be read{cause}",
        crawl.unread.join(", ")
    ))
}

/// Runs the analysis; a panic in it (a bug, never expected) becomes a scan
/// with one high "analysis failed" finding instead of a job that retries
/// forever and a version stuck in `scanning`. The reviewer sees that nothing
/// was analysed, and approving needs the acknowledgement that high findings
/// require.
pub(crate) fn analyze_guarded(
    config: &WorkerConfig,
    snapshot: &Snapshot,
    ctx: &analysis::Context,
) -> Report {
    let run = std::panic::AssertUnwindSafe(|| (config.analyzer)(snapshot, ctx, &config.rules));
    std::panic::catch_unwind(run).unwrap_or_else(|panic| {
        let detail = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".into());
        tracing::error!(panic = %detail, "analysis panicked; storing the scan as not analysed");
        Report::new(
            ReportServer::default(),
            vec![Finding {
                rule: crate::analysis::catalogue::ids::ANA_FAILED.into(),
                category: Category::Protocol,
                severity: Severity::High,
                target: Target::server(),
                field: "analysis".into(),
                message: "Analysis failed: the crawled capabilities were stored but not analysed; review them by hand".into(),
                evidence: crate::analysis::normalize::truncate(&detail, 200).to_string(),
            }],
        )
    })
}

/// Crawls while renewing the job's lease, so a long crawl is not taken over.
pub(crate) async fn crawl_with_heartbeat(
    db: &Db,
    config: &WorkerConfig,
    job: &Job,
    url: &str,
    options: &CrawlOptions,
) -> anyhow::Result<Snapshot> {
    with_heartbeat(db, config, job, discovery::crawl(url, options))
        .await?
        .map_err(|e| {
            let message = format!("crawl failed ({}): {e}", e.code);
            // A refused URL or policy will be refused again: no retry.
            if e.retryable {
                anyhow::anyhow!(message)
            } else {
                anyhow::Error::new(Permanent(message, auth_snapshot(&e)))
            }
        })
}

/// Runs `work` while renewing the job's lease, so long work is not taken over.
pub(crate) async fn with_heartbeat<T>(
    db: &Db,
    config: &WorkerConfig,
    job: &Job,
    work: impl std::future::Future<Output = T>,
) -> anyhow::Result<T> {
    let lease = chrono::Duration::from_std(config.lease)?;
    tokio::pin!(work);
    let mut beat = tokio::time::interval(config.lease / 3);
    beat.tick().await;
    loop {
        tokio::select! {
            result = &mut work => return Ok(result),
            _ = beat.tick() => {
                if !jobs::extend_lease(db, &job.id, &config.worker_id, lease).await? {
                    anyhow::bail!("lease lost during the crawl");
                }
            }
        }
    }
}

/// Verifies who runs each remote of the version (`registry::ownership`),
/// records the states, and returns a `medium` GH-OWN-003 finding for each
/// remote nothing proves is the publisher's.
async fn remote_ownership(
    db: &Db,
    config: &WorkerConfig,
    version: &VersionRow,
    doc: &Value,
) -> anyhow::Result<Vec<Finding>> {
    let Some((server_id, publisher_id, _)) =
        versions::server_named(db.pool(), &version.server_name).await?
    else {
        return Ok(Vec::new());
    };
    let states = crate::registry::ownership::verify_remotes(
        db,
        &server_id,
        &version.server_name,
        &publisher_id,
        doc,
        &config.crawl.network,
    )
    .await?;
    Ok(states
        .into_iter()
        .filter(|(_, state)| !state.verified())
        .map(|(url, _)| Finding {
            rule: crate::analysis::catalogue::ids::OWN_REMOTE.into(),
            category: Category::Impersonation,
            severity: Severity::Medium,
            target: Target::server(),
            field: "remotes".into(),
            message: "Nothing proves that the publisher runs this remote: no Server Card names the server, no challenge token is served on its origin, and its host is outside the publisher's namespaces".into(),
            evidence: crate::analysis::normalize::visible(crate::analysis::normalize::truncate(&url, 300)),
        })
        .collect())
}

/// Most package entries of one server.json scanned.
const MAX_PACKAGES: usize = 4;

/// Scans the packages of a server with no crawlable remote: each npm and
/// PyPI package is installed, checked for ownership and crawled in the
/// sandbox (`packages::scan`); other package types get an `info` finding.
/// Returns the first package's snapshot and every package's findings. A
/// package that cannot be crawled fails the job: retried when the registry
/// failed, at once `scan_failed` when the sandboxed server itself failed.
async fn scan_packages(
    db: &Db,
    config: &WorkerConfig,
    job: &Job,
    settings: &crate::packages::PackagesConfig,
    doc: &Value,
    server_name: &str,
) -> anyhow::Result<(Option<Snapshot>, Vec<Finding>)> {
    let entries = doc
        .get("packages")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let mut snapshot = None;
    let mut findings = Vec::new();
    for entry in entries.iter().take(MAX_PACKAGES) {
        let package = crate::packages::PackageRef::from_server_json(entry)
            .map_err(|e| anyhow::Error::new(Permanent(format!("package refused: {e}"), None)))?;
        let scanned = with_heartbeat(
            db,
            config,
            job,
            crate::packages::scan(&package, Some(server_name), settings, &config.crawl),
        )
        .await?;
        findings.extend(scanned.findings);
        if let Some(error) = scanned.error {
            if scanned.retryable {
                anyhow::bail!(error);
            }
            // A source-only package is a finding, not a failure: the rest is reported.
            if findings
                .iter()
                .any(|f| f.rule == crate::analysis::catalogue::ids::PKG_SOURCE_ONLY)
            {
                continue;
            }
            return Err(anyhow::Error::new(Permanent(error, None)));
        }
        if snapshot.is_none() {
            snapshot = scanned.snapshot;
        }
    }
    if entries.is_empty() {
        return Ok((None, package_only_report(ReportServer::default()).findings));
    }
    Ok((snapshot, findings))
}

/// The bait-and-switch check of a crawled remote (`monitor::identities`):
/// the same remote crawled again under other client names, within the
/// configured bounds, while the job's lease is renewed. Its findings join the
/// report (and its summary).
#[allow(clippy::too_many_arguments)]
pub(crate) async fn cross_check_identities(
    db: &Db,
    config: &WorkerConfig,
    job: &Job,
    version: &versions::VersionRow,
    doc: &serde_json::Value,
    url: &str,
    transport: TransportChoice,
    snapshot: &Snapshot,
    report: &mut Report,
) -> anyhow::Result<()> {
    let settings = &config.monitor.identities;
    if settings.clients.is_empty() {
        return Ok(());
    }
    let options = crawl_options(db, config, version, doc, url, transport).await?;
    let found = with_heartbeat(
        db,
        config,
        job,
        crate::monitor::identities::cross_check(url, &options, snapshot, settings),
    )
    .await?;
    if !found.is_empty() {
        report.findings.extend(found);
        report.summary = analysis::Summary::of(&report.findings);
    }
    Ok(())
}

/// The remote to crawl: the first streamable-http one, else the first SSE one.
/// Remotes whose URL still has `{variables}` need user input and cannot be crawled.
pub(crate) fn pick_remote(doc: &Value) -> Option<(String, TransportChoice)> {
    let remotes = doc.get("remotes")?.as_array()?;
    let usable = |kind: &str| {
        remotes.iter().find_map(|r| {
            let url = r.get("url")?.as_str()?;
            (r.get("type")?.as_str()? == kind && !url.contains('{')).then(|| url.to_string())
        })
    };
    usable("streamable-http")
        .map(|u| (u, TransportChoice::StreamableHttp))
        .or_else(|| usable("sse").map(|u| (u, TransportChoice::Sse)))
}

/// The report of a version that has no crawlable remote.
fn package_only_report(server: ReportServer) -> Report {
    Report::new(
        server,
        vec![Finding {
            rule: crate::analysis::catalogue::ids::PRO_NOT_CRAWLED.into(),
            category: Category::Protocol,
            severity: Severity::Info,
            target: Target::server(),
            field: "remotes".into(),
            message: "The server has no crawlable remote; its packages were not run, so its capabilities are unknown".into(),
            evidence: String::new(),
        }],
    )
}

/// A failure that retrying cannot fix (the URL or the network policy refused
/// the crawl, the server requires credentials nobody supplied), with the
/// snapshot JSON to store with the failed scan, if any.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct Permanent(String, Option<String>);

/// The snapshot of a crawl that a server refused for want of OAuth
/// credentials: no capabilities, but the scopes it asked for (`crawl.auth`)
/// and the failure, for the reviewer and the publisher adding credentials.
fn auth_snapshot(failure: &discovery::CrawlFailure) -> Option<String> {
    let auth = failure.auth.clone()?;
    let snapshot = Snapshot {
        crawl: Some(crate::snapshot::CrawlInfo {
            auth: Some(auth),
            errors: vec![crate::snapshot::CrawlError {
                code: failure.code.to_string(),
                message: failure.message.clone(),
                target: None,
            }],
            ..Default::default()
        }),
        ..Default::default()
    };
    serde_json::to_string(&snapshot).ok()
}

/// Why a job failed.
struct Failure<'a> {
    error: &'a str,
    permanent: bool,
    snapshot: Option<&'a str>,
}

async fn retry_or_fail(
    db: &Db,
    config: &WorkerConfig,
    job: &Job,
    version: &VersionRow,
    failure: Failure<'_>,
) -> anyhow::Result<()> {
    let Failure {
        error,
        permanent,
        snapshot,
    } = failure;
    let mut tx = db.begin().await?;
    if job.attempts < config.max_attempts && !permanent {
        let delay = config.backoff_base * 2u32.saturating_pow((job.attempts - 1).max(0) as u32);
        jobs::retry_later(
            &mut tx,
            &job.id,
            &config.worker_id,
            chrono::Duration::from_std(delay)?,
            error,
        )
        .await?;
        tracing::warn!(job = %job.id, attempt = job.attempts, retry_in_s = delay.as_secs_f64(), "scan will be retried");
    } else if jobs::fail(&mut tx, &job.id, &config.worker_id, error).await? {
        let started = now();
        versions::insert_scan(
            &mut tx,
            NewScan {
                version_id: &version.id,
                job_id: Some(&job.id),
                started_at: &started,
                duration_ms: 0,
                snapshot,
                report: None,
                max_severity: None,
                error: Some(error),
            },
        )
        .await?;
        let current = versions::get_version_by_id_tx(&mut tx, &version.id)
            .await?
            .context("version vanished")?;
        if matches!(current.status, Status::Pending | Status::Scanning) {
            versions::set_status(&mut tx, &version.id, current.status, Status::ScanFailed).await?;
            audit_transition(
                &mut tx,
                version,
                current.status,
                Status::ScanFailed,
                json!({"job": job.id, "error": error}),
            )
            .await?;
        }
    }
    tx.commit().await?;
    Ok(())
}

async fn audit_transition(
    tx: &mut crate::storage::Tx,
    v: &VersionRow,
    from: Status,
    to: Status,
    mut detail: Value,
) -> Result<(), sqlx::Error> {
    detail["from"] = json!(from.as_str());
    detail["to"] = json!(to.as_str());
    audit::append(
        tx,
        AuditEntry {
            actor: "system:worker",
            action: "version.status",
            subject: &format!("{}@{}", v.server_name, v.version),
            version_id: Some(&v.id),
            detail,
        },
    )
    .await
}
