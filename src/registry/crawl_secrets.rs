//! Crawl credentials: what the scanner needs to crawl a server behind OAuth or
//! a secret header, sealed at rest, never shown again (issue 13).
//!
//! A server's publisher or an admin sets, per server:
//!
//! - OAuth client credentials: a client id with a client secret
//!   (`client_secret_basic`/`client_secret_post`) or a PKCS#8 private key
//!   (`private_key_jwt`), for the client-credentials grant of
//!   `discovery::oauth`;
//! - the value of a header that a version's `remotes[].headers` declares
//!   `isSecret` (an API key the server expects).
//!
//! Secrets are sealed with ChaCha20-Poly1305 (RFC 8439) under a 256-bit key in
//! `DATA_DIR/crawl-credentials.key`, created with mode 0600 on first use and
//! refused when anyone but its owner may read it. Each record has its own
//! random 96-bit nonce, and its associated data names the server id, kind,
//! header name, client id and method: a sealed value copied onto another row
//! or server does not open. The key never enters the database, so a copy of
//! the database (or a PostgreSQL backup) holds no usable secret.
//!
//! What leaves this module: to the API, only whether a credential is set, its
//! kind, header name, client id, method, bound issuer, when and by whom; to the
//! crawler, the opened values, which `discovery` sends only to the server's
//! origin (headers, token) and to the token endpoint its metadata names (client
//! secret or assertion). No secret is logged, audited or put in an error.
//!
//! OAuth credentials are bound to the issuer that first issued a token for
//! them (MCP 2026-07-28, Authorization: credentials are keyed by issuer); the
//! worker records it after the first successful crawl, and the crawler never
//! sends them to another authorisation server afterwards.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use base64::Engine;
use ring::aead::{Aad, CHACHA20_POLY1305, LessSafeKey, NONCE_LEN, Nonce, UnboundKey};
use ring::rand::{SecureRandom, SystemRandom};
use serde_json::{Value, json};

use crate::discovery::{ClientAuth, OAuthCredentials};
use crate::storage::audit::{self, AuditEntry};
use crate::storage::crawl_credentials::{self as store, CredentialRow};
use crate::storage::{Db, now};

/// The key file's name in the data directory.
pub const KEY_FILE: &str = "crawl-credentials.key";

/// Kinds of credential.
pub const OAUTH: &str = "oauth";
/// A secret header value.
pub const HEADER: &str = "header";

/// Longest client id, secret, header value and key accepted.
const MAX_CLIENT_ID: usize = 255;
const MAX_SECRET: usize = 4096;
const MAX_HEADER_VALUE: usize = 8192;
const MAX_KEY_PEM: usize = 16 * 1024;

/// Why a credential could not be set, read or used.
#[derive(Debug, thiserror::Error)]
pub enum SecretError {
    /// The input is unusable; the message never repeats the secret.
    #[error("{0}")]
    Invalid(String),
    /// No such credential.
    #[error("{0}")]
    NotFound(String),
    /// The key file is missing, unreadable, too open, or a record does not open.
    #[error("crawl credentials: {0}")]
    Vault(String),
    /// The database failed.
    #[error(transparent)]
    Storage(#[from] sqlx::Error),
}

/// The sealing key, loaded (or created) on first use.
pub struct Vault {
    path: PathBuf,
    key: Mutex<Option<Arc<LessSafeKey>>>,
}

impl std::fmt::Debug for Vault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Vault")
            .field("path", &self.path)
            .finish_non_exhaustive()
    }
}

impl Vault {
    /// The vault of a data directory; nothing is read or created until first use.
    pub fn new(data_dir: &Path) -> Vault {
        Vault {
            path: data_dir.join(KEY_FILE),
            key: Mutex::new(None),
        }
    }

    fn key(&self) -> Result<Arc<LessSafeKey>, SecretError> {
        let mut slot = self.key.lock().expect("vault lock");
        if let Some(key) = slot.as_ref() {
            return Ok(key.clone());
        }
        let bytes = load_or_create_key(&self.path).map_err(SecretError::Vault)?;
        let key = UnboundKey::new(&CHACHA20_POLY1305, &bytes)
            .map_err(|_| SecretError::Vault("the key file does not hold a 256-bit key".into()))?;
        let key = Arc::new(LessSafeKey::new(key));
        *slot = Some(key.clone());
        Ok(key)
    }

    /// Seals `secret` for the record `aad` names; returns (nonce, ciphertext), Base64.
    fn seal(&self, aad: &str, secret: &[u8]) -> Result<(String, String), SecretError> {
        let key = self.key()?;
        let mut nonce = [0u8; NONCE_LEN];
        SystemRandom::new()
            .fill(&mut nonce)
            .map_err(|_| SecretError::Vault("no random bytes for a nonce".into()))?;
        let mut sealed = secret.to_vec();
        key.seal_in_place_append_tag(
            Nonce::assume_unique_for_key(nonce),
            Aad::from(aad.as_bytes()),
            &mut sealed,
        )
        .map_err(|_| SecretError::Vault("sealing failed".into()))?;
        let b64 = base64::engine::general_purpose::STANDARD;
        Ok((b64.encode(nonce), b64.encode(sealed)))
    }

    /// Opens a stored record.
    fn open(&self, row: &CredentialRow) -> Result<String, SecretError> {
        let key = self.key()?;
        let b64 = base64::engine::general_purpose::STANDARD;
        let broken = || {
            SecretError::Vault(format!(
                "the stored {} credential does not open (another key, or the row was altered); set it again",
                row.kind
            ))
        };
        let nonce: [u8; NONCE_LEN] = b64
            .decode(&row.nonce)
            .ok()
            .and_then(|n| n.try_into().ok())
            .ok_or_else(broken)?;
        let mut sealed = b64.decode(&row.ciphertext).map_err(|_| broken())?;
        let aad = associated_data(
            &row.server_id,
            &row.kind,
            &row.name,
            row.client_id.as_deref(),
            row.method.as_deref(),
        );
        let plain = key
            .open_in_place(
                Nonce::assume_unique_for_key(nonce),
                Aad::from(aad.as_bytes()),
                &mut sealed,
            )
            .map_err(|_| broken())?;
        String::from_utf8(plain.to_vec()).map_err(|_| broken())
    }
}

/// What binds a sealed value to its record.
fn associated_data(
    server_id: &str,
    kind: &str,
    name: &str,
    client_id: Option<&str>,
    method: Option<&str>,
) -> String {
    format!(
        "gatehouse crawl credential v1\n{server_id}\n{kind}\n{name}\n{}\n{}",
        client_id.unwrap_or(""),
        method.unwrap_or("")
    )
}

/// Reads the key file, creating it (mode 0600, 32 random bytes, hex) when missing.
/// A file others may read is refused: the key opens every stored secret.
fn load_or_create_key(path: &Path) -> Result<Vec<u8>, String> {
    if !path.exists() {
        create_key_file(path)?;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let meta = std::fs::metadata(path).map_err(|e| format!("{}: {e}", path.display()))?;
        if meta.mode() & 0o077 != 0 {
            return Err(format!(
                "{} may be read by others (mode {:o}); chmod 600 it",
                path.display(),
                meta.mode() & 0o777
            ));
        }
    }
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let bytes = hex::decode(text.trim())
        .map_err(|_| format!("{} is not a hex-encoded key", path.display()))?;
    if bytes.len() != 32 {
        return Err(format!("{} does not hold a 256-bit key", path.display()));
    }
    Ok(bytes)
}

/// Writes a new key beside `path` and links it into place, so two processes
/// starting together agree on one key and none reads a half-written file.
fn create_key_file(path: &Path) -> Result<(), String> {
    let dir = path.parent().ok_or("the key file has no directory")?;
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut key = [0u8; 32];
    SystemRandom::new()
        .fill(&mut key)
        .map_err(|_| "no random bytes for the key".to_string())?;
    let temp = dir.join(format!(".{KEY_FILE}.{}", uuid::Uuid::new_v4()));
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let written = options.open(&temp).and_then(|mut f| {
        f.write_all(hex::encode(key).as_bytes())
            .and_then(|_| f.sync_all())
    });
    let linked = written.and_then(|_| match std::fs::hard_link(&temp, path) {
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        other => other,
    });
    let _ = std::fs::remove_file(&temp);
    linked.map_err(|e| format!("creating {}: {e}", path.display()))
}

/// A server a caller may manage the credentials of.
#[derive(Debug, Clone)]
pub struct ServerRef {
    /// Its id.
    pub id: String,
    /// Its registered name.
    pub name: String,
    /// Its owner.
    pub publisher_id: String,
}

/// Looks a server up by name.
pub async fn find_server(db: &Db, name: &str) -> Result<Option<ServerRef>, SecretError> {
    Ok(store::server_by_name(db, name)
        .await?
        .map(|(id, publisher_id, name)| ServerRef {
            id,
            name,
            publisher_id,
        }))
}

/// New OAuth client credentials.
pub struct NewOAuth {
    /// The client id.
    pub client_id: String,
    /// The secret or key.
    pub auth: ClientAuth,
}

/// Seals and stores a server's OAuth credentials (replacing any), audited.
pub async fn set_oauth(
    db: &Db,
    vault: &Vault,
    server: &ServerRef,
    new: NewOAuth,
    actor: &str,
) -> Result<(), SecretError> {
    let client_id = new.client_id;
    if client_id.is_empty()
        || client_id.len() > MAX_CLIENT_ID
        || !client_id.bytes().all(|b| (0x20..0x7f).contains(&b))
    {
        return Err(SecretError::Invalid(format!(
            "clientId must be 1 to {MAX_CLIENT_ID} printable ASCII characters"
        )));
    }
    let (method, secret) = match new.auth {
        ClientAuth::Secret(secret) => {
            if secret.is_empty()
                || secret.len() > MAX_SECRET
                || secret.chars().any(char::is_control)
            {
                return Err(SecretError::Invalid(format!(
                    "clientSecret must be 1 to {MAX_SECRET} bytes without control characters"
                )));
            }
            ("client_secret", secret)
        }
        ClientAuth::PrivateKey(pem) => {
            if pem.len() > MAX_KEY_PEM {
                return Err(SecretError::Invalid("privateKey is too long".into()));
            }
            crate::discovery::key_algorithm(&pem)
                .map_err(|e| SecretError::Invalid(format!("privateKey: {e}")))?;
            ("private_key_jwt", pem)
        }
    };
    let aad = associated_data(&server.id, OAUTH, "", Some(&client_id), Some(method));
    let (nonce, ciphertext) = vault.seal(&aad, secret.as_bytes())?;
    let row = CredentialRow {
        server_id: server.id.clone(),
        kind: OAUTH.into(),
        name: String::new(),
        client_id: Some(client_id.clone()),
        method: Some(method.into()),
        // New credentials are bound again on their first successful crawl.
        issuer: None,
        nonce,
        ciphertext,
        set_by: actor.into(),
        set_at: now(),
    };
    store_and_audit(
        db,
        &row,
        server,
        actor,
        json!({"kind": OAUTH, "clientId": client_id, "method": method}),
    )
    .await
}

/// Seals and stores the value of a header some version of the server declares
/// `isSecret` (replacing any), audited.
pub async fn set_header(
    db: &Db,
    vault: &Vault,
    server: &ServerRef,
    header: &str,
    value: String,
    actor: &str,
) -> Result<(), SecretError> {
    let name = header.to_ascii_lowercase();
    let declared = declared_secret_headers(db, &server.id).await?;
    if !declared.contains(&name) {
        return Err(SecretError::Invalid(format!(
            "no version of {} declares a secret header {:?} in remotes[].headers (isSecret: true)",
            server.name,
            header.chars().take(64).collect::<String>()
        )));
    }
    if value.is_empty()
        || value.len() > MAX_HEADER_VALUE
        || reqwest::header::HeaderValue::from_str(&value).is_err()
    {
        return Err(SecretError::Invalid(format!(
            "value must be 1 to {MAX_HEADER_VALUE} bytes of visible characters, as a header carries"
        )));
    }
    let aad = associated_data(&server.id, HEADER, &name, None, None);
    let (nonce, ciphertext) = vault.seal(&aad, value.as_bytes())?;
    let row = CredentialRow {
        server_id: server.id.clone(),
        kind: HEADER.into(),
        name: name.clone(),
        client_id: None,
        method: None,
        issuer: None,
        nonce,
        ciphertext,
        set_by: actor.into(),
        set_at: now(),
    };
    store_and_audit(
        db,
        &row,
        server,
        actor,
        json!({"kind": HEADER, "name": name}),
    )
    .await
}

async fn store_and_audit(
    db: &Db,
    row: &CredentialRow,
    server: &ServerRef,
    actor: &str,
    detail: Value,
) -> Result<(), SecretError> {
    let mut tx = db.begin().await?;
    store::upsert(&mut tx, row).await?;
    audit::append(
        &mut tx,
        AuditEntry {
            actor,
            action: "server.crawl_credentials.set",
            subject: &server.name,
            version_id: None,
            detail,
        },
    )
    .await?;
    tx.commit().await?;
    Ok(())
}

/// After credentials were set: scans again every version of the server whose
/// scan failed (a server that required OAuth ends there), as `actor`, through
/// the reviewers' own rescan (`review::act`, audited); returns the versions.
/// A version another request moved meanwhile is skipped.
pub async fn rescan_failed(
    db: &Db,
    allowlists: &crate::signing::Publisher,
    server: &ServerRef,
    actor: &str,
) -> Result<Vec<String>, SecretError> {
    let mut queued = Vec::new();
    for version in store::failed_versions(db, &server.id).await? {
        let decision = crate::review::Decision::Rescan;
        match crate::review::act(db, allowlists, &server.name, &version, actor, decision).await {
            Ok(_) => queued.push(version),
            Err(crate::review::ReviewError::Db(e)) => return Err(e.into()),
            Err(e) => {
                tracing::info!(server = %server.name, version = %version, reason = %e, "not rescanned")
            }
        }
    }
    Ok(queued)
}

/// Deletes one credential (`kind` with `name`, `''` for OAuth), audited.
pub async fn delete(
    db: &Db,
    server: &ServerRef,
    kind: &str,
    name: &str,
    actor: &str,
) -> Result<(), SecretError> {
    let name = name.to_ascii_lowercase();
    let mut tx = db.begin().await?;
    if !store::delete(&mut tx, &server.id, kind, &name).await? {
        return Err(SecretError::NotFound(format!(
            "{} has no {kind} crawl credential{}",
            server.name,
            if name.is_empty() {
                String::new()
            } else {
                format!(" for {name:?}")
            }
        )));
    }
    let mut detail = json!({"kind": kind});
    if !name.is_empty() {
        detail["name"] = json!(name);
    }
    audit::append(
        &mut tx,
        AuditEntry {
            actor,
            action: "server.crawl_credentials.delete",
            subject: &server.name,
            version_id: None,
            detail,
        },
    )
    .await?;
    tx.commit().await?;
    Ok(())
}

/// What the API shows of a server's credentials: never the secret.
pub async fn summary(db: &Db, server: &ServerRef) -> Result<Value, SecretError> {
    let rows = store::list(db, &server.id).await?;
    let oauth = rows.iter().find(|r| r.kind == OAUTH).map(|r| {
        json!({
            "set": true,
            "clientId": r.client_id,
            "method": r.method,
            "issuer": r.issuer,
            "setAt": r.set_at,
            "setBy": r.set_by,
        })
    });
    let declared = declared_secret_headers(db, &server.id).await?;
    let headers: Vec<Value> = declared
        .iter()
        .map(|name| {
            let row = rows.iter().find(|r| r.kind == HEADER && &r.name == name);
            json!({
                "name": name,
                "set": row.is_some(),
                "setAt": row.map(|r| &r.set_at),
                "setBy": row.map(|r| &r.set_by),
            })
        })
        .collect();
    Ok(json!({
        "server": server.name,
        "oauth": oauth.unwrap_or_else(|| json!({"set": false})),
        "headers": headers,
    }))
}

/// The opened credentials a crawl of one server uses.
#[derive(Debug, Default)]
pub struct ForCrawl {
    /// OAuth client credentials, bound to their issuer once known.
    pub oauth: Option<OAuthCredentials>,
    /// Secret header values, by lower-case name (`Debug` shows names only).
    pub headers: Vec<SecretHeader>,
}

/// One secret header value.
pub struct SecretHeader {
    /// Lower-case header name.
    pub name: String,
    /// The value.
    pub value: String,
}

impl std::fmt::Debug for SecretHeader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SecretHeader({}: <redacted>)", self.name)
    }
}

/// Opens a server's stored credentials for a crawl. A record that does not
/// open fails the crawl (fail closed) rather than crawl without it.
pub async fn for_crawl(db: &Db, vault: &Vault, server_id: &str) -> Result<ForCrawl, SecretError> {
    let rows = store::list(db, server_id).await?;
    let mut out = ForCrawl::default();
    for row in rows {
        let secret = vault.open(&row)?;
        match row.kind.as_str() {
            OAUTH => {
                let auth = match row.method.as_deref() {
                    Some("private_key_jwt") => ClientAuth::PrivateKey(secret),
                    _ => ClientAuth::Secret(secret),
                };
                out.oauth = Some(OAuthCredentials {
                    client_id: row.client_id.unwrap_or_default(),
                    auth,
                    issuer: row.issuer,
                });
            }
            HEADER => out.headers.push(SecretHeader {
                name: row.name,
                value: secret,
            }),
            _ => {}
        }
    }
    Ok(out)
}

/// Puts a server's credentials into the options of a crawl of `url`, a remote
/// of `doc`: the OAuth credentials, and the secret headers that this remote
/// declares (a header declared for another remote is not sent here).
pub async fn apply(
    db: &Db,
    vault: &Vault,
    server_id: &str,
    doc: &Value,
    url: &str,
    options: &mut crate::discovery::CrawlOptions,
) -> Result<(), SecretError> {
    let opened = for_crawl(db, vault, server_id).await?;
    let declared: Vec<String> = remote_of(doc, url)
        .map(|remote| secret_header_names(remote).collect())
        .unwrap_or_default();
    options.oauth = opened.oauth;
    for header in opened.headers {
        if declared.contains(&header.name) {
            options.headers.push((header.name, header.value));
        }
    }
    Ok(())
}

/// After a crawl that obtained a token: binds the server's OAuth credentials
/// to the issuer that issued it, if they were not bound yet (audited).
pub async fn bind_issuer(
    db: &Db,
    server_id: &str,
    subject: &str,
    issuer: &str,
) -> Result<(), SecretError> {
    let mut tx = db.begin().await?;
    if store::bind_issuer(&mut tx, server_id, issuer).await? {
        audit::append(
            &mut tx,
            AuditEntry {
                actor: "system:worker",
                action: "server.crawl_credentials.bind_issuer",
                subject,
                version_id: None,
                detail: json!({"issuer": issuer}),
            },
        )
        .await?;
    }
    tx.commit().await?;
    Ok(())
}

/// The lower-case names of the headers any version of a server declares secret.
async fn declared_secret_headers(db: &Db, server_id: &str) -> Result<Vec<String>, SecretError> {
    let mut names = Vec::new();
    for text in store::server_documents(db, server_id).await? {
        let Ok(doc) = serde_json::from_str::<Value>(&text) else {
            continue;
        };
        for remote in doc["remotes"].as_array().into_iter().flatten() {
            for name in secret_header_names(remote) {
                if !names.contains(&name) {
                    names.push(name);
                }
            }
        }
    }
    names.sort();
    Ok(names)
}

fn remote_of<'a>(doc: &'a Value, url: &str) -> Option<&'a Value> {
    doc["remotes"]
        .as_array()?
        .iter()
        .find(|r| r["url"].as_str() == Some(url))
}

/// The headers of one remote declared `isSecret: true`, lower case.
fn secret_header_names(remote: &Value) -> impl Iterator<Item = String> + '_ {
    remote["headers"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|h| h["isSecret"] == Value::Bool(true))
        .filter_map(|h| h["name"].as_str())
        .filter(|n| reqwest::header::HeaderName::from_bytes(n.as_bytes()).is_ok())
        .map(str::to_ascii_lowercase)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(vault: &Vault, server: &str, kind: &str, name: &str, secret: &str) -> CredentialRow {
        let aad = associated_data(server, kind, name, None, None);
        let (nonce, ciphertext) = vault.seal(&aad, secret.as_bytes()).unwrap();
        CredentialRow {
            server_id: server.into(),
            kind: kind.into(),
            name: name.into(),
            client_id: None,
            method: None,
            issuer: None,
            nonce,
            ciphertext,
            set_by: "t".into(),
            set_at: "t".into(),
        }
    }

    #[test]
    fn a_sealed_value_opens_only_on_its_own_record() {
        let dir = tempfile::tempdir().unwrap();
        let vault = Vault::new(dir.path());
        let sealed = row(&vault, "s1", HEADER, "x-api-key", "v4lue");
        assert_eq!(vault.open(&sealed).unwrap(), "v4lue");
        let moved = CredentialRow {
            server_id: "s2".into(),
            ..sealed.clone()
        };
        assert!(vault.open(&moved).is_err());
        let renamed = CredentialRow {
            name: "authorization".into(),
            ..sealed.clone()
        };
        assert!(vault.open(&renamed).is_err());
        let other = row(&vault, "s1", HEADER, "x-api-key", "v4lue");
        assert_ne!(other.nonce, sealed.nonce, "a nonce per record");
    }

    #[cfg(unix)]
    #[test]
    fn the_key_file_is_created_private_and_refused_when_others_may_read_it() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let vault = Vault::new(dir.path());
        vault.key().unwrap();
        let path = dir.path().join(KEY_FILE);
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        let err = Vault::new(dir.path()).key().unwrap_err().to_string();
        assert!(err.contains("chmod 600"), "{err}");
    }

    #[test]
    fn another_key_does_not_open_a_record() {
        let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let sealed = row(&Vault::new(a.path()), "s", OAUTH, "", "secret");
        let err = Vault::new(b.path()).open(&sealed).unwrap_err().to_string();
        assert!(
            err.contains("does not open") && !err.contains("secret\""),
            "{err}"
        );
    }
}
