//! Publishing a `server.json` (`POST /v0/publish`): validate, store the version
//! as `pending`, enqueue its scan and write the audit row — all in one
//! transaction, so a refused or failed publish stores nothing.

use serde_json::{Value, json};

use super::ownership::Verification;
use super::server_json::{self, FieldError};
use crate::discovery::NetPolicy;
use crate::storage::accounts::Publisher;
use crate::storage::audit::{self, AuditEntry};
use crate::storage::versions::{self, VersionRow};
use crate::storage::{Db, Tx, is_unique_violation, jobs};

/// Why a publish was refused.
#[derive(Debug, thiserror::Error)]
pub enum PublishError {
    /// The body is not JSON.
    #[error("the body is not valid JSON: {0}")]
    InvalidJson(String),
    /// The document breaks the schema or the registry's rules.
    #[error("the server.json is invalid")]
    Invalid(Vec<FieldError>),
    /// The name is outside the publisher's namespaces, or the server belongs to another publisher.
    #[error("{0}")]
    Forbidden(String),
    /// This version already exists.
    #[error("version {version} of {name} is already published; published versions are immutable")]
    DuplicateVersion {
        /// Server name.
        name: String,
        /// Version.
        version: String,
    },
    /// A remote URL belongs to another server.
    #[error("the remote URL {url} is already used by server {owner}")]
    RemoteTaken {
        /// The URL.
        url: String,
        /// The server that owns it.
        owner: String,
    },
    /// The database failed.
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

/// Validates and stores a submitted `server.json` for `publisher`.
pub async fn publish(
    db: &Db,
    net: &NetPolicy,
    publisher: &Publisher,
    body: &[u8],
) -> Result<VersionRow, PublishError> {
    let text = std::str::from_utf8(body)
        .map_err(|_| PublishError::InvalidJson("the body is not UTF-8".into()))?;
    let parsed = crate::strict_json::parse(text.as_bytes())
        .map_err(|e| PublishError::InvalidJson(e.to_string()))?;
    // A repeated key gives the document two meanings: the validator would see
    // the last value while `/v0.1/servers` serves the bytes to parsers that
    // may take the first. Refuse before anything else looks at it.
    if let Some(pointer) = parsed.duplicate {
        return Err(PublishError::Invalid(vec![FieldError {
            pointer,
            detail: "this key appears more than once in its object; every key must be unique"
                .into(),
        }]));
    }
    let doc: Value = parsed.value;
    if !doc.is_object() {
        return Err(PublishError::Invalid(vec![FieldError {
            pointer: String::new(),
            detail: "a server.json is a JSON object".into(),
        }]));
    }
    let schema_errors = server_json::schema_errors(&doc);
    if !schema_errors.is_empty() {
        return Err(PublishError::Invalid(schema_errors));
    }
    let name = doc["name"].as_str().unwrap_or_default().to_string();
    let version = doc["version"].as_str().unwrap_or_default().to_string();
    let ns = server_json::namespace(&name);
    if !publisher
        .namespaces
        .iter()
        .any(|p| server_json::namespace_allowed(ns, p))
    {
        return Err(PublishError::Forbidden(format!(
            "the namespace {ns:?} is not one of this publisher's namespaces ({})",
            publisher.namespaces.join(", ")
        )));
    }
    let rule_errors = server_json::registry_rule_errors(&doc, net);
    if !rule_errors.is_empty() {
        return Err(PublishError::Invalid(rule_errors));
    }
    let remotes = server_json::remote_urls(&doc);
    let takeovers = takeover_proofs(db, net, publisher, &name, &remotes).await?;

    // Two publishes of a new server can race to create it; the loser's unique
    // violation aborts its transaction, and one retry then finds the server.
    let mut attempt = 0;
    loop {
        attempt += 1;
        match store(db, publisher, &name, &version, text, &remotes, &takeovers).await {
            Err(PublishError::Db(e)) if attempt < 3 && is_unique_violation(&e) => continue,
            other => return other,
        }
    }
}

async fn store(
    db: &Db,
    publisher: &Publisher,
    name: &str,
    version: &str,
    text: &str,
    remotes: &[String],
    takeovers: &[(String, Verification)],
) -> Result<VersionRow, PublishError> {
    let mut tx = db.begin().await?;
    let server_id = match versions::find_server(&mut tx, name).await? {
        Some((_, owner, stored)) if owner == publisher.id && stored != name => {
            return Err(PublishError::Invalid(vec![FieldError {
                pointer: "/name".into(),
                detail: format!(
                    "this server is registered as {stored:?}; names that differ only by case are the same server, so publish under that exact name"
                ),
            }]));
        }
        Some((id, owner, _)) if owner == publisher.id => id,
        Some(_) => {
            return Err(PublishError::Forbidden(format!(
                "the server {name} belongs to another publisher"
            )));
        }
        None => versions::insert_server(&mut tx, name, &publisher.id).await?,
    };
    for url in remotes {
        if let Some((owner_id, owner_name)) = versions::remote_owner(&mut tx, url).await? {
            if owner_id != server_id {
                // A verified owner takes over a URL that an unverified publisher holds.
                let proof = takeovers.iter().find(|(u, _)| u == url).map(|(_, v)| *v);
                let holder = crate::storage::ownership::holder(&mut tx, url).await?;
                match (proof, holder) {
                    (Some(proof), Some((_, previous_publisher, state)))
                        if state == Verification::Unverified.as_str() =>
                    {
                        take_over(
                            &mut tx,
                            url,
                            &server_id,
                            name,
                            &owner_name,
                            &previous_publisher,
                            publisher,
                            proof,
                        )
                        .await?;
                    }
                    _ => {
                        return Err(PublishError::RemoteTaken {
                            url: url.clone(),
                            owner: owner_name,
                        });
                    }
                }
            }
        }
    }
    let row = match versions::insert_version(&mut tx, &server_id, name, version, text).await {
        Ok(row) => row,
        // The server row is ours at this point, so a unique violation is the (name, version) key.
        Err(e) if is_unique_violation(&e) => {
            return Err(PublishError::DuplicateVersion {
                name: name.into(),
                version: version.into(),
            });
        }
        Err(e) => return Err(e.into()),
    };
    for url in remotes {
        versions::claim_remote(&mut tx, url, &server_id).await?;
    }
    jobs::enqueue(&mut tx, jobs::kinds::SCAN, &row.id).await?;
    crate::storage::webhooks::emit(
        &mut tx,
        "submitted",
        json!({"name": name, "version": version, "publisher": publisher.name}),
    )
    .await?;
    audit::append(
        &mut tx,
        AuditEntry {
            actor: &format!("publisher:{}", publisher.name),
            action: "version.publish",
            subject: &format!("{name}@{version}"),
            version_id: Some(&row.id),
            detail: json!({"status": "pending"}),
        },
    )
    .await?;
    tx.commit().await.map_err(|e| {
        if is_unique_violation(&e) {
            PublishError::DuplicateVersion {
                name: name.into(),
                version: version.into(),
            }
        } else {
            e.into()
        }
    })?;
    Ok(row)
}

/// For each remote another server holds unverified: whether this publisher
/// proves it runs it (domain, Server Card, challenge). Checked before the
/// publish's transaction, which must not wait on the network.
async fn takeover_proofs(
    db: &Db,
    net: &NetPolicy,
    publisher: &Publisher,
    name: &str,
    remotes: &[String],
) -> Result<Vec<(String, Verification)>, PublishError> {
    let mut proofs = Vec::new();
    for url in remotes {
        let mut tx = db.begin().await?;
        let holder = crate::storage::ownership::holder(&mut tx, url).await?;
        tx.commit().await?;
        let Some((_, holder_publisher, state)) = holder else {
            continue;
        };
        if holder_publisher == publisher.id || state != Verification::Unverified.as_str() {
            continue;
        }
        let token = match super::ownership::origin_of(url) {
            Some(origin) => {
                crate::storage::ownership::issued_token(db, &publisher.id, &origin).await?
            }
            None => None,
        };
        let proof = super::ownership::verify_remote(
            url,
            name,
            &publisher.namespaces,
            token.as_deref(),
            net,
        )
        .await;
        if proof.verified() {
            proofs.push((url.clone(), proof));
        }
    }
    Ok(proofs)
}

/// Moves `url` to the server `server_id` (verified as `proof`), with an
/// audit row, and tells the previous holder's webhooks (`taken_over`).
#[allow(clippy::too_many_arguments)]
async fn take_over(
    tx: &mut Tx,
    url: &str,
    server_id: &str,
    name: &str,
    previous_server: &str,
    previous_publisher: &str,
    publisher: &Publisher,
    proof: Verification,
) -> Result<(), PublishError> {
    crate::storage::ownership::transfer_remote(tx, url, server_id, proof.as_str()).await?;
    let detail = json!({
        "url": url,
        "from": previous_server,
        "to": name,
        "verification": proof.as_str(),
        "publisher": publisher.name,
    });
    audit::append(
        tx,
        AuditEntry {
            actor: &format!("publisher:{}", publisher.name),
            action: "remote.takeover",
            subject: url,
            version_id: None,
            detail: detail.clone(),
        },
    )
    .await?;
    crate::storage::webhooks::emit_for_publisher(tx, "taken_over", detail, previous_publisher)
        .await?;
    Ok(())
}
