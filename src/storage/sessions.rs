//! Browser sessions, the sign-in throttle, and the users and tokens a session
//! speaks for (read back on every request to check it still holds).
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
    let Some(r) = row else {
        return Ok(None);
    };
    // A session of a kind this build does not know speaks for no one: the
    // browser signs in again (fail closed).
    let Some(kind) = SessionKind::parse(&r.try_get::<String, _>("kind")?) else {
        return Ok(None);
    };
    Ok(Some(SessionRow {
        id_hash: r.try_get("id_hash")?,
        kind,
        user_id: r.try_get("user_id")?,
        publisher_id: r.try_get("publisher_id")?,
        token_id: r.try_get("token_id")?,
        csrf_token: r.try_get("csrf_token")?,
        flash: r.try_get("flash")?,
        created_at: r.try_get("created_at")?,
        last_seen_at: r.try_get("last_seen_at")?,
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
    sqlx::query("SELECT COUNT(*) AS n FROM login_failures WHERE scope = $1 AND at >= $2")
        .bind(scope)
        .bind(since)
        .fetch_one(db.pool())
        .await?
        .try_get("n")
}

/// Failed sign-ins for a scope since `since`: how many, and when the last was.
pub async fn failure_stats(
    db: &Db,
    scope: &str,
    since: &str,
) -> Result<(i64, Option<String>), sqlx::Error> {
    let r = sqlx::query(
        "SELECT COUNT(*) AS n, MAX(at) AS latest FROM login_failures WHERE scope = $1 AND at >= $2",
    )
    .bind(scope)
    .bind(since)
    .fetch_one(db.pool())
    .await?;
    Ok((r.try_get("n")?, r.try_get("latest")?))
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

fn user_from_row(r: &sqlx::any::AnyRow) -> Result<UserInfo, sqlx::Error> {
    Ok(UserInfo {
        id: r.try_get("id")?,
        name: r.try_get("name")?,
        role: r.try_get("role")?,
    })
}

/// Loads an enabled user by id.
pub async fn user_by_id(db: &Db, id: &str) -> Result<Option<UserInfo>, sqlx::Error> {
    let row = sqlx::query("SELECT id, name, role FROM users WHERE id = $1 AND disabled_at IS NULL")
        .bind(id)
        .fetch_optional(db.pool())
        .await?;
    row.as_ref().map(user_from_row).transpose()
}

/// Whether a token is still valid (not revoked).
pub async fn token_is_active(db: &Db, token_id: &str) -> Result<bool, sqlx::Error> {
    let n: i64 =
        sqlx::query("SELECT COUNT(*) AS n FROM api_tokens WHERE id = $1 AND revoked_at IS NULL")
            .bind(token_id)
            .fetch_one(db.pool())
            .await?
            .try_get("n")?;
    Ok(n == 1)
}

/// Every enabled user, by name (never the password hash).
pub async fn list_users(db: &Db) -> Result<Vec<UserInfo>, sqlx::Error> {
    let rows =
        sqlx::query("SELECT id, name, role FROM users WHERE disabled_at IS NULL ORDER BY name")
            .fetch_all(db.pool())
            .await?;
    rows.iter().map(user_from_row).collect()
}
