//! Rows of live watching (issue 14): which worker process holds the
//! change-notification stream of which approved version (`watch_leases`),
//! and the per-server drift policy (`monitor_policies`).
//!
//! Ownership across processes: every process runs one watcher loop
//! (`monitor::watch::run_watchers`) that claims free rows — no owner, or a
//! lease that ran out — `FOR UPDATE SKIP LOCKED` on PostgreSQL (SQLite has one
//! writer at a time), up to its bound of open streams, and renews the leases
//! of the rows it holds on every tick. Two processes never hold the same
//! version; a process that dies loses its rows when their leases run out.

use sqlx::Row;

use super::{Backend, Db, Tx, now, ts};

/// Approved versions that have no watch row yet, with their `server.json`
/// and the snapshot of their newest successful scan (the caller decides
/// whether it declared `listChanged`). At most `limit`.
pub async fn unlooked(
    db: &Db,
    limit: i64,
) -> Result<Vec<(String, String, Option<String>)>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT v.id, v.server_json,
                (SELECT s.snapshot FROM scans s WHERE s.version_id = v.id AND s.error IS NULL
                 ORDER BY s.finished_at DESC LIMIT 1) AS snapshot
         FROM versions v LEFT JOIN watch_leases w ON w.version_id = v.id
         WHERE v.status = 'approved' AND w.version_id IS NULL
         ORDER BY v.id LIMIT $1",
    )
    .bind(limit)
    .fetch_all(db.pool())
    .await?;
    rows.iter()
        .map(|r| {
            Ok((
                r.try_get("id")?,
                r.try_get("server_json")?,
                r.try_get("snapshot")?,
            ))
        })
        .collect()
}

/// Records that a version was looked at: `listens` when it has a stream to hold.
pub async fn add(db: &Db, version_id: &str, listens: bool) -> Result<(), sqlx::Error> {
    let mut tx = db.begin().await?;
    sqlx::query(
        "INSERT INTO watch_leases (version_id, listens) VALUES ($1, $2) ON CONFLICT (version_id) DO NOTHING",
    )
    .bind(version_id)
    .bind(i64::from(listens))
    .execute(tx.conn())
    .await?;
    tx.commit().await
}

/// Forgets the rows of versions no longer approved (rejected, revoked,
/// suspended, …): their streams are closed by their holders on the next tick.
/// A re-approval looks at the version afresh.
pub async fn forget_unapproved(db: &Db) -> Result<u64, sqlx::Error> {
    let mut tx = db.begin().await?;
    let done = sqlx::query(
        "DELETE FROM watch_leases WHERE version_id IN
           (SELECT v.id FROM versions v WHERE v.status <> 'approved')",
    )
    .execute(tx.conn())
    .await?;
    tx.commit().await?;
    Ok(done.rows_affected())
}

/// Renews `owner`'s leases until `until` and returns the versions it still
/// holds (a row taken over after its lease ran out is not among them).
pub async fn renew(
    db: &Db,
    owner: &str,
    until: chrono::DateTime<chrono::Utc>,
) -> Result<Vec<String>, sqlx::Error> {
    let mut tx = db.begin().await?;
    sqlx::query("UPDATE watch_leases SET lease_until = $1 WHERE owner = $2")
        .bind(ts(until))
        .bind(owner)
        .execute(tx.conn())
        .await?;
    let rows = sqlx::query("SELECT version_id FROM watch_leases WHERE owner = $1")
        .bind(owner)
        .fetch_all(tx.conn())
        .await?;
    tx.commit().await?;
    rows.iter().map(|r| r.try_get("version_id")).collect()
}

/// Claims up to `limit` free rows that listen (no owner, or an expired lease)
/// for `owner` until `until`; returns their versions.
pub async fn claim(
    db: &Db,
    owner: &str,
    limit: i64,
    until: chrono::DateTime<chrono::Utc>,
) -> Result<Vec<String>, sqlx::Error> {
    if limit <= 0 {
        return Ok(Vec::new());
    }
    let lock = match db.backend() {
        Backend::Postgres => "FOR UPDATE SKIP LOCKED",
        Backend::Sqlite => "",
    };
    let mut tx = db.begin().await?;
    let sql = format!(
        "SELECT version_id FROM watch_leases
         WHERE listens = 1 AND (lease_until IS NULL OR lease_until < $1)
         ORDER BY version_id LIMIT $2 {lock}"
    );
    let rows = sqlx::query(&sql)
        .bind(now())
        .bind(limit)
        .fetch_all(tx.conn())
        .await?;
    let mut claimed = Vec::new();
    for r in &rows {
        let id: String = r.try_get("version_id")?;
        sqlx::query("UPDATE watch_leases SET owner = $1, lease_until = $2 WHERE version_id = $3")
            .bind(owner)
            .bind(ts(until))
            .bind(&id)
            .execute(tx.conn())
            .await?;
        claimed.push(id);
    }
    tx.commit().await?;
    Ok(claimed)
}

/// Gives up `owner`'s rows (a process shutting down), so others take them at once.
pub async fn release_all(db: &Db, owner: &str) -> Result<(), sqlx::Error> {
    let mut tx = db.begin().await?;
    sqlx::query("UPDATE watch_leases SET owner = NULL, lease_until = NULL WHERE owner = $1")
        .bind(owner)
        .execute(tx.conn())
        .await?;
    tx.commit().await
}

/// Marks a version as having nothing to hold (the server declared no
/// `listChanged` when the stream was opened).
pub async fn stop_listening(db: &Db, version_id: &str) -> Result<(), sqlx::Error> {
    let mut tx = db.begin().await?;
    sqlx::query(
        "UPDATE watch_leases SET listens = 0, owner = NULL, lease_until = NULL WHERE version_id = $1",
    )
    .bind(version_id)
    .execute(tx.conn())
    .await?;
    tx.commit().await
}

/// How many rows each owner holds (tests and the benchmark).
pub async fn holders(db: &Db) -> Result<Vec<(String, i64)>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT owner, COUNT(*) AS n FROM watch_leases WHERE owner IS NOT NULL AND lease_until >= $1 GROUP BY owner ORDER BY owner",
    )
    .bind(now())
    .fetch_all(db.pool())
    .await?;
    rows.iter()
        .map(|r| Ok((r.try_get("owner")?, r.try_get("n")?)))
        .collect()
}

/// Queues a monitor rescan of a version unless one is already queued (a
/// running one may have read the lists before the change: it does not
/// count). Returns whether a job was queued.
pub async fn queue_rescan(db: &Db, version_id: &str) -> Result<bool, sqlx::Error> {
    let mut tx = db.begin().await?;
    let queued: i64 =
        sqlx::query("SELECT COUNT(*) AS n FROM jobs WHERE version_id = $1 AND state = 'queued'")
            .bind(version_id)
            .fetch_one(tx.conn())
            .await?
            .try_get("n")?;
    if queued > 0 {
        tx.commit().await?;
        return Ok(false);
    }
    super::jobs::enqueue(&mut tx, super::jobs::kinds::MONITOR, version_id).await?;
    tx.commit().await?;
    Ok(true)
}

/// A server's drift policy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PolicyRow {
    /// `suspend` or `narrow`.
    pub on_drift: String,
    /// Whether a matching rescan reinstates a version the monitor suspended.
    pub reinstate: bool,
}

/// The drift policy of a server, if an admin set one.
pub async fn policy(tx: &mut Tx, server_id: &str) -> Result<Option<PolicyRow>, sqlx::Error> {
    let row = sqlx::query("SELECT on_drift, reinstate FROM monitor_policies WHERE server_id = $1")
        .bind(server_id)
        .fetch_optional(tx.conn())
        .await?;
    row.map(|r| {
        Ok(PolicyRow {
            on_drift: r.try_get("on_drift")?,
            reinstate: r.try_get::<i64, _>("reinstate")? != 0,
        })
    })
    .transpose()
}

/// Sets (or with `None` clears) a server's drift policy.
pub async fn set_policy(
    tx: &mut Tx,
    server_id: &str,
    policy: Option<&PolicyRow>,
) -> Result<(), sqlx::Error> {
    match policy {
        Some(p) => {
            sqlx::query(
                "INSERT INTO monitor_policies (server_id, on_drift, reinstate) VALUES ($1, $2, $3)
                 ON CONFLICT (server_id) DO UPDATE SET on_drift = excluded.on_drift, reinstate = excluded.reinstate",
            )
            .bind(server_id)
            .bind(&p.on_drift)
            .bind(i64::from(p.reinstate))
            .execute(tx.conn())
            .await?;
        }
        None => {
            sqlx::query("DELETE FROM monitor_policies WHERE server_id = $1")
                .bind(server_id)
                .execute(tx.conn())
                .await?;
        }
    }
    Ok(())
}

/// Records the shortest `ttlMs` hint of a version's last rescan, in seconds.
pub async fn set_ttl(tx: &mut Tx, version_id: &str, secs: Option<i64>) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE rescan_schedule SET ttl_secs = $1 WHERE version_id = $2")
        .bind(secs)
        .bind(version_id)
        .execute(tx.conn())
        .await?;
    Ok(())
}
