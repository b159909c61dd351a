//! Publishing signed allowlists from review decisions.
//!
//! Every decision that changes what an audience may use (approve, revoke,
//! suspend, re-approve) calls [`Publisher::publish_audiences`] inside the
//! decision's own transaction. For each affected audience it bumps the
//! audience's version with an `UPDATE … RETURNING` — a row lock, so
//! concurrent decisions in any number of processes are serialised and each
//! document version is used once — rebuilds the payload from the stored
//! entries, signs it and stores the envelope. The change and its document
//! commit together or not at all.
//!
//! Serving never touches the database on the hot path: each process keeps the
//! newest envelope of every audience in memory ([`AllowlistCache`]) and a
//! refresher polls the per-audience versions every second.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, RwLock};
use std::time::Duration;

use axum::body::Bytes;
use chrono::{DateTime, Utc};
use sha2::{Digest, Sha256};
use sqlx::Row;

use crate::allowlist::{
    self, AllowlistPayload, ApprovedServer, KeyStore, Revoked, Risk, ServerEntry,
};
use crate::snapshot::Snapshot;
use crate::storage::versions::{ApprovalRow, VersionRow};
use crate::storage::{Db, Tx, now, parse_ts};

/// How long a signed allowlist is valid.
pub const VALIDITY: chrono::Duration = chrono::Duration::days(7);
/// Documents are re-signed when less than this is left.
pub const RENEW_BEFORE: chrono::Duration = chrono::Duration::days(1);

/// One signed document ready to serve.
#[derive(Debug, Clone)]
pub struct SignedDocument {
    /// Its version.
    pub version: i64,
    /// The envelope bytes, exactly as signed and stored.
    pub bytes: Bytes,
    /// Strong ETag: the quoted hex SHA-256 of the bytes.
    pub etag: String,
    /// When it expires.
    pub expires: DateTime<Utc>,
    /// Key ids that signed it: after a key rotation a document not signed by
    /// the current allowlist key is re-signed.
    pub signed_by: Vec<String>,
}

impl SignedDocument {
    fn new(version: i64, envelope: String, expires: DateTime<Utc>) -> SignedDocument {
        let etag = format!("\"{}\"", hex::encode(Sha256::digest(envelope.as_bytes())));
        let signed_by = allowlist::Envelope::from_slice(envelope.as_bytes())
            .map(|e| e.signatures.into_iter().map(|s| s.keyid).collect())
            .unwrap_or_default();
        SignedDocument {
            version,
            bytes: Bytes::from(envelope),
            etag,
            expires,
            signed_by,
        }
    }

    /// Whether this document must be signed again: close to expiry, or signed
    /// by a key other than the current allowlist key (`gatehouse keys rotate`
    /// run beside a live server).
    fn needs_resigning(&self, current_key: &str) -> bool {
        self.expires - Utc::now() < RENEW_BEFORE || !self.signed_by.iter().any(|k| k == current_key)
    }
}

/// The newest signed document of every audience, in memory.
pub type AllowlistCache = Arc<RwLock<HashMap<String, Arc<SignedDocument>>>>;

/// Signs and publishes allowlists; shared by the HTTP server and the workers.
pub struct Publisher {
    keys: RwLock<KeyStore>,
    key_dir: PathBuf,
    issuer: String,
    /// Newest documents per audience.
    pub cache: AllowlistCache,
}

impl std::fmt::Debug for Publisher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Publisher")
            .field("issuer", &self.issuer)
            .finish_non_exhaustive()
    }
}

impl Publisher {
    /// Opens (or creates) the key store in `DATA_DIR/keys`.
    pub fn open(data_dir: &std::path::Path, issuer: &str) -> anyhow::Result<Publisher> {
        let key_dir = data_dir.join("keys");
        let keys = KeyStore::open(&key_dir)?;
        Ok(Publisher {
            keys: RwLock::new(keys),
            key_dir,
            issuer: issuer.to_string(),
            cache: Arc::new(RwLock::new(HashMap::new())),
        })
    }

    /// Runs `f` with the key store.
    pub fn with_keys<T>(&self, f: impl FnOnce(&KeyStore) -> T) -> T {
        f(&self.keys.read().expect("key store lock"))
    }

    /// Reloads the key store when another process (`gatehouse keys rotate`) published a newer root.
    pub fn reload_keys_if_rotated(&self) -> anyhow::Result<bool> {
        let fresh = KeyStore::open(&self.key_dir)?;
        let mut keys = self.keys.write().expect("key store lock");
        if fresh.root_version() != keys.root_version()
            || fresh.allowlist_keyid() != keys.allowlist_keyid()
        {
            *keys = fresh;
            return Ok(true);
        }
        Ok(false)
    }

    /// Replaces the allowlist signing key, publishes the next root naming it,
    /// and re-signs every audience's document with the new key (audited).
    /// Returns the new root version.
    pub async fn rotate_allowlist_key(&self, db: &Db, actor: &str) -> anyhow::Result<u64> {
        let root_version = {
            let mut keys = self.keys.write().expect("key store lock");
            keys.rotate_allowlist_key(Utc::now())?
        };
        let audiences: Vec<String> = sqlx::query("SELECT audience FROM allowlist_audiences")
            .fetch_all(db.pool())
            .await?
            .iter()
            .map(|r| r.get(0))
            .collect();
        let mut tx = db.begin().await?;
        let docs = self.publish_audiences(&mut tx, &audiences).await?;
        crate::storage::audit::append(
            &mut tx,
            crate::storage::audit::AuditEntry {
                actor,
                action: "keys.rotate",
                subject: "keys:allowlist",
                version_id: None,
                detail: serde_json::json!({
                    "rootVersion": root_version,
                    "allowlistKeyid": self.with_keys(|k| k.allowlist_keyid()),
                }),
            },
        )
        .await?;
        tx.commit().await?;
        self.remember(docs);
        Ok(root_version)
    }

    /// Records the entry an approved version contributes to each of its audiences.
    pub async fn add_entries(
        &self,
        tx: &mut Tx,
        v: &VersionRow,
        snapshot: Option<&Snapshot>,
        approval: &ApprovalRow,
        risk: Risk,
    ) -> anyhow::Result<()> {
        let server_json: serde_json::Value = serde_json::from_str(&v.server_json)?;
        let snapshot = snapshot.cloned().unwrap_or_default();
        let tools = match &approval.tools {
            Some(subset) => snapshot
                .tools
                .iter()
                .filter(|t| subset.contains(&t.name))
                .cloned()
                .collect(),
            None => snapshot.tools.clone(),
        };
        let entry = allowlist::payload::server_entry(&ApprovedServer {
            name: v.server_name.clone(),
            version: v.version.clone(),
            approved_at: parse_ts(&approval.approved_at).unwrap_or_else(Utc::now),
            server_json,
            tools,
            prompts: snapshot.prompts.clone(),
            resources: snapshot.resources.clone(),
            instructions: snapshot.instructions.clone(),
            risk,
        });
        let entry_json = serde_json::to_string(&entry)?;
        sqlx::query("DELETE FROM allowlist_entries WHERE version_id = $1")
            .bind(&v.id)
            .execute(tx.conn())
            .await?;
        for audience in &approval.audiences {
            sqlx::query("INSERT INTO allowlist_entries (version_id, audience, server_name, entry) VALUES ($1, $2, $3, $4)")
                .bind(&v.id)
                .bind(audience)
                .bind(&v.server_name)
                .bind(&entry_json)
                .execute(tx.conn())
                .await?;
        }
        Ok(())
    }

    /// Removes a version's entries (suspension, revocation); returns the audiences it was in.
    /// A revocation is remembered so the version is listed under `revoked`.
    pub async fn remove_entries(
        &self,
        tx: &mut Tx,
        v: &VersionRow,
        revoked_reason: Option<&str>,
    ) -> anyhow::Result<Vec<String>> {
        let audiences: Vec<String> =
            sqlx::query("SELECT audience FROM allowlist_entries WHERE version_id = $1")
                .bind(&v.id)
                .fetch_all(tx.conn())
                .await?
                .iter()
                .map(|r| r.get(0))
                .collect();
        if let Some(reason) = revoked_reason {
            let mut targets = audiences.clone();
            if targets.is_empty() {
                targets = approval_audiences(tx, &v.id).await?;
            }
            for audience in &targets {
                sqlx::query(
                    "INSERT INTO allowlist_revocations (version_id, audience, server_name, version, reason, at)
                     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING",
                )
                .bind(&v.id)
                .bind(audience)
                .bind(&v.server_name)
                .bind(&v.version)
                .bind(reason)
                .bind(now())
                .execute(tx.conn())
                .await?;
            }
            sqlx::query("DELETE FROM allowlist_entries WHERE version_id = $1")
                .bind(&v.id)
                .execute(tx.conn())
                .await?;
            return Ok(targets);
        }
        sqlx::query("DELETE FROM allowlist_entries WHERE version_id = $1")
            .bind(&v.id)
            .execute(tx.conn())
            .await?;
        Ok(audiences)
    }

    /// Re-signs the documents of `audiences` inside `tx`; returns the new documents,
    /// to be put in the cache once `tx` has committed.
    pub async fn publish_audiences(
        &self,
        tx: &mut Tx,
        audiences: &[String],
    ) -> anyhow::Result<Vec<(String, SignedDocument)>> {
        let mut sorted: Vec<&String> = audiences.iter().collect();
        // A fixed lock order: two decisions touching the same audiences cannot deadlock.
        sorted.sort();
        sorted.dedup();
        let mut out = Vec::new();
        for audience in sorted {
            out.push((audience.clone(), self.publish_one(tx, audience).await?));
        }
        Ok(out)
    }

    async fn publish_one(&self, tx: &mut Tx, audience: &str) -> anyhow::Result<SignedDocument> {
        let at = now();
        sqlx::query("INSERT INTO allowlist_audiences (audience, version, updated_at) VALUES ($1, 0, $2) ON CONFLICT (audience) DO NOTHING")
            .bind(audience)
            .bind(&at)
            .execute(tx.conn())
            .await?;
        let version: i64 = sqlx::query(
            "UPDATE allowlist_audiences SET version = version + 1, updated_at = $2 WHERE audience = $1 RETURNING version",
        )
        .bind(audience)
        .bind(&at)
        .fetch_one(tx.conn())
        .await?
        .get(0);
        let mut servers: Vec<ServerEntry> = Vec::new();
        for row in sqlx::query(
            "SELECT entry FROM allowlist_entries WHERE audience = $1 ORDER BY server_name",
        )
        .bind(audience)
        .fetch_all(tx.conn())
        .await?
        {
            servers.push(serde_json::from_str(&row.get::<String, _>(0))?);
        }
        let revoked: Vec<Revoked> = sqlx::query(
            "SELECT server_name, version, reason, at FROM allowlist_revocations WHERE audience = $1 ORDER BY server_name, version",
        )
        .bind(audience)
        .fetch_all(tx.conn())
        .await?
        .iter()
        .map(|r| Revoked {
            name: r.get(0),
            version: r.get(1),
            reason: r.get(2),
            at: parse_ts(&r.get::<String, _>(3)).unwrap_or_else(Utc::now),
        })
        .collect();
        let issued_at = Utc::now();
        let mut payload: AllowlistPayload = allowlist::build_payload(
            &self.issuer,
            audience,
            version as u64,
            issued_at,
            issued_at + VALIDITY,
            &[],
            &revoked,
        );
        allowlist::payload::one_entry_per_url(&mut servers);
        servers.sort_by(|a, b| (&a.name, &a.version).cmp(&(&b.name, &b.version)));
        payload.servers = servers;
        let envelope = self.with_keys(|k| k.sign_allowlist(&payload));
        let text = String::from_utf8(envelope.to_bytes()).expect("JSON is UTF-8");
        sqlx::query("INSERT INTO allowlist_documents (audience, version, envelope, issued_at, expires) VALUES ($1, $2, $3, $4, $5)")
            .bind(audience)
            .bind(version)
            .bind(&text)
            .bind(crate::storage::ts(payload.issued_at))
            .bind(crate::storage::ts(payload.expires))
            .execute(tx.conn())
            .await?;
        Ok(SignedDocument::new(version, text, payload.expires))
    }

    /// Puts freshly committed documents in the cache (never replacing a newer one).
    pub fn remember(&self, docs: Vec<(String, SignedDocument)>) {
        let mut cache = self.cache.write().expect("cache lock");
        for (audience, doc) in docs {
            let newer = cache.get(&audience).is_none_or(|d| d.version < doc.version);
            if newer {
                cache.insert(audience, Arc::new(doc));
            }
        }
    }

    /// The document of an audience, from the cache or (on a miss) the database.
    pub async fn document(
        &self,
        db: &Db,
        audience: &str,
    ) -> Result<Option<Arc<SignedDocument>>, sqlx::Error> {
        if let Some(doc) = self.cache.read().expect("cache lock").get(audience) {
            return Ok(Some(doc.clone()));
        }
        let row = sqlx::query(
            "SELECT d.version, d.envelope, d.expires FROM allowlist_documents d
             JOIN allowlist_audiences a ON a.audience = d.audience AND a.version = d.version WHERE d.audience = $1",
        )
        .bind(audience)
        .fetch_optional(db.pool())
        .await?;
        Ok(row.map(|r| {
            let doc = Arc::new(SignedDocument::new(
                r.get(0),
                r.get(1),
                parse_ts(&r.get::<String, _>(2)).unwrap_or_else(Utc::now),
            ));
            self.cache
                .write()
                .expect("cache lock")
                .insert(audience.to_string(), doc.clone());
            doc
        }))
    }

    /// Brings the cache up to date with the database and re-signs documents
    /// that are close to expiry. Run every second by every process.
    pub async fn refresh(&self, db: &Db) -> anyhow::Result<()> {
        let rows = sqlx::query("SELECT audience, version FROM allowlist_audiences")
            .fetch_all(db.pool())
            .await?;
        let mut stale = Vec::new();
        let mut current_key = self.with_keys(|k| k.allowlist_keyid());
        let foreign = self
            .cache
            .read()
            .expect("cache lock")
            .values()
            .any(|d| !d.signed_by.contains(&current_key));
        if foreign {
            // Another process may have rotated first: never re-sign a newer
            // key's document with our older one; read the keys again.
            self.reload_keys_if_rotated()?;
            current_key = self.with_keys(|k| k.allowlist_keyid());
        }
        for r in &rows {
            let (audience, version): (String, i64) = (r.get(0), r.get(1));
            let cached = self
                .cache
                .read()
                .expect("cache lock")
                .get(&audience)
                .cloned();
            match cached {
                Some(doc) if doc.version >= version => {
                    if doc.needs_resigning(&current_key) {
                        stale.push(audience);
                    }
                }
                _ => {
                    self.cache.write().expect("cache lock").remove(&audience);
                    if let Some(doc) = self.document(db, &audience).await? {
                        if doc.needs_resigning(&current_key) {
                            stale.push(audience);
                        }
                    }
                }
            }
        }
        if !stale.is_empty() {
            let mut tx = db.begin().await?;
            let docs = self.publish_audiences(&mut tx, &stale).await?;
            tx.commit().await?;
            tracing::info!(audiences = ?stale, "allowlists re-signed (expiry near or signing key rotated)");
            self.remember(docs);
        }
        Ok(())
    }

    /// Makes sure the `default` audience has a signed (possibly empty) document.
    pub async fn ensure_default(&self, db: &Db) -> anyhow::Result<()> {
        if self.document(db, "default").await?.is_some() {
            return Ok(());
        }
        let mut tx = db.begin().await?;
        let exists: Option<i64> =
            sqlx::query("SELECT version FROM allowlist_audiences WHERE audience = 'default'")
                .fetch_optional(tx.conn())
                .await?
                .map(|r| r.get(0));
        if exists.is_none() {
            let docs = self
                .publish_audiences(&mut tx, &["default".to_string()])
                .await?;
            tx.commit().await?;
            self.remember(docs);
        }
        Ok(())
    }

    /// Polls for new documents and rotated keys until `shutdown` turns true.
    pub async fn run_refresher(
        self: Arc<Self>,
        db: Db,
        mut shutdown: tokio::sync::watch::Receiver<bool>,
    ) {
        let mut tick = tokio::time::interval(Duration::from_secs(1));
        let mut n: u64 = 0;
        loop {
            tokio::select! {
                _ = tick.tick() => {}
                _ = shutdown.changed() => return,
            }
            if *shutdown.borrow() {
                return;
            }
            n += 1;
            // A rotation by `gatehouse keys rotate` in another process reaches
            // this one within two seconds; `refresh` then re-signs the documents.
            if n % 2 == 0 {
                match self.reload_keys_if_rotated() {
                    Ok(true) => tracing::info!("signing keys reloaded after a rotation"),
                    Ok(false) => {}
                    Err(e) => {
                        tracing::warn!(error = %format!("{e:#}"), "could not reload signing keys")
                    }
                }
            }
            if let Err(e) = self.refresh(&db).await {
                tracing::warn!(error = %format!("{e:#}"), "allowlist refresh failed");
            }
        }
    }
}

async fn approval_audiences(tx: &mut Tx, version_id: &str) -> Result<Vec<String>, sqlx::Error> {
    let row = sqlx::query("SELECT audiences FROM approvals WHERE version_id = $1")
        .bind(version_id)
        .fetch_optional(tx.conn())
        .await?;
    Ok(row
        .and_then(|r| serde_json::from_str(&r.get::<String, _>(0)).ok())
        .unwrap_or_default())
}
