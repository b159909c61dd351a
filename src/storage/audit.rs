//! The append-only audit log. Rows are written with the transaction of the
//! change they record, so a change and its audit row commit or fail together.

use serde::Serialize;
use serde_json::Value;
use sqlx::Row;
use sqlx::any::AnyRow;

use super::{Db, Tx, now};

/// One audit entry to write.
pub struct AuditEntry<'a> {
    /// Who acted: `user:NAME`, `token:LABEL`, `publisher:NAME`, `system:worker`, …
    pub actor: &'a str,
    /// What happened: `version.publish`, `version.approve`, …
    pub action: &'a str,
    /// What it happened to (`name@version`, `publisher:NAME`, …).
    pub subject: &'a str,
    /// The version concerned, if any.
    pub version_id: Option<&'a str>,
    /// Structured detail.
    pub detail: Value,
}

/// Appends an entry within `tx`.
pub async fn append(tx: &mut Tx, entry: AuditEntry<'_>) -> Result<(), sqlx::Error> {
    sqlx::query("INSERT INTO audit_log (at, actor, action, subject, version_id, detail) VALUES ($1, $2, $3, $4, $5, $6)")
        .bind(now())
        .bind(entry.actor)
        .bind(entry.action)
        .bind(entry.subject)
        .bind(entry.version_id)
        .bind(entry.detail.to_string())
        .execute(tx.conn())
        .await?;
    Ok(())
}

/// A stored audit row.
#[derive(Debug, Clone, Serialize)]
pub struct AuditRow {
    /// Monotonic id (newest is highest).
    pub id: i64,
    /// When.
    pub at: String,
    /// Who.
    pub actor: String,
    /// What.
    pub action: String,
    /// On what.
    pub subject: String,
    /// Structured detail.
    pub detail: Value,
}

/// Filters for reading the log.
#[derive(Debug, Clone, Default)]
pub struct AuditFilter {
    /// Only rows with an id below this (paging cursor).
    pub before_id: Option<i64>,
    /// Exact action.
    pub action: Option<String>,
    /// Substring of the actor.
    pub actor: Option<String>,
    /// Substring of the subject.
    pub subject: Option<String>,
}

/// Reads the log newest first.
pub async fn list(db: &Db, filter: &AuditFilter, limit: i64) -> Result<Vec<AuditRow>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT id, at, actor, action, subject, detail FROM audit_log
         WHERE ($1 IS NULL OR id < $1)
           AND ($2 IS NULL OR action = $2)
           AND ($3 IS NULL OR actor LIKE '%' || $3 || '%' ESCAPE '\\')
           AND ($4 IS NULL OR subject LIKE '%' || $4 || '%' ESCAPE '\\')
         ORDER BY id DESC LIMIT $5",
    )
    .bind(filter.before_id)
    .bind(filter.action.as_deref())
    .bind(filter.actor.as_deref().map(super::escape_like))
    .bind(filter.subject.as_deref().map(super::escape_like))
    .bind(limit)
    .fetch_all(db.pool())
    .await?;
    rows.iter().map(audit_row).collect()
}

/// One audit row, decoded by column name.
fn audit_row(r: &AnyRow) -> Result<AuditRow, sqlx::Error> {
    Ok(AuditRow {
        id: r.try_get("id")?,
        at: r.try_get("at")?,
        actor: r.try_get("actor")?,
        action: r.try_get("action")?,
        subject: r.try_get("subject")?,
        detail: serde_json::from_str(&r.try_get::<String, _>("detail")?).unwrap_or(Value::Null),
    })
}

/// Distinct audit actions, for the audit log's filter.
pub async fn actions(db: &Db) -> Result<Vec<String>, sqlx::Error> {
    let rows = sqlx::query("SELECT DISTINCT action FROM audit_log ORDER BY action")
        .fetch_all(db.pool())
        .await?;
    rows.iter().map(|r| r.try_get("action")).collect()
}

/// A server's history as the audit log tells it: the monitor's verdicts
/// (except plain matches and single failures) and every decision or status
/// change of any of its versions, newest first, with the version string.
pub async fn server_history(
    db: &Db,
    server_name: &str,
    limit: i64,
) -> Result<Vec<(AuditRow, String)>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT a.id, a.at, a.actor, a.action, a.subject, a.detail, v.version FROM audit_log a
         JOIN versions v ON v.id = a.version_id
         WHERE LOWER(v.server_name) = LOWER($1)
           AND ((a.action LIKE 'version.%' AND a.action <> 'version.status') OR (a.action LIKE 'monitor.%' AND a.action NOT IN ('monitor.match', 'monitor.unreachable')))
         ORDER BY a.id DESC LIMIT $2",
    )
    .bind(server_name)
    .bind(limit)
    .fetch_all(db.pool())
    .await?;
    rows.iter()
        .map(|r| Ok((audit_row(r)?, r.try_get("version")?)))
        .collect()
}
