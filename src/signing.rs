//! When and how the signed allowlists are signed, stored and served: the
//! application's side of `crate::allowlist` (which builds and signs a document
//! but knows no database). It answers *when* a document is signed:
//!
//! - on every decision that changes what an audience may use (approve, revoke,
//!   suspend, re-approve, the monitor narrowing an approval), inside that
//!   decision's transaction ([`Publisher::publish_audiences`]);
//! - before a document expires (the refresher, [`Publisher::run_refresher`],
//!   re-signs when less than [`RENEW_BEFORE`] is left);
//! - after a key rotation ([`Publisher::rotate_allowlist_key`]).
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

use crate::allowlist::{
    self, AllowlistPayload, ApprovedServer, KeyStore, Revoked, Risk, ServerEntry,
};
use crate::snapshot::Snapshot;
use crate::storage::allowlists as store;
use crate::storage::versions::{ApprovalRow, VersionRow};
use crate::storage::{Db, Tx, parse_ts};

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
        let audiences = store::audiences(db).await?;
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
        crate::storage::webhooks::emit(
            &mut tx,
            "key_rotated",
            serde_json::json!({
                "rootVersion": root_version,
                "allowlistKeyid": self.with_keys(|k| k.allowlist_keyid()),
            }),
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
        let mut entry = allowlist::payload::server_entry(&ApprovedServer {
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
        // Each remote carries its verification state (issue 15, additive).
        let states = crate::storage::ownership::remote_states_tx(tx, &v.server_id).await?;
        for remote in &mut entry.match_.remotes {
            remote.verification = Some(
                states
                    .iter()
                    .find(|(url, _)| *url == remote.url)
                    .map(|(_, state)| state.clone())
                    .unwrap_or_else(|| "unverified".into()),
            );
        }
        let entry_json = serde_json::to_string(&entry)?;
        store::replace_entries(tx, &v.id, &v.server_name, &approval.audiences, &entry_json).await?;
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
        let audiences = store::entry_audiences(tx, &v.id).await?;
        if let Some(reason) = revoked_reason {
            let mut targets = audiences.clone();
            if targets.is_empty() {
                targets = crate::storage::versions::approval_audiences(tx, &v.id).await?;
            }
            for audience in &targets {
                store::record_revocation(tx, &v.id, audience, &v.server_name, &v.version, reason)
                    .await?;
            }
            store::delete_entries(tx, &v.id).await?;
            return Ok(targets);
        }
        store::delete_entries(tx, &v.id).await?;
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
        let version = store::next_version(tx, audience).await?;
        let mut servers: Vec<ServerEntry> = Vec::new();
        for entry in store::entries(tx, audience).await? {
            servers.push(serde_json::from_str(&entry)?);
        }
        let revoked: Vec<Revoked> = store::revocations(tx, audience)
            .await?
            .into_iter()
            .map(|r| Revoked {
                name: r.server_name,
                version: r.version,
                reason: r.reason,
                at: parse_ts(&r.at).unwrap_or_else(Utc::now),
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
        let row = store::DocumentRow {
            version,
            envelope: text,
            expires: crate::storage::ts(payload.expires),
        };
        store::insert_document(tx, audience, &row, &crate::storage::ts(payload.issued_at)).await?;
        Ok(SignedDocument::new(version, row.envelope, payload.expires))
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
        let row = store::current_document(db, audience).await?;
        Ok(row.map(|r| {
            let doc = Arc::new(SignedDocument::new(
                r.version,
                r.envelope,
                parse_ts(&r.expires).unwrap_or_else(Utc::now),
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
        let rows = store::audience_versions(db).await?;
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
            let (audience, version) = (r.audience.clone(), r.version);
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
        let exists = store::audience_version(&mut tx, "default").await?;
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
