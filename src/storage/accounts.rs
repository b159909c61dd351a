//! Publishers with their namespaces, users, and API tokens (stored as hashes only).

use sqlx::Row;

use super::{Db, Tx, new_id, now};

/// Who a credential speaks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Everything.
    Admin,
    /// Review actions, no user/key/publisher management.
    Reviewer,
    /// Publishes under its namespaces and reads its own submissions.
    Publisher,
}

impl Role {
    /// Stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Admin => "admin",
            Role::Reviewer => "reviewer",
            Role::Publisher => "publisher",
        }
    }

    /// Parses a stored name.
    pub fn parse(s: &str) -> Option<Role> {
        match s {
            "admin" => Some(Role::Admin),
            "reviewer" => Some(Role::Reviewer),
            "publisher" => Some(Role::Publisher),
            _ => None,
        }
    }
}

/// A publisher and the reverse-DNS prefixes it may publish under.
#[derive(Debug, Clone)]
pub struct Publisher {
    /// Row id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Namespace prefixes, e.g. `com.example`.
    pub namespaces: Vec<String>,
}

/// The principal behind a valid API token.
#[derive(Debug, Clone)]
pub struct TokenPrincipal {
    /// Token row id.
    pub token_id: String,
    /// Role granted.
    pub role: Role,
    /// The token's label.
    pub label: String,
    /// For publisher tokens, the publisher.
    pub publisher: Option<Publisher>,
}

/// A user who signs in to the web UI.
#[derive(Debug, Clone)]
pub struct User {
    /// Row id.
    pub id: String,
    /// Login name.
    pub name: String,
    /// argon2id PHC string.
    pub password_hash: String,
    /// `Admin` or `Reviewer`.
    pub role: Role,
}

/// Inserts a publisher with its namespaces.
pub async fn insert_publisher(
    tx: &mut Tx,
    name: &str,
    namespaces: &[String],
) -> Result<Publisher, sqlx::Error> {
    let id = new_id();
    sqlx::query("INSERT INTO publishers (id, name, created_at) VALUES ($1, $2, $3)")
        .bind(&id)
        .bind(name)
        .bind(now())
        .execute(tx.conn())
        .await?;
    for prefix in namespaces {
        sqlx::query("INSERT INTO publisher_namespaces (publisher_id, prefix) VALUES ($1, $2)")
            .bind(&id)
            .bind(prefix)
            .execute(tx.conn())
            .await?;
    }
    Ok(Publisher {
        id,
        name: name.to_string(),
        namespaces: namespaces.to_vec(),
    })
}

/// The `role` column of a row. A role this build does not know is an error,
/// never a default (nor a silent refusal that hides a damaged row).
fn role_of(r: &sqlx::any::AnyRow) -> Result<Role, sqlx::Error> {
    let stored: String = r.try_get("role")?;
    Role::parse(&stored).ok_or_else(|| sqlx::Error::ColumnDecode {
        index: "role".into(),
        source: format!("unknown role {stored:?} in the database").into(),
    })
}

/// Loads a publisher by id.
pub async fn publisher_by_id(db: &Db, id: &str) -> Result<Option<Publisher>, sqlx::Error> {
    let Some(row) =
        sqlx::query("SELECT id, name FROM publishers WHERE id = $1 AND disabled_at IS NULL")
            .bind(id)
            .fetch_optional(db.pool())
            .await?
    else {
        return Ok(None);
    };
    let namespaces = sqlx::query(
        "SELECT prefix FROM publisher_namespaces WHERE publisher_id = $1 ORDER BY prefix",
    )
    .bind(id)
    .fetch_all(db.pool())
    .await?
    .iter()
    .map(|r| r.try_get::<String, _>("prefix"))
    .collect::<Result<_, _>>()?;
    Ok(Some(Publisher {
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        namespaces,
    }))
}

/// Lists every publisher, by name.
pub async fn list_publishers(db: &Db) -> Result<Vec<Publisher>, sqlx::Error> {
    let rows = sqlx::query("SELECT id FROM publishers WHERE disabled_at IS NULL ORDER BY name")
        .fetch_all(db.pool())
        .await?;
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        if let Some(p) = publisher_by_id(db, &row.try_get::<String, _>("id")?).await? {
            out.push(p);
        }
    }
    Ok(out)
}

/// Stores a token hash with its role (and publisher).
pub async fn insert_token(
    tx: &mut Tx,
    token_hash: &str,
    role: Role,
    publisher_id: Option<&str>,
    label: &str,
) -> Result<String, sqlx::Error> {
    let id = new_id();
    sqlx::query(
        "INSERT INTO api_tokens (id, token_hash, role, publisher_id, label, created_at) VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(&id)
    .bind(token_hash)
    .bind(role.as_str())
    .bind(publisher_id)
    .bind(label)
    .bind(now())
    .execute(tx.conn())
    .await?;
    Ok(id)
}

/// Resolves a token hash to its principal, if the token exists and is not revoked.
pub async fn principal_by_token_hash(
    db: &Db,
    token_hash: &str,
) -> Result<Option<TokenPrincipal>, sqlx::Error> {
    let Some(row) = sqlx::query(
        "SELECT id, role, publisher_id, label FROM api_tokens WHERE token_hash = $1 AND revoked_at IS NULL",
    )
    .bind(token_hash)
    .fetch_optional(db.pool())
    .await?
    else {
        return Ok(None);
    };
    let role = role_of(&row)?;
    let publisher = match row.try_get::<Option<String>, _>("publisher_id")? {
        Some(pid) => match publisher_by_id(db, &pid).await? {
            Some(p) => Some(p),
            // A token of a disabled publisher is no longer valid.
            None => return Ok(None),
        },
        None => None,
    };
    Ok(Some(TokenPrincipal {
        token_id: row.try_get("id")?,
        role,
        label: row.try_get("label")?,
        publisher,
    }))
}

/// Token listing row for the UI.
#[derive(Debug, Clone)]
pub struct TokenInfo {
    /// Row id.
    pub id: String,
    /// Role.
    pub role: Role,
    /// Label.
    pub label: String,
    /// Owning publisher id.
    pub publisher_id: Option<String>,
    /// Creation time.
    pub created_at: String,
    /// Revocation time.
    pub revoked_at: Option<String>,
}

/// Lists tokens (never their secrets, which are not stored).
pub async fn list_tokens(db: &Db) -> Result<Vec<TokenInfo>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT id, role, label, publisher_id, created_at, revoked_at FROM api_tokens ORDER BY created_at DESC",
    )
    .fetch_all(db.pool())
    .await?;
    rows.iter()
        .map(|r| {
            Ok(TokenInfo {
                id: r.try_get("id")?,
                role: role_of(r)?,
                label: r.try_get("label")?,
                publisher_id: r.try_get("publisher_id")?,
                created_at: r.try_get("created_at")?,
                revoked_at: r.try_get("revoked_at")?,
            })
        })
        .collect()
}

/// Revokes a token; returns whether one was revoked.
pub async fn revoke_token(tx: &mut Tx, id: &str) -> Result<bool, sqlx::Error> {
    let done =
        sqlx::query("UPDATE api_tokens SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL")
            .bind(now())
            .bind(id)
            .execute(tx.conn())
            .await?;
    Ok(done.rows_affected() == 1)
}

/// Inserts a user.
pub async fn insert_user(
    tx: &mut Tx,
    name: &str,
    password_hash: &str,
    role: Role,
) -> Result<User, sqlx::Error> {
    let id = new_id();
    sqlx::query(
        "INSERT INTO users (id, name, password_hash, role, created_at) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(&id)
    .bind(name)
    .bind(password_hash)
    .bind(role.as_str())
    .bind(now())
    .execute(tx.conn())
    .await?;
    Ok(User {
        id,
        name: name.into(),
        password_hash: password_hash.into(),
        role,
    })
}

/// Loads an enabled user by login name.
pub async fn user_by_name(db: &Db, name: &str) -> Result<Option<User>, sqlx::Error> {
    let row = sqlx::query(
        "SELECT id, name, password_hash, role FROM users WHERE name = $1 AND disabled_at IS NULL",
    )
    .bind(name)
    .fetch_optional(db.pool())
    .await?;
    row.map(|r| {
        Ok(User {
            id: r.try_get("id")?,
            name: r.try_get("name")?,
            password_hash: r.try_get("password_hash")?,
            role: role_of(&r)?,
        })
    })
    .transpose()
}

/// Number of users (bootstrap runs when it is zero).
pub async fn count_users(db: &Db) -> Result<i64, sqlx::Error> {
    sqlx::query("SELECT COUNT(*) AS n FROM users")
        .fetch_one(db.pool())
        .await?
        .try_get::<i64, _>("n")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A role this build does not know (a damaged row, or a newer build's
    /// role) is an error the caller sees, never a default or a silent "no such
    /// user".
    #[tokio::test]
    async fn an_unknown_role_in_the_database_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::connect(&format!("sqlite://{}", dir.path().join("a.db").display()))
            .await
            .unwrap();
        let mut tx = db.begin().await.unwrap();
        insert_user(&mut tx, "alice", "hash", Role::Reviewer)
            .await
            .unwrap();
        insert_token(&mut tx, "tokenhash", Role::Reviewer, None, "t")
            .await
            .unwrap();
        tx.commit().await.unwrap();
        assert!(user_by_name(&db, "alice").await.unwrap().is_some());
        // The schema's CHECK refuses such a row; a damaged file need not hold it.
        let mut tx = db.begin().await.unwrap();
        for sql in [
            "PRAGMA ignore_check_constraints = ON",
            "UPDATE users SET role = 'superuser'",
            "UPDATE api_tokens SET role = 'superuser'",
            "PRAGMA ignore_check_constraints = OFF",
        ] {
            sqlx::query(sql).execute(tx.conn()).await.unwrap();
        }
        tx.commit().await.unwrap();
        let err = user_by_name(&db, "alice").await.unwrap_err();
        assert!(err.to_string().contains("unknown role"), "{err}");
        assert!(principal_by_token_hash(&db, "tokenhash").await.is_err());
        assert!(list_tokens(&db).await.is_err());
    }
}
