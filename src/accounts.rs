//! Account management: users, staff API tokens, publishers with their tokens,
//! revocation and the first admin. One service for every front end — the
//! `gatehouse admin`/`gatehouse publisher` commands and the administrator web
//! pages call the same functions, so a name or password is accepted or refused
//! by one rule, and every change writes its audit row in the same transaction.
//!
//! Errors are typed ([`AccountError`]): a front end decides what to show by the
//! variant (a duplicate name is the user's mistake, a database failure is not),
//! never by the text. Secrets leave this module exactly once, as return values
//! (a new token, a generated password); only their hashes are stored.

use crate::registry::{credentials, server_json};
use crate::storage::accounts::{self, Publisher, Role};
use crate::storage::audit::{self, AuditEntry};
use crate::storage::{Db, is_unique_violation};

/// Why an account operation did not happen. Nothing was changed in any case.
#[derive(Debug, thiserror::Error)]
pub enum AccountError {
    /// The name is taken (`what` is `user` or `publisher`).
    #[error("a {what} named {name:?} already exists")]
    AlreadyExists {
        /// Kind of account.
        what: &'static str,
        /// The name asked for.
        name: String,
    },
    /// The publisher or token does not exist (or a token was already revoked).
    #[error("{0}")]
    NotFound(String),
    /// The input breaks a rule; the text says which, in a sentence for the user.
    #[error("{0}")]
    Invalid(String),
    /// The database failed.
    #[error("database: {0}")]
    Storage(#[from] sqlx::Error),
}

/// Whether an account name is acceptable: 1-64 ASCII letters, digits, `.`, `_` or `-`.
pub fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
}

fn check_name(what: &str, name: &str) -> Result<(), AccountError> {
    if valid_name(name) {
        Ok(())
    } else {
        Err(AccountError::Invalid(format!(
            "a {what} name is 1-64 characters of letters, digits, '.', '_' or '-'"
        )))
    }
}

/// Checks a password against the minimum length (the same for every account).
pub fn check_password(password: &str) -> Result<(), AccountError> {
    if password.chars().count() >= credentials::MIN_PASSWORD_CHARS {
        Ok(())
    } else {
        Err(AccountError::Invalid(format!(
            "the password must have at least {} characters",
            credentials::MIN_PASSWORD_CHARS
        )))
    }
}

/// Checks a publisher's namespaces: one or more reverse-DNS prefixes.
fn check_namespaces(namespaces: &[String]) -> Result<(), AccountError> {
    if namespaces.is_empty() {
        return Err(AccountError::Invalid(
            "give one or more reverse-DNS namespaces such as com.example".into(),
        ));
    }
    match namespaces.iter().find(|ns| !server_json::valid_prefix(ns)) {
        Some(bad) => Err(AccountError::Invalid(format!(
            "{bad:?} is not a reverse-DNS namespace such as com.example"
        ))),
        None => Ok(()),
    }
}

/// argon2 is deliberately slow: hash off the async threads.
async fn hash_password(password: &str) -> String {
    let password = password.to_string();
    tokio::task::spawn_blocking(move || credentials::hash_password(&password))
        .await
        .expect("password hashing does not panic")
}

/// Maps a unique violation of `name` to [`AccountError::AlreadyExists`].
fn taken(what: &'static str, name: &str) -> impl FnOnce(sqlx::Error) -> AccountError {
    let name = name.to_string();
    move |e| {
        if is_unique_violation(&e) {
            AccountError::AlreadyExists { what, name }
        } else {
            AccountError::Storage(e)
        }
    }
}

/// Creates a user who signs in to the web UI (`Admin` or `Reviewer`).
pub async fn create_user(
    db: &Db,
    name: &str,
    password: &str,
    role: Role,
    actor: &str,
) -> Result<(), AccountError> {
    check_name("user", name)?;
    check_password(password)?;
    if role == Role::Publisher {
        return Err(AccountError::Invalid(
            "a user is an admin or a reviewer".into(),
        ));
    }
    let hash = hash_password(password).await;
    let mut tx = db.begin().await?;
    accounts::insert_user(&mut tx, name, &hash, role)
        .await
        .map_err(taken("user", name))?;
    audit::append(
        &mut tx,
        AuditEntry {
            actor,
            action: "user.create",
            subject: &format!("user:{name}"),
            version_id: None,
            detail: serde_json::json!({"role": role.as_str()}),
        },
    )
    .await?;
    tx.commit().await?;
    Ok(())
}

/// Creates an admin or reviewer API token labelled `label`; returns the token (shown once).
pub async fn create_staff_token(
    db: &Db,
    label: &str,
    role: Role,
    actor: &str,
) -> Result<String, AccountError> {
    if role == Role::Publisher {
        return Err(AccountError::Invalid(
            "a publisher token belongs to a publisher".into(),
        ));
    }
    let token = credentials::generate_token();
    let mut tx = db.begin().await?;
    accounts::insert_token(&mut tx, &credentials::hash_token(&token), role, None, label).await?;
    audit::append(
        &mut tx,
        AuditEntry {
            actor,
            action: "token.create",
            subject: &format!("token:{label}"),
            version_id: None,
            detail: serde_json::json!({"role": role.as_str()}),
        },
    )
    .await?;
    tx.commit().await?;
    Ok(token)
}

/// A publisher just created, with its first token (shown once).
#[derive(Debug)]
pub struct NewPublisher {
    /// The stored publisher.
    pub publisher: Publisher,
    /// Its first API token.
    pub token: String,
}

/// Creates a publisher allowed to publish under each namespace, with a first token.
pub async fn create_publisher(
    db: &Db,
    name: &str,
    namespaces: &[String],
    actor: &str,
) -> Result<NewPublisher, AccountError> {
    check_name("publisher", name)?;
    check_namespaces(namespaces)?;
    let token = credentials::generate_token();
    let mut tx = db.begin().await?;
    let publisher = accounts::insert_publisher(&mut tx, name, namespaces)
        .await
        .map_err(taken("publisher", name))?;
    accounts::insert_token(
        &mut tx,
        &credentials::hash_token(&token),
        Role::Publisher,
        Some(&publisher.id),
        name,
    )
    .await?;
    audit::append(
        &mut tx,
        AuditEntry {
            actor,
            action: "publisher.create",
            subject: &format!("publisher:{name}"),
            version_id: None,
            detail: serde_json::json!({"namespaces": namespaces}),
        },
    )
    .await?;
    tx.commit().await?;
    Ok(NewPublisher { publisher, token })
}

/// Another token for an existing publisher; returns the publisher and the token (shown once).
pub async fn create_publisher_token(
    db: &Db,
    publisher_id: &str,
    actor: &str,
) -> Result<(Publisher, String), AccountError> {
    let publisher = accounts::publisher_by_id(db, publisher_id)
        .await?
        .ok_or_else(|| AccountError::NotFound("no such publisher".into()))?;
    let token = credentials::generate_token();
    let mut tx = db.begin().await?;
    accounts::insert_token(
        &mut tx,
        &credentials::hash_token(&token),
        Role::Publisher,
        Some(&publisher.id),
        &publisher.name,
    )
    .await?;
    audit::append(
        &mut tx,
        AuditEntry {
            actor,
            action: "token.create",
            subject: &format!("publisher:{}", publisher.name),
            version_id: None,
            detail: serde_json::json!({"role": "publisher"}),
        },
    )
    .await?;
    tx.commit().await?;
    Ok((publisher, token))
}

/// Revokes a token by id; [`AccountError::NotFound`] when there is no such live token.
pub async fn revoke_token(db: &Db, token_id: &str, actor: &str) -> Result<(), AccountError> {
    let mut tx = db.begin().await?;
    if !accounts::revoke_token(&mut tx, token_id).await? {
        return Err(AccountError::NotFound(
            "that token does not exist or was already revoked".into(),
        ));
    }
    audit::append(
        &mut tx,
        AuditEntry {
            actor,
            action: "token.revoke",
            subject: &format!("token:{token_id}"),
            version_id: None,
            detail: serde_json::json!({}),
        },
    )
    .await?;
    tx.commit().await?;
    Ok(())
}

/// What [`bootstrap_admin`] did.
#[derive(Debug, PartialEq, Eq)]
pub enum Bootstrap {
    /// Users exist already (or another process created the first admin at the same moment).
    NotNeeded,
    /// The `admin` user was created with the configured password.
    Created,
    /// The `admin` user was created with this generated password, to be shown once.
    Generated(String),
}

/// Creates the first admin, user `admin`, when there are no users yet: with
/// `password` when given (at least the minimum length, as for everyone), else
/// with a generated one the caller must show.
pub async fn bootstrap_admin(db: &Db, password: Option<&str>) -> Result<Bootstrap, AccountError> {
    if accounts::count_users(db).await? > 0 {
        return Ok(Bootstrap::NotNeeded);
    }
    let (password, generated) = match password {
        Some(p) if !p.is_empty() => {
            // The first admin is the most valuable account: the same minimum as everyone.
            check_password(p).map_err(|_| {
                AccountError::Invalid(format!(
                    "GATEHOUSE_BOOTSTRAP_ADMIN_PASSWORD must have at least {} characters",
                    credentials::MIN_PASSWORD_CHARS
                ))
            })?;
            (p.to_string(), false)
        }
        _ => (credentials::generate_password(), true),
    };
    let hash = hash_password(&password).await;
    let mut tx = db.begin().await?;
    match accounts::insert_user(&mut tx, "admin", &hash, Role::Admin).await {
        Ok(_) => {}
        // Another process bootstrapped at the same moment.
        Err(e) if is_unique_violation(&e) => return Ok(Bootstrap::NotNeeded),
        Err(e) => return Err(e.into()),
    }
    audit::append(
        &mut tx,
        AuditEntry {
            actor: "system:bootstrap",
            action: "user.create",
            subject: "user:admin",
            version_id: None,
            detail: serde_json::json!({"role": "admin"}),
        },
    )
    .await?;
    tx.commit().await?;
    Ok(if generated {
        Bootstrap::Generated(password)
    } else {
        Bootstrap::Created
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn db() -> (tempfile::TempDir, Db) {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("t.db").display());
        let db = Db::connect(&url).await.unwrap();
        (dir, db)
    }

    #[tokio::test]
    async fn a_duplicate_name_is_already_exists_and_adds_no_audit_row() {
        let (_dir, db) = db().await;
        let ns = vec!["com.example".to_string()];
        create_publisher(&db, "acme", &ns, "test").await.unwrap();
        let again = create_publisher(&db, "acme", &ns, "test").await;
        assert!(
            matches!(again, Err(AccountError::AlreadyExists { what: "publisher", ref name }) if name == "acme"),
            "{again:?}"
        );
        create_user(&db, "ann", "a password of length", Role::Reviewer, "test")
            .await
            .unwrap();
        let again = create_user(&db, "ann", "another long password", Role::Admin, "test").await;
        assert!(matches!(
            again,
            Err(AccountError::AlreadyExists { what: "user", .. })
        ));
        let rows = audit::list(&db, &audit::AuditFilter::default(), 100)
            .await
            .unwrap();
        assert_eq!(rows.len(), 2, "one row per account actually created");
    }

    #[tokio::test]
    async fn bad_input_is_invalid_and_changes_nothing() {
        let (_dir, db) = db().await;
        for (name, ns) in [
            ("", vec!["com.example".to_string()]),
            ("a b", vec!["com.example".to_string()]),
            ("acme", vec![]),
            ("acme", vec!["not a prefix".to_string()]),
        ] {
            let r = create_publisher(&db, name, &ns, "test").await;
            assert!(
                matches!(r, Err(AccountError::Invalid(_))),
                "{name:?} {ns:?}: {r:?}"
            );
        }
        let short = create_user(&db, "ann", "short", Role::Reviewer, "test").await;
        assert!(matches!(short, Err(AccountError::Invalid(_))));
        let staff_publisher = create_staff_token(&db, "x", Role::Publisher, "test").await;
        assert!(matches!(staff_publisher, Err(AccountError::Invalid(_))));
        assert!(accounts::list_publishers(&db).await.unwrap().is_empty());
        assert_eq!(accounts::count_users(&db).await.unwrap(), 0);
        assert!(accounts::list_tokens(&db).await.unwrap().is_empty());
    }

    #[tokio::test]
    async fn revoking_twice_is_not_found_and_an_unknown_publisher_gets_no_token() {
        let (_dir, db) = db().await;
        let created = create_publisher(&db, "acme", &["com.example".into()], "test")
            .await
            .unwrap();
        let (_, second) = create_publisher_token(&db, &created.publisher.id, "test")
            .await
            .unwrap();
        assert_ne!(second, created.token);
        let tokens = accounts::list_tokens(&db).await.unwrap();
        assert_eq!(tokens.len(), 2);
        revoke_token(&db, &tokens[0].id, "test").await.unwrap();
        let twice = revoke_token(&db, &tokens[0].id, "test").await;
        assert!(matches!(twice, Err(AccountError::NotFound(_))));
        let unknown = create_publisher_token(&db, "no-such-id", "test").await;
        assert!(matches!(unknown, Err(AccountError::NotFound(_))));
    }

    #[tokio::test]
    async fn the_first_admin_is_created_once_and_a_short_password_is_refused() {
        let (_dir, db) = db().await;
        let short = bootstrap_admin(&db, Some("short")).await;
        assert!(matches!(short, Err(AccountError::Invalid(_))));
        assert_eq!(accounts::count_users(&db).await.unwrap(), 0);
        assert!(matches!(
            bootstrap_admin(&db, None).await.unwrap(),
            Bootstrap::Generated(p) if p.chars().count() >= credentials::MIN_PASSWORD_CHARS
        ));
        assert_eq!(
            bootstrap_admin(&db, Some("a long enough password"))
                .await
                .unwrap(),
            Bootstrap::NotNeeded
        );
        assert_eq!(accounts::count_users(&db).await.unwrap(), 1);
    }
}
