//! Rows of the monitor (issue 14): the per-version verdict of the latest
//! rescan against the approved pins (`monitor_state`), and the scan an
//! approval rests on.

use sqlx::Row;
use sqlx::any::AnyRow;

use super::versions::ScanRow;
use super::{Db, Tx};

/// The monitor's verdict on one version.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MonitorRow {
    /// The version.
    pub version_id: String,
    /// `ok`, `changed` or `suspended`.
    pub state: String,
    /// Why it is suspended: `drift` or `unreachable`.
    pub reason: Option<String>,
    /// Failed rescans in a row.
    pub failures: i64,
    /// The last rescan's error, if it failed.
    pub last_error: Option<String>,
    /// JSON list of the pinned capabilities left out of the allowlist (`[{kind,name}]`).
    pub dropped: String,
    /// JSON of the diff from the approved snapshot, when there was a change.
    pub diff: Option<String>,
    /// JSON list of the high or critical findings the change introduced.
    pub findings: String,
    /// When the last rescan finished.
    pub checked_at: String,
    /// When the verdict last changed.
    pub changed_at: Option<String>,
}

const COLUMNS: &str = "m.version_id, m.state, m.reason, m.failures, m.last_error, m.dropped, m.diff, m.findings, m.checked_at, m.changed_at";

fn from_row(r: &AnyRow) -> Result<MonitorRow, sqlx::Error> {
    Ok(MonitorRow {
        version_id: r.try_get("version_id")?,
        state: r.try_get("state")?,
        reason: r.try_get("reason")?,
        failures: r.try_get("failures")?,
        last_error: r.try_get("last_error")?,
        dropped: r.try_get("dropped")?,
        diff: r.try_get("diff")?,
        findings: r.try_get("findings")?,
        checked_at: r.try_get("checked_at")?,
        changed_at: r.try_get("changed_at")?,
    })
}

/// The verdict of a version, if it was ever rescanned (inside `tx`).
pub async fn get(tx: &mut Tx, version_id: &str) -> Result<Option<MonitorRow>, sqlx::Error> {
    let sql = format!("SELECT {COLUMNS} FROM monitor_state m WHERE m.version_id = $1");
    let row = sqlx::query(&sql)
        .bind(version_id)
        .fetch_optional(tx.conn())
        .await?;
    row.as_ref().map(from_row).transpose()
}

/// The verdict of a version (outside a transaction).
pub async fn read(db: &Db, version_id: &str) -> Result<Option<MonitorRow>, sqlx::Error> {
    let sql = format!("SELECT {COLUMNS} FROM monitor_state m WHERE m.version_id = $1");
    let row = sqlx::query(&sql)
        .bind(version_id)
        .fetch_optional(db.pool())
        .await?;
    row.as_ref().map(from_row).transpose()
}

/// Stores a verdict (replacing the previous one).
pub async fn put(tx: &mut Tx, m: &MonitorRow) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO monitor_state (version_id, state, reason, failures, last_error, dropped, diff, findings, checked_at, changed_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
         ON CONFLICT (version_id) DO UPDATE SET state = excluded.state, reason = excluded.reason,
           failures = excluded.failures, last_error = excluded.last_error, dropped = excluded.dropped,
           diff = excluded.diff, findings = excluded.findings, checked_at = excluded.checked_at,
           changed_at = excluded.changed_at",
    )
    .bind(&m.version_id)
    .bind(&m.state)
    .bind(&m.reason)
    .bind(m.failures)
    .bind(&m.last_error)
    .bind(&m.dropped)
    .bind(&m.diff)
    .bind(&m.findings)
    .bind(&m.checked_at)
    .bind(&m.changed_at)
    .execute(tx.conn())
    .await?;
    Ok(())
}

/// Forgets a version's verdict: a reviewer's decision (a re-approval) starts afresh.
pub async fn clear(tx: &mut Tx, version_id: &str) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM monitor_state WHERE version_id = $1")
        .bind(version_id)
        .execute(tx.conn())
        .await?;
    Ok(())
}

/// A verdict with the version it is about.
#[derive(Debug, Clone)]
pub struct AttentionRow {
    /// The verdict.
    pub monitor: MonitorRow,
    /// Server name.
    pub server_name: String,
    /// Version string.
    pub version: String,
    /// The version's lifecycle status.
    pub status: crate::registry::lifecycle::Status,
}

/// Versions whose verdict is not `ok` (`changed` or `suspended`), newest change first.
pub async fn list_attention(db: &Db, limit: i64) -> Result<Vec<AttentionRow>, sqlx::Error> {
    let sql = format!(
        "SELECT {COLUMNS}, v.server_name, v.version, v.status FROM monitor_state m JOIN versions v ON v.id = m.version_id
         WHERE m.state <> 'ok' ORDER BY m.changed_at DESC, m.version_id LIMIT $1"
    );
    let rows = sqlx::query(&sql).bind(limit).fetch_all(db.pool()).await?;
    rows.iter()
        .map(|r| {
            Ok(AttentionRow {
                monitor: from_row(r)?,
                server_name: r.try_get("server_name")?,
                version: r.try_get("version")?,
                status: super::versions::status_of(r)?,
            })
        })
        .collect()
}

/// The scan an approval rests on: the newest successful scan of the version
/// that finished no later than the approval. Later (monitor) scans never
/// replace it; a re-approval moves it forward.
pub async fn approved_scan(
    db: &Db,
    version_id: &str,
    approved_at: &str,
) -> Result<Option<ScanRow>, sqlx::Error> {
    let row = sqlx::query(
        "SELECT id, started_at, finished_at, duration_ms, snapshot, report, max_severity, error FROM scans
         WHERE version_id = $1 AND finished_at <= $2 AND error IS NULL
         ORDER BY finished_at DESC LIMIT 1",
    )
    .bind(version_id)
    .bind(approved_at)
    .fetch_optional(db.pool())
    .await?;
    row.map(|r| {
        Ok(ScanRow {
            id: r.try_get("id")?,
            started_at: r.try_get("started_at")?,
            finished_at: r.try_get("finished_at")?,
            duration_ms: r.try_get("duration_ms")?,
            snapshot: r.try_get("snapshot")?,
            report: r.try_get("report")?,
            max_severity: r.try_get("max_severity")?,
            error: r.try_get("error")?,
        })
    })
    .transpose()
}

/// Creates a schedule row for every approved version without one; `first_run`
/// gives each its first due time (jittered by the caller). Returns how many were added.
pub async fn ensure_schedules(
    db: &Db,
    first_run: impl Fn() -> chrono::DateTime<chrono::Utc>,
) -> Result<usize, sqlx::Error> {
    let missing = sqlx::query(
        "SELECT v.id FROM versions v LEFT JOIN rescan_schedule s ON s.version_id = v.id
         WHERE v.status = 'approved' AND s.version_id IS NULL",
    )
    .fetch_all(db.pool())
    .await?;
    let mut added = 0;
    for r in &missing {
        let id: String = r.try_get("id")?;
        let mut tx = db.begin().await?;
        let done = sqlx::query(
            "INSERT INTO rescan_schedule (version_id, next_run_at) VALUES ($1, $2) ON CONFLICT (version_id) DO NOTHING",
        )
        .bind(&id)
        .bind(super::ts(first_run()))
        .execute(tx.conn())
        .await?;
        tx.commit().await?;
        added += done.rows_affected() as usize;
    }
    Ok(added)
}

/// A schedule row claimed for this pass.
#[derive(Debug, Clone)]
pub struct DueRescan {
    /// The version.
    pub version_id: String,
    /// Its server's interval override, if any.
    pub interval_secs: Option<i64>,
    /// Whether it is still watched (approved, or suspended by the monitor).
    pub watched: bool,
    /// Whether a job of the version is already queued or running.
    pub busy: bool,
    /// The shortest `ttlMs` hint of its last rescan, in seconds.
    pub ttl_secs: Option<i64>,
}

/// Claims up to `limit` due schedule rows inside `tx` (`FOR UPDATE SKIP LOCKED`
/// on PostgreSQL: another worker's pass skips them). The caller pushes each
/// forward with [`reschedule`] or drops it with [`unschedule`] before committing.
pub async fn claim_due(
    tx: &mut Tx,
    backend: super::Backend,
    limit: i64,
) -> Result<Vec<DueRescan>, sqlx::Error> {
    let lock = match backend {
        super::Backend::Postgres => "FOR UPDATE OF s SKIP LOCKED",
        super::Backend::Sqlite => "",
    };
    let sql = format!(
        "SELECT s.version_id, i.interval_secs, s.ttl_secs,
                CASE WHEN v.status = 'approved' OR (v.status = 'suspended' AND m.state = 'suspended') THEN 1 ELSE 0 END AS watched,
                CASE WHEN EXISTS (SELECT 1 FROM jobs j WHERE j.version_id = s.version_id AND j.state IN ('queued', 'running')) THEN 1 ELSE 0 END AS busy
         FROM rescan_schedule s
         JOIN versions v ON v.id = s.version_id
         LEFT JOIN monitor_intervals i ON i.server_id = v.server_id
         LEFT JOIN monitor_state m ON m.version_id = s.version_id
         WHERE s.next_run_at <= $1
         ORDER BY s.next_run_at LIMIT $2 {lock}"
    );
    let rows = sqlx::query(&sql)
        .bind(super::now())
        .bind(limit)
        .fetch_all(tx.conn())
        .await?;
    rows.iter()
        .map(|r| {
            Ok(DueRescan {
                version_id: r.try_get("version_id")?,
                interval_secs: r.try_get("interval_secs")?,
                watched: r.try_get::<i64, _>("watched")? != 0,
                busy: r.try_get::<i64, _>("busy")? != 0,
                ttl_secs: r.try_get("ttl_secs")?,
            })
        })
        .collect()
}

/// Sets a claimed row's next due time.
pub async fn reschedule(
    tx: &mut Tx,
    version_id: &str,
    next: chrono::DateTime<chrono::Utc>,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE rescan_schedule SET next_run_at = $1, last_run_at = $2 WHERE version_id = $3",
    )
    .bind(super::ts(next))
    .bind(super::now())
    .bind(version_id)
    .execute(tx.conn())
    .await?;
    Ok(())
}

/// Drops the schedule of a version no longer watched (rejected, revoked, …).
pub async fn unschedule(tx: &mut Tx, version_id: &str) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM rescan_schedule WHERE version_id = $1")
        .bind(version_id)
        .execute(tx.conn())
        .await?;
    Ok(())
}

/// Sets (or with `None` clears) a server's rescan interval.
pub async fn set_interval(
    tx: &mut Tx,
    server_id: &str,
    secs: Option<i64>,
) -> Result<(), sqlx::Error> {
    match secs {
        Some(secs) => {
            sqlx::query(
                "INSERT INTO monitor_intervals (server_id, interval_secs) VALUES ($1, $2)
                 ON CONFLICT (server_id) DO UPDATE SET interval_secs = excluded.interval_secs",
            )
            .bind(server_id)
            .bind(secs)
            .execute(tx.conn())
            .await?;
        }
        None => {
            sqlx::query("DELETE FROM monitor_intervals WHERE server_id = $1")
                .bind(server_id)
                .execute(tx.conn())
                .await?;
        }
    }
    Ok(())
}

/// Moves every schedule row's due time to now (tests, and an operator's "rescan all").
pub async fn make_all_due(db: &Db) -> Result<(), sqlx::Error> {
    let mut tx = db.begin().await?;
    sqlx::query("UPDATE rescan_schedule SET next_run_at = $1")
        .bind(super::now())
        .execute(tx.conn())
        .await?;
    tx.commit().await
}
