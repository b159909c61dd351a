//! Allowlist rows: the entry each approved version contributes to an
//! audience, revocations, the per-audience document counter and the signed
//! documents. When to sign is decided in `review::allowlists`; this module
//! only reads and writes the rows.

use sqlx::Row;

use super::{Db, Tx, now};

/// Every audience that has (had) a document.
pub async fn audiences(db: &Db) -> Result<Vec<String>, sqlx::Error> {
    let rows = sqlx::query("SELECT audience FROM allowlist_audiences")
        .fetch_all(db.pool())
        .await?;
    rows.iter().map(|r| r.try_get("audience")).collect()
}

/// An audience with the version of its newest document.
#[derive(Debug, Clone)]
pub struct AudienceRow {
    /// Audience name.
    pub audience: String,
    /// Version of its newest document.
    pub version: i64,
    /// When that version was taken.
    pub updated_at: String,
}

/// Every audience with its document version, by name.
pub async fn audience_versions(db: &Db) -> Result<Vec<AudienceRow>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT audience, version, updated_at FROM allowlist_audiences ORDER BY audience",
    )
    .fetch_all(db.pool())
    .await?;
    rows.iter()
        .map(|r| {
            Ok(AudienceRow {
                audience: r.try_get("audience")?,
                version: r.try_get("version")?,
                updated_at: r.try_get("updated_at")?,
            })
        })
        .collect()
}

/// The document version of an audience, if it has one (inside `tx`).
pub async fn audience_version(tx: &mut Tx, audience: &str) -> Result<Option<i64>, sqlx::Error> {
    let row = sqlx::query("SELECT version FROM allowlist_audiences WHERE audience = $1")
        .bind(audience)
        .fetch_optional(tx.conn())
        .await?;
    row.map(|r| r.try_get("version")).transpose()
}

/// Takes the next document version of an audience (creating the audience at
/// 0 first). The `UPDATE … RETURNING` holds the audience's row lock until
/// `tx` ends, so concurrent publishers in any process are serialised and each
/// version is used once.
pub async fn next_version(tx: &mut Tx, audience: &str) -> Result<i64, sqlx::Error> {
    let at = now();
    sqlx::query("INSERT INTO allowlist_audiences (audience, version, updated_at) VALUES ($1, 0, $2) ON CONFLICT (audience) DO NOTHING")
        .bind(audience)
        .bind(&at)
        .execute(tx.conn())
        .await?;
    sqlx::query(
        "UPDATE allowlist_audiences SET version = version + 1, updated_at = $2 WHERE audience = $1 RETURNING version",
    )
    .bind(audience)
    .bind(&at)
    .fetch_one(tx.conn())
    .await?
    .try_get("version")
}

/// Replaces the entries of a version: `entry` (JSON) in each of `audiences`.
pub async fn replace_entries(
    tx: &mut Tx,
    version_id: &str,
    server_name: &str,
    audiences: &[String],
    entry: &str,
) -> Result<(), sqlx::Error> {
    delete_entries(tx, version_id).await?;
    for audience in audiences {
        sqlx::query("INSERT INTO allowlist_entries (version_id, audience, server_name, entry) VALUES ($1, $2, $3, $4)")
            .bind(version_id)
            .bind(audience)
            .bind(server_name)
            .bind(entry)
            .execute(tx.conn())
            .await?;
    }
    Ok(())
}

/// The audiences a version has entries in.
pub async fn entry_audiences(tx: &mut Tx, version_id: &str) -> Result<Vec<String>, sqlx::Error> {
    let rows = sqlx::query("SELECT audience FROM allowlist_entries WHERE version_id = $1")
        .bind(version_id)
        .fetch_all(tx.conn())
        .await?;
    rows.iter().map(|r| r.try_get("audience")).collect()
}

/// Removes every entry of a version.
pub async fn delete_entries(tx: &mut Tx, version_id: &str) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM allowlist_entries WHERE version_id = $1")
        .bind(version_id)
        .execute(tx.conn())
        .await?;
    Ok(())
}

/// The entries (JSON) of an audience, by server name.
pub async fn entries(tx: &mut Tx, audience: &str) -> Result<Vec<String>, sqlx::Error> {
    let rows =
        sqlx::query("SELECT entry FROM allowlist_entries WHERE audience = $1 ORDER BY server_name")
            .bind(audience)
            .fetch_all(tx.conn())
            .await?;
    rows.iter().map(|r| r.try_get("entry")).collect()
}

/// A version revoked in an audience.
#[derive(Debug, Clone)]
pub struct RevocationRow {
    /// Server name.
    pub server_name: String,
    /// Version string.
    pub version: String,
    /// Why.
    pub reason: String,
    /// When (stored timestamp).
    pub at: String,
}

/// Records that a version is revoked in `audience` (once).
pub async fn record_revocation(
    tx: &mut Tx,
    version_id: &str,
    audience: &str,
    server_name: &str,
    version: &str,
    reason: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO allowlist_revocations (version_id, audience, server_name, version, reason, at)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING",
    )
    .bind(version_id)
    .bind(audience)
    .bind(server_name)
    .bind(version)
    .bind(reason)
    .bind(now())
    .execute(tx.conn())
    .await?;
    Ok(())
}

/// The revocations of an audience, by server name and version.
pub async fn revocations(tx: &mut Tx, audience: &str) -> Result<Vec<RevocationRow>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT server_name, version, reason, at FROM allowlist_revocations WHERE audience = $1 ORDER BY server_name, version",
    )
    .bind(audience)
    .fetch_all(tx.conn())
    .await?;
    rows.iter()
        .map(|r| {
            Ok(RevocationRow {
                server_name: r.try_get("server_name")?,
                version: r.try_get("version")?,
                reason: r.try_get("reason")?,
                at: r.try_get("at")?,
            })
        })
        .collect()
}

/// A signed document as stored.
#[derive(Debug, Clone)]
pub struct DocumentRow {
    /// Its version.
    pub version: i64,
    /// The envelope, exactly as signed.
    pub envelope: String,
    /// When it expires (stored timestamp).
    pub expires: String,
}

/// Stores a signed document.
pub async fn insert_document(
    tx: &mut Tx,
    audience: &str,
    doc: &DocumentRow,
    issued_at: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query("INSERT INTO allowlist_documents (audience, version, envelope, issued_at, expires) VALUES ($1, $2, $3, $4, $5)")
        .bind(audience)
        .bind(doc.version)
        .bind(&doc.envelope)
        .bind(issued_at)
        .bind(&doc.expires)
        .execute(tx.conn())
        .await?;
    Ok(())
}

/// The newest document of an audience.
pub async fn current_document(db: &Db, audience: &str) -> Result<Option<DocumentRow>, sqlx::Error> {
    let row = sqlx::query(
        "SELECT d.version, d.envelope, d.expires FROM allowlist_documents d
         JOIN allowlist_audiences a ON a.audience = d.audience AND a.version = d.version WHERE d.audience = $1",
    )
    .bind(audience)
    .fetch_optional(db.pool())
    .await?;
    row.map(|r| {
        Ok(DocumentRow {
            version: r.try_get("version")?,
            envelope: r.try_get("envelope")?,
            expires: r.try_get("expires")?,
        })
    })
    .transpose()
}

/// An approved version listed in an audience, as the exports need it.
#[derive(Debug, Clone)]
pub struct ListedVersion {
    /// Server name.
    pub server_name: String,
    /// Version string.
    pub version: String,
    /// Its server.json, verbatim.
    pub server_json: String,
    /// When it was approved.
    pub approved_at: Option<String>,
}

/// The versions an audience's allowlist lists, by name and version.
pub async fn listed_versions(db: &Db, audience: &str) -> Result<Vec<ListedVersion>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT v.server_name, v.version, v.server_json, v.approved_at FROM allowlist_entries e
         JOIN versions v ON v.id = e.version_id WHERE e.audience = $1 ORDER BY v.server_name, v.version",
    )
    .bind(audience)
    .fetch_all(db.pool())
    .await?;
    rows.iter()
        .map(|r| {
            Ok(ListedVersion {
                server_name: r.try_get("server_name")?,
                version: r.try_get("version")?,
                server_json: r.try_get("server_json")?,
                approved_at: r.try_get("approved_at")?,
            })
        })
        .collect()
}
