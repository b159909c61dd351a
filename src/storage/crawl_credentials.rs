//! Stored crawl credentials (`crawl_credentials`, migration 0005): sealed
//! values only. Sealing and opening are `registry::crawl_secrets`'s; this
//! module never sees a secret in the clear.

use sqlx::Row;

use super::{Db, Tx};

/// One stored credential, sealed.
#[derive(Clone)]
pub struct CredentialRow {
    /// The server it is for.
    pub server_id: String,
    /// `oauth` or `header`.
    pub kind: String,
    /// `''` for OAuth, the lower-case header name for a header.
    pub name: String,
    /// OAuth: the client id.
    pub client_id: Option<String>,
    /// OAuth: `client_secret` or `private_key_jwt`.
    pub method: Option<String>,
    /// OAuth: the issuer the credentials are bound to, once known.
    pub issuer: Option<String>,
    /// Base64 AEAD nonce.
    pub nonce: String,
    /// Base64 AEAD ciphertext and tag.
    pub ciphertext: String,
    /// Who set it (audit actor spelling).
    pub set_by: String,
    /// When it was set.
    pub set_at: String,
}

impl std::fmt::Debug for CredentialRow {
    // The sealed bytes are no secret without the key, but have no business in logs either.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CredentialRow")
            .field("server_id", &self.server_id)
            .field("kind", &self.kind)
            .field("name", &self.name)
            .field("client_id", &self.client_id)
            .field("method", &self.method)
            .field("issuer", &self.issuer)
            .field("set_by", &self.set_by)
            .field("set_at", &self.set_at)
            .finish_non_exhaustive()
    }
}

/// The server a name designates: `(id, publisher_id, registered name)`, by
/// the registry's one rule for names ([`super::versions::find_server`]).
pub async fn server_by_name(
    db: &Db,
    name: &str,
) -> Result<Option<(String, String, String)>, sqlx::Error> {
    super::versions::server_named(db.pool(), name).await
}

/// The stored server.json documents of every version of a server (newest first).
pub async fn server_documents(db: &Db, server_id: &str) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT server_json FROM versions WHERE server_id = $1 ORDER BY published_at DESC",
    )
    .bind(server_id)
    .fetch_all(db.pool())
    .await
}

/// The versions of a server whose scan failed, oldest first.
pub async fn failed_versions(db: &Db, server_id: &str) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT version FROM versions WHERE server_id = $1 AND status = 'scan_failed' \
         ORDER BY published_at",
    )
    .bind(server_id)
    .fetch_all(db.pool())
    .await
}

/// Stores `row`, replacing the credential of the same server, kind and name.
pub async fn upsert(tx: &mut Tx, row: &CredentialRow) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO crawl_credentials \
         (server_id, kind, name, client_id, method, issuer, nonce, ciphertext, set_by, set_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) \
         ON CONFLICT (server_id, kind, name) DO UPDATE SET \
         client_id = excluded.client_id, method = excluded.method, issuer = excluded.issuer, \
         nonce = excluded.nonce, ciphertext = excluded.ciphertext, \
         set_by = excluded.set_by, set_at = excluded.set_at",
    )
    .bind(&row.server_id)
    .bind(&row.kind)
    .bind(&row.name)
    .bind(&row.client_id)
    .bind(&row.method)
    .bind(&row.issuer)
    .bind(&row.nonce)
    .bind(&row.ciphertext)
    .bind(&row.set_by)
    .bind(&row.set_at)
    .execute(tx.conn())
    .await?;
    Ok(())
}

/// Deletes one credential; whether there was one.
pub async fn delete(
    tx: &mut Tx,
    server_id: &str,
    kind: &str,
    name: &str,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "DELETE FROM crawl_credentials WHERE server_id = $1 AND kind = $2 AND name = $3",
    )
    .bind(server_id)
    .bind(kind)
    .bind(name)
    .execute(tx.conn())
    .await?;
    Ok(done.rows_affected() > 0)
}

/// Every credential of a server, OAuth first, then headers by name.
pub async fn list(db: &Db, server_id: &str) -> Result<Vec<CredentialRow>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT server_id, kind, name, client_id, method, issuer, nonce, ciphertext, set_by, set_at \
         FROM crawl_credentials WHERE server_id = $1 ORDER BY kind DESC, name",
    )
    .bind(server_id)
    .fetch_all(db.pool())
    .await?;
    rows.into_iter()
        .map(|r| {
            Ok(CredentialRow {
                server_id: r.try_get("server_id")?,
                kind: r.try_get("kind")?,
                name: r.try_get("name")?,
                client_id: r.try_get("client_id")?,
                method: r.try_get("method")?,
                issuer: r.try_get("issuer")?,
                nonce: r.try_get("nonce")?,
                ciphertext: r.try_get("ciphertext")?,
                set_by: r.try_get("set_by")?,
                set_at: r.try_get("set_at")?,
            })
        })
        .collect()
}

/// Binds a server's OAuth credentials to `issuer` if they are not bound yet;
/// whether this call bound them.
pub async fn bind_issuer(tx: &mut Tx, server_id: &str, issuer: &str) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE crawl_credentials SET issuer = $2 \
         WHERE server_id = $1 AND kind = 'oauth' AND issuer IS NULL",
    )
    .bind(server_id)
    .bind(issuer)
    .execute(tx.conn())
    .await?;
    Ok(done.rows_affected() > 0)
}
