//! The job queue: enqueue, claim with a lease, complete, retry.
//!
//! A job is claimed by setting `state = 'running'` with a lease deadline. On
//! PostgreSQL the candidate row is picked `FOR UPDATE SKIP LOCKED`, so many
//! workers in many processes never claim the same job; on SQLite the single
//! writer makes the claiming UPDATE atomic. A running job whose lease expired
//! (its worker died) is claimable again.

use chrono::{Duration, Utc};
use sqlx::Row;

use super::{Backend, Db, Tx, new_id, now, ts};

/// Kinds of background work.
pub mod kinds {
    /// Scan a newly published (or rescanned) version.
    pub const SCAN: &str = "scan";
    /// Monitor rescan of an approved version (drift check).
    pub const MONITOR: &str = "monitor";
}

/// A claimed job.
#[derive(Debug, Clone)]
pub struct Job {
    /// Row id.
    pub id: String,
    /// What to do.
    pub kind: String,
    /// The version concerned.
    pub version_id: String,
    /// Attempts so far, this one included.
    pub attempts: i64,
}

/// Enqueues a job to run now.
pub async fn enqueue(tx: &mut Tx, kind: &str, version_id: &str) -> Result<String, sqlx::Error> {
    let id = new_id();
    let at = now();
    sqlx::query(
        "INSERT INTO jobs (id, kind, version_id, state, attempts, run_after, created_at) VALUES ($1, $2, $3, 'queued', 0, $4, $4)",
    )
    .bind(&id)
    .bind(kind)
    .bind(version_id)
    .bind(&at)
    .execute(tx.conn())
    .await?;
    Ok(id)
}

/// Whether a job of `kind` for `version_id` is queued or running.
pub async fn has_open(tx: &mut Tx, kind: &str, version_id: &str) -> Result<bool, sqlx::Error> {
    let row = sqlx::query(
        "SELECT COUNT(*) AS n FROM jobs WHERE kind = $1 AND version_id = $2 AND state IN ('queued', 'running')",
    )
    .bind(kind)
    .bind(version_id)
    .fetch_one(tx.conn())
    .await?;
    Ok(row.try_get::<i64, _>("n")? > 0)
}

/// Claims the next due job for `worker`, leasing it for `lease`.
pub async fn claim(db: &Db, worker: &str, lease: Duration) -> Result<Option<Job>, sqlx::Error> {
    let now_at = Utc::now();
    let lease_until = ts(now_at + lease);
    let lock = match db.backend() {
        Backend::Postgres => "FOR UPDATE SKIP LOCKED",
        Backend::Sqlite => "",
    };
    let sql = format!(
        "UPDATE jobs SET state = 'running', lease_until = $1, locked_by = $2, attempts = attempts + 1
         WHERE id = (
             SELECT id FROM jobs
             WHERE (state = 'queued' AND run_after <= $3) OR (state = 'running' AND lease_until < $3)
             ORDER BY run_after, created_at LIMIT 1 {lock}
         )
         RETURNING id, kind, version_id, attempts"
    );
    let mut tx = db.begin().await?;
    let row = sqlx::query(&sql)
        .bind(&lease_until)
        .bind(worker)
        .bind(ts(now_at))
        .fetch_optional(tx.conn())
        .await?;
    tx.commit().await?;
    row.map(|r| {
        Ok(Job {
            id: r.try_get("id")?,
            kind: r.try_get("kind")?,
            version_id: r.try_get("version_id")?,
            attempts: r.try_get("attempts")?,
        })
    })
    .transpose()
}

/// Marks a job done, provided `worker` still holds it. Returns false when the
/// lease was lost (another worker took the job over).
pub async fn complete(tx: &mut Tx, job_id: &str, worker: &str) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE jobs SET state = 'done', finished_at = $1, lease_until = NULL WHERE id = $2 AND locked_by = $3 AND state = 'running'",
    )
    .bind(now())
    .bind(job_id)
    .bind(worker)
    .execute(tx.conn())
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Puts a job back in the queue to run after `delay`, recording the error.
pub async fn retry_later(
    tx: &mut Tx,
    job_id: &str,
    worker: &str,
    delay: Duration,
    error: &str,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE jobs SET state = 'queued', run_after = $1, lease_until = NULL, locked_by = NULL, last_error = $2
         WHERE id = $3 AND locked_by = $4 AND state = 'running'",
    )
    .bind(ts(Utc::now() + delay))
    .bind(error)
    .bind(job_id)
    .bind(worker)
    .execute(tx.conn())
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Marks a job failed for good.
pub async fn fail(
    tx: &mut Tx,
    job_id: &str,
    worker: &str,
    error: &str,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE jobs SET state = 'failed', finished_at = $1, lease_until = NULL, last_error = $2
         WHERE id = $3 AND locked_by = $4 AND state = 'running'",
    )
    .bind(now())
    .bind(error)
    .bind(job_id)
    .bind(worker)
    .execute(tx.conn())
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Extends the lease of a running job (heartbeat during a long crawl).
pub async fn extend_lease(
    db: &Db,
    job_id: &str,
    worker: &str,
    lease: Duration,
) -> Result<bool, sqlx::Error> {
    let mut tx = db.begin().await?;
    let done = sqlx::query(
        "UPDATE jobs SET lease_until = $1 WHERE id = $2 AND locked_by = $3 AND state = 'running'",
    )
    .bind(ts(Utc::now() + lease))
    .bind(job_id)
    .bind(worker)
    .execute(tx.conn())
    .await?;
    tx.commit().await?;
    Ok(done.rows_affected() == 1)
}

/// Jobs not yet finished (queued or running).
pub async fn count_open(db: &Db) -> Result<i64, sqlx::Error> {
    sqlx::query("SELECT COUNT(*) AS n FROM jobs WHERE state IN ('queued', 'running')")
        .fetch_one(db.pool())
        .await?
        .try_get("n")
}
