//! Queries of the web UI: browser sessions, the login throttle, and the
//! read-only aggregates of the dashboard and the servers list.
//!
//! Sessions are stored like API tokens: the browser holds a random id, the
//! table holds its SHA-256 (see `http::ui::session`). Every write runs in a
//! [`Tx`] so that SQLite's in-process writer gate applies.

use sqlx::Row;

use super::{Db, Tx};

/// What a session speaks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SessionKind {
    /// Not signed in: only holds the CSRF token of a login form.
    Anon,
    /// An admin or reviewer user.
    User,
    /// A publisher signed in with its token.
    Publisher,
}

impl SessionKind {
    /// Stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            SessionKind::Anon => "anon",
            SessionKind::User => "user",
            SessionKind::Publisher => "publisher",
        }
    }

    /// Parses a stored name.
    pub fn parse(s: &str) -> Option<SessionKind> {
        match s {
            "anon" => Some(SessionKind::Anon),
            "user" => Some(SessionKind::User),
            "publisher" => Some(SessionKind::Publisher),
            _ => None,
        }
    }
}

/// A stored session.
#[derive(Debug, Clone)]
pub struct SessionRow {
    /// SHA-256 (hex) of the id the browser holds.
    pub id_hash: String,
    /// What it speaks for.
    pub kind: SessionKind,
    /// The signed-in user (kind `User`).
    pub user_id: Option<String>,
    /// The signed-in publisher (kind `Publisher`).
    pub publisher_id: Option<String>,
    /// The publisher token used to sign in (revoking it ends the session).
    pub token_id: Option<String>,
    /// The synchroniser CSRF token of this session.
    pub csrf_token: String,
    /// A one-shot message for the next page (JSON).
    pub flash: Option<String>,
    /// When it was created (absolute timeout).
    pub created_at: String,
    /// When it was last used (idle timeout).
    pub last_seen_at: String,
}

/// A session to store.
#[derive(Debug, Clone)]
pub struct NewSession<'a> {
    /// SHA-256 (hex) of the id.
    pub id_hash: &'a str,
    /// What it speaks for.
    pub kind: SessionKind,
    /// The user, for `User`.
    pub user_id: Option<&'a str>,
    /// The publisher, for `Publisher`.
    pub publisher_id: Option<&'a str>,
    /// The token signed in with, for `Publisher`.
    pub token_id: Option<&'a str>,
    /// Its CSRF token.
    pub csrf_token: &'a str,
    /// The current time.
    pub at: &'a str,
}

/// Stores a new session.
pub async fn insert_session(tx: &mut Tx, s: NewSession<'_>) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO ui_sessions (id_hash, kind, user_id, publisher_id, token_id, csrf_token, created_at, last_seen_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $7)",
    )
    .bind(s.id_hash)
    .bind(s.kind.as_str())
    .bind(s.user_id)
    .bind(s.publisher_id)
    .bind(s.token_id)
    .bind(s.csrf_token)
    .bind(s.at)
    .execute(tx.conn())
    .await?;
    Ok(())
}

/// Loads a session by the hash of its id.
pub async fn session_by_hash(db: &Db, id_hash: &str) -> Result<Option<SessionRow>, sqlx::Error> {
    let row = sqlx::query(
        "SELECT id_hash, kind, user_id, publisher_id, token_id, csrf_token, flash, created_at, last_seen_at
         FROM ui_sessions WHERE id_hash = $1",
    )
    .bind(id_hash)
    .fetch_optional(db.pool())
    .await?;
    Ok(row.and_then(|r| {
        Some(SessionRow {
            id_hash: r.get(0),
            kind: SessionKind::parse(&r.get::<String, _>(1))?,
            user_id: r.get(2),
            publisher_id: r.get(3),
            token_id: r.get(4),
            csrf_token: r.get(5),
            flash: r.get(6),
            created_at: r.get(7),
            last_seen_at: r.get(8),
        })
    }))
}

/// Records that a session was used now (the idle timeout counts from here).
pub async fn touch_session(tx: &mut Tx, id_hash: &str, at: &str) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE ui_sessions SET last_seen_at = $1 WHERE id_hash = $2")
        .bind(at)
        .bind(id_hash)
        .execute(tx.conn())
        .await?;
    Ok(())
}

/// Sets (or clears) the one-shot message of a session.
pub async fn set_flash(tx: &mut Tx, id_hash: &str, flash: Option<&str>) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE ui_sessions SET flash = $1 WHERE id_hash = $2")
        .bind(flash)
        .bind(id_hash)
        .execute(tx.conn())
        .await?;
    Ok(())
}

/// Deletes a session (logout, rotation, expiry).
pub async fn delete_session(tx: &mut Tx, id_hash: &str) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM ui_sessions WHERE id_hash = $1")
        .bind(id_hash)
        .execute(tx.conn())
        .await?;
    Ok(())
}

/// Deletes sessions idle since before `idle_before` or created before `created_before`,
/// and login failures older than `failures_before`.
pub async fn purge_expired(
    tx: &mut Tx,
    idle_before: &str,
    created_before: &str,
    failures_before: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM ui_sessions WHERE last_seen_at < $1 OR created_at < $2")
        .bind(idle_before)
        .bind(created_before)
        .execute(tx.conn())
        .await?;
    sqlx::query("DELETE FROM login_failures WHERE at < $1")
        .bind(failures_before)
        .execute(tx.conn())
        .await?;
    Ok(())
}

/// Number of failed sign-ins for a scope (`account:NAME`, `ip:ADDR`) since `since`.
pub async fn count_failures(db: &Db, scope: &str, since: &str) -> Result<i64, sqlx::Error> {
    sqlx::query("SELECT COUNT(*) FROM login_failures WHERE scope = $1 AND at >= $2")
        .bind(scope)
        .bind(since)
        .fetch_one(db.pool())
        .await
        .map(|r| r.get(0))
}

/// Failed sign-ins for a scope since `since`: how many, and when the last was.
pub async fn failure_stats(
    db: &Db,
    scope: &str,
    since: &str,
) -> Result<(i64, Option<String>), sqlx::Error> {
    sqlx::query("SELECT COUNT(*), MAX(at) FROM login_failures WHERE scope = $1 AND at >= $2")
        .bind(scope)
        .bind(since)
        .fetch_one(db.pool())
        .await
        .map(|r| (r.get(0), r.get(1)))
}

/// Records one failed sign-in under each scope.
pub async fn record_failure(tx: &mut Tx, scopes: &[&str], at: &str) -> Result<(), sqlx::Error> {
    for scope in scopes {
        sqlx::query("INSERT INTO login_failures (scope, at) VALUES ($1, $2)")
            .bind(scope)
            .bind(at)
            .execute(tx.conn())
            .await?;
    }
    Ok(())
}

/// Forgets the failures of a scope (after a successful sign-in).
pub async fn clear_failures(tx: &mut Tx, scope: &str) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM login_failures WHERE scope = $1")
        .bind(scope)
        .execute(tx.conn())
        .await?;
    Ok(())
}

/// A user as the UI shows it (never the password hash).
#[derive(Debug, Clone)]
pub struct UserInfo {
    /// Row id.
    pub id: String,
    /// Login name.
    pub name: String,
    /// `admin` or `reviewer`.
    pub role: String,
}

/// Loads an enabled user by id.
pub async fn user_by_id(db: &Db, id: &str) -> Result<Option<UserInfo>, sqlx::Error> {
    let row = sqlx::query("SELECT id, name, role FROM users WHERE id = $1 AND disabled_at IS NULL")
        .bind(id)
        .fetch_optional(db.pool())
        .await?;
    Ok(row.map(|r| UserInfo {
        id: r.get(0),
        name: r.get(1),
        role: r.get(2),
    }))
}

/// Whether a token is still valid (not revoked).
pub async fn token_is_active(db: &Db, token_id: &str) -> Result<bool, sqlx::Error> {
    sqlx::query("SELECT COUNT(*) FROM api_tokens WHERE id = $1 AND revoked_at IS NULL")
        .bind(token_id)
        .fetch_one(db.pool())
        .await
        .map(|r| r.get::<i64, _>(0) == 1)
}

/// Completed scans per day (`YYYY-MM-DD`) since a day, oldest first: `(day, ok, failed)`.
pub async fn scans_per_day(db: &Db, since: &str) -> Result<Vec<(String, i64, i64)>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT SUBSTR(finished_at, 1, 10) AS day,
                SUM(CASE WHEN error IS NULL THEN 1 ELSE 0 END),
                SUM(CASE WHEN error IS NULL THEN 0 ELSE 1 END)
         FROM scans WHERE finished_at >= $1 GROUP BY SUBSTR(finished_at, 1, 10) ORDER BY day",
    )
    .bind(since)
    .fetch_all(db.pool())
    .await?;
    Ok(rows
        .iter()
        .map(|r| (r.get(0), r.get::<i64, _>(1), r.get::<i64, _>(2)))
        .collect())
}

/// The report JSON of every version's latest scan that produced one.
pub async fn latest_reports(db: &Db) -> Result<Vec<String>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT s.report FROM scans s
         WHERE s.report IS NOT NULL
           AND s.finished_at = (SELECT MAX(s2.finished_at) FROM scans s2 WHERE s2.version_id = s.version_id)",
    )
    .fetch_all(db.pool())
    .await?;
    Ok(rows.iter().map(|r| r.get(0)).collect())
}

/// A server as the servers list shows it.
#[derive(Debug, Clone)]
pub struct ServerSummary {
    /// Server name.
    pub name: String,
    /// Owning publisher.
    pub publisher: String,
    /// Number of versions.
    pub versions: i64,
    /// Number of approved versions.
    pub approved: i64,
    /// Last change.
    pub updated_at: String,
}

/// Servers whose name contains `search` (case-insensitive), by name, with the total.
pub async fn list_servers(
    db: &Db,
    search: Option<&str>,
    offset: i64,
    limit: i64,
) -> Result<(Vec<ServerSummary>, i64), sqlx::Error> {
    let pattern = search
        .filter(|s| !s.is_empty())
        .map(|s| format!("%{}%", escape_like(&s.to_lowercase())));
    let rows = sqlx::query(
        "SELECT s.name, p.name,
                (SELECT COUNT(*) FROM versions v WHERE v.server_id = s.id),
                (SELECT COUNT(*) FROM versions v WHERE v.server_id = s.id AND v.status = 'approved'),
                s.updated_at
         FROM servers s JOIN publishers p ON p.id = s.publisher_id
         WHERE ($1 IS NULL OR LOWER(s.name) LIKE $1 ESCAPE '\\')
         ORDER BY s.name LIMIT $2 OFFSET $3",
    )
    .bind(pattern.as_deref())
    .bind(limit)
    .bind(offset)
    .fetch_all(db.pool())
    .await?;
    let total = sqlx::query(
        "SELECT COUNT(*) FROM servers s WHERE ($1 IS NULL OR LOWER(s.name) LIKE $1 ESCAPE '\\')",
    )
    .bind(pattern.as_deref())
    .fetch_one(db.pool())
    .await?
    .get::<i64, _>(0);
    Ok((
        rows.iter()
            .map(|r| ServerSummary {
                name: r.get(0),
                publisher: r.get(1),
                versions: r.get(2),
                approved: r.get(3),
                updated_at: r.get(4),
            })
            .collect(),
        total,
    ))
}

/// Distinct audit actions, for the audit log's filter.
pub async fn audit_actions(db: &Db) -> Result<Vec<String>, sqlx::Error> {
    let rows = sqlx::query("SELECT DISTINCT action FROM audit_log ORDER BY action")
        .fetch_all(db.pool())
        .await?;
    Ok(rows.iter().map(|r| r.get(0)).collect())
}

/// Escapes `%`, `_` and `\` for a LIKE pattern with `ESCAPE '\'`.
fn escape_like(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if matches!(c, '%' | '_' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Every enabled user, by name (never the password hash).
pub async fn list_users(db: &Db) -> Result<Vec<UserInfo>, sqlx::Error> {
    let rows =
        sqlx::query("SELECT id, name, role FROM users WHERE disabled_at IS NULL ORDER BY name")
            .fetch_all(db.pool())
            .await?;
    Ok(rows
        .iter()
        .map(|r| UserInfo {
            id: r.get(0),
            name: r.get(1),
            role: r.get(2),
        })
        .collect())
}

/// A version as a queue row: only what the row shows, so paging through
/// thousands of versions never drags their server.json documents along.
#[derive(Debug, Clone)]
pub struct QueueItem {
    /// Server name.
    pub server_name: String,
    /// Version string.
    pub version: String,
    /// Lifecycle status (stored name).
    pub status: String,
    /// Maximum severity of the latest scan.
    pub max_severity: Option<String>,
    /// When its status last changed.
    pub updated_at: String,
}

/// One page of the review queue with the total, filtered and sorted like
/// `versions::list_versions` (statuses, severities, name search; sort `age`,
/// `newest`, `severity`, `name`), reading only the listed columns.
pub async fn queue_page(
    db: &Db,
    f: &super::versions::VersionFilter,
) -> Result<(Vec<QueueItem>, i64), sqlx::Error> {
    // Statuses and severities are closed vocabularies rendered from our own
    // enums, so they are inlined; the search text is bound.
    let mut where_sql = String::from("WHERE 1 = 1");
    if !f.statuses.is_empty() {
        let list: Vec<String> = f
            .statuses
            .iter()
            .map(|s| format!("'{}'", s.as_str()))
            .collect();
        where_sql.push_str(&format!(" AND status IN ({})", list.join(", ")));
    }
    let severities: Vec<String> = f
        .severities
        .iter()
        .filter_map(|s| crate::analysis::Severity::parse(s).map(|s| format!("'{}'", s.as_str())))
        .collect();
    if !severities.is_empty() {
        where_sql.push_str(&format!(" AND max_severity IN ({})", severities.join(", ")));
    }
    where_sql.push_str(" AND ($1 IS NULL OR LOWER(server_name) LIKE $1 ESCAPE '\\')");
    let order = match f.sort.as_deref() {
        Some("newest") => "updated_at DESC, id".to_string(),
        Some("name") => "server_name, version".to_string(),
        Some("severity") => format!("{}, updated_at, id", super::versions::severity_rank("")),
        _ => "updated_at, id".to_string(),
    };
    let search = f
        .search
        .as_ref()
        .filter(|s| !s.is_empty())
        .map(|s| format!("%{}%", escape_like(&s.to_lowercase())));
    let sql = format!(
        "SELECT server_name, version, status, max_severity, updated_at FROM versions {where_sql}
         ORDER BY {order} LIMIT $2 OFFSET $3"
    );
    let rows = sqlx::query(&sql)
        .bind(search.as_deref())
        .bind(f.limit)
        .bind(f.offset)
        .fetch_all(db.pool())
        .await?;
    let total = sqlx::query(&format!("SELECT COUNT(*) FROM versions {where_sql}"))
        .bind(search.as_deref())
        .fetch_one(db.pool())
        .await?
        .get::<i64, _>(0);
    Ok((
        rows.iter()
            .map(|r| QueueItem {
                server_name: r.get(0),
                version: r.get(1),
                status: r.get(2),
                max_severity: r.get(3),
                updated_at: r.get(4),
            })
            .collect(),
        total,
    ))
}
