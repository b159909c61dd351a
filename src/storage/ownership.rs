//! Ownership of remote URLs (issue 15): each remote's verification state,
//! the challenge tokens issued to publishers per origin, and the admin
//! setting that requires verification before approval.

use sqlx::Row;

use super::{Db, Tx, now};

/// The verification state of one remote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemoteOwnership {
    /// The remote URL.
    pub url: String,
    /// `card`, `challenge`, `domain` or `unverified`.
    pub verification: String,
    /// When it was last verified (any state).
    pub verified_at: Option<String>,
}

/// The remotes a server holds, with their verification state, by URL.
pub async fn remotes_of(db: &Db, server_id: &str) -> Result<Vec<RemoteOwnership>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT url, verification, verified_at FROM server_remotes WHERE server_id = $1 ORDER BY url",
    )
    .bind(server_id)
    .fetch_all(db.pool())
    .await?;
    rows.iter()
        .map(|r| {
            Ok(RemoteOwnership {
                url: r.try_get("url")?,
                verification: r.try_get("verification")?,
                verified_at: r.try_get("verified_at")?,
            })
        })
        .collect()
}

/// `(url, state)` of the remotes a server holds, inside a transaction.
pub async fn remote_states_tx(
    tx: &mut Tx,
    server_id: &str,
) -> Result<Vec<(String, String)>, sqlx::Error> {
    let rows = sqlx::query("SELECT url, verification FROM server_remotes WHERE server_id = $1")
        .bind(server_id)
        .fetch_all(tx.conn())
        .await?;
    rows.iter()
        .map(|r| Ok((r.try_get("url")?, r.try_get("verification")?)))
        .collect()
}

/// The verification state of a remote URL and the server holding it:
/// `(server id, publisher id, state)`.
pub async fn holder(
    tx: &mut Tx,
    url: &str,
) -> Result<Option<(String, String, String)>, sqlx::Error> {
    let row = sqlx::query(
        "SELECT s.id, s.publisher_id, r.verification FROM server_remotes r JOIN servers s ON s.id = r.server_id WHERE r.url = $1",
    )
    .bind(url)
    .fetch_optional(tx.conn())
    .await?;
    row.map(|r| {
        Ok((
            r.try_get("id")?,
            r.try_get("publisher_id")?,
            r.try_get("verification")?,
        ))
    })
    .transpose()
}

/// Records the verification state of a remote the server holds (a remote
/// another server holds is left alone).
pub async fn set_verification(
    tx: &mut Tx,
    server_id: &str,
    url: &str,
    verification: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE server_remotes SET verification = $1, verified_at = $2 WHERE url = $3 AND server_id = $4",
    )
    .bind(verification)
    .bind(now())
    .bind(url)
    .bind(server_id)
    .execute(tx.conn())
    .await?;
    Ok(())
}

/// Hands a remote over to another server, verified as `verification`.
pub async fn transfer_remote(
    tx: &mut Tx,
    url: &str,
    to_server_id: &str,
    verification: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE server_remotes SET server_id = $1, verification = $2, verified_at = $3 WHERE url = $4",
    )
    .bind(to_server_id)
    .bind(verification)
    .bind(now())
    .bind(url)
    .execute(tx.conn())
    .await?;
    Ok(())
}

/// The challenge token of a publisher for an origin, issuing one the first time.
pub async fn challenge_token(
    db: &Db,
    publisher_id: &str,
    origin: &str,
) -> Result<String, sqlx::Error> {
    let fresh = hex::encode(rand::random::<[u8; 24]>());
    let mut tx = db.begin().await?;
    sqlx::query(
        "INSERT INTO ownership_challenges (publisher_id, origin, token, created_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (publisher_id, origin) DO NOTHING",
    )
    .bind(publisher_id)
    .bind(origin)
    .bind(&fresh)
    .bind(now())
    .execute(tx.conn())
    .await?;
    let token: String = sqlx::query(
        "SELECT token FROM ownership_challenges WHERE publisher_id = $1 AND origin = $2",
    )
    .bind(publisher_id)
    .bind(origin)
    .fetch_one(tx.conn())
    .await?
    .try_get("token")?;
    tx.commit().await?;
    Ok(token)
}

/// The challenge token already issued to a publisher for an origin.
pub async fn issued_token(
    db: &Db,
    publisher_id: &str,
    origin: &str,
) -> Result<Option<String>, sqlx::Error> {
    let row = sqlx::query(
        "SELECT token FROM ownership_challenges WHERE publisher_id = $1 AND origin = $2",
    )
    .bind(publisher_id)
    .bind(origin)
    .fetch_optional(db.pool())
    .await?;
    row.map(|r| r.try_get("token")).transpose()
}

/// The setting key: approval requires every remote verified.
pub const REQUIRE_VERIFICATION: &str = "require_remote_verification";

/// Whether approval requires every remote to be verified.
pub async fn verification_required(db: &Db) -> Result<bool, sqlx::Error> {
    let row = sqlx::query("SELECT value FROM registry_settings WHERE key = $1")
        .bind(REQUIRE_VERIFICATION)
        .fetch_optional(db.pool())
        .await?;
    Ok(row
        .map(|r| r.try_get::<String, _>("value"))
        .transpose()?
        .is_some_and(|v| v == "true"))
}

/// Sets whether approval requires verified remotes.
pub async fn set_verification_required(
    tx: &mut Tx,
    required: bool,
    actor: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO registry_settings (key, value, updated_by, updated_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_by = EXCLUDED.updated_by, updated_at = EXCLUDED.updated_at",
    )
    .bind(REQUIRE_VERIFICATION)
    .bind(if required { "true" } else { "false" })
    .bind(actor)
    .bind(now())
    .execute(tx.conn())
    .await?;
    Ok(())
}
