//! `gatehouse admin …` and `gatehouse publisher …`: accounts and tokens from the shell.

use clap::{Subcommand, ValueEnum};

/// `gatehouse admin …`
#[derive(Subcommand, Debug)]
pub enum AdminCommand {
    /// Create a user; the password comes from stdin with `--password-stdin`, else one is generated and printed once.
    CreateUser {
        /// Login name.
        name: String,
        /// Role of the user.
        #[arg(long, value_enum)]
        role: RoleArg,
        /// Read the password from standard input.
        #[arg(long)]
        password_stdin: bool,
    },
    /// Create an admin API token; prints it alone on the last line.
    CreateToken {
        /// A label for the token.
        name: String,
        /// Create a reviewer token instead of an admin token.
        #[arg(long, value_enum, default_value_t = RoleArg::Admin)]
        role: RoleArg,
    },
}

/// `gatehouse publisher …`
#[derive(Subcommand, Debug)]
pub enum PublisherCommand {
    /// Create a publisher allowed to publish names under each reverse-DNS prefix; prints its token alone on the last line.
    Create {
        /// Publisher name.
        name: String,
        /// Reverse-DNS namespace prefix, e.g. `com.example` (repeatable).
        #[arg(long = "namespace", required = true)]
        namespaces: Vec<String>,
    },
}

/// Roles of users and tokens.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoleArg {
    /// Everything.
    Admin,
    /// Review actions only.
    Reviewer,
}

use std::io::Read;

use crate::config::Config;
use crate::registry::{credentials, server_json};
use crate::storage::accounts::{self, Role};
use crate::storage::audit::{self, AuditEntry};

fn role_of(r: RoleArg) -> Role {
    match r {
        RoleArg::Admin => Role::Admin,
        RoleArg::Reviewer => Role::Reviewer,
    }
}

/// Runs a `gatehouse admin` command.
pub async fn run_admin(cmd: &AdminCommand, config: &Config) -> anyhow::Result<()> {
    let db = super::serve::connect_existing(config).await?;
    match cmd {
        AdminCommand::CreateUser {
            name,
            role,
            password_stdin,
        } => {
            anyhow::ensure!(
                valid_user_name(name),
                "a user name is 1-64 characters of letters, digits, '.', '_' or '-'"
            );
            let (password, generated) = if *password_stdin {
                let mut input = String::new();
                std::io::stdin().read_to_string(&mut input)?;
                let password = input.trim_end_matches(['\r', '\n']).to_string();
                anyhow::ensure!(
                    password.chars().count() >= credentials::MIN_PASSWORD_CHARS,
                    "the password must have at least 12 characters"
                );
                (password, false)
            } else {
                (credentials::generate_password(), true)
            };
            let mut tx = db.begin().await?;
            accounts::insert_user(
                &mut tx,
                name,
                &credentials::hash_password(&password),
                role_of(*role),
            )
            .await
            .map_err(|e| {
                if crate::storage::is_unique_violation(&e) {
                    anyhow::anyhow!("a user named {name:?} already exists")
                } else {
                    e.into()
                }
            })?;
            audit::append(
                &mut tx,
                AuditEntry {
                    actor: "cli",
                    action: "user.create",
                    subject: &format!("user:{name}"),
                    version_id: None,
                    detail: serde_json::json!({"role": role_of(*role).as_str()}),
                },
            )
            .await?;
            tx.commit().await?;
            println!("created user {name} ({})", role_of(*role).as_str());
            if generated {
                println!("{password}");
            }
        }
        AdminCommand::CreateToken { name, role } => {
            let token = credentials::generate_token();
            let mut tx = db.begin().await?;
            accounts::insert_token(
                &mut tx,
                &credentials::hash_token(&token),
                role_of(*role),
                None,
                name,
            )
            .await?;
            audit::append(
                &mut tx,
                AuditEntry {
                    actor: "cli",
                    action: "token.create",
                    subject: &format!("token:{name}"),
                    version_id: None,
                    detail: serde_json::json!({"role": role_of(*role).as_str()}),
                },
            )
            .await?;
            tx.commit().await?;
            println!(
                "created {} token {name:?} (shown once):",
                role_of(*role).as_str()
            );
            println!("{token}");
        }
    }
    Ok(())
}

/// Runs a `gatehouse publisher` command.
pub async fn run_publisher(cmd: &PublisherCommand, config: &Config) -> anyhow::Result<()> {
    let PublisherCommand::Create { name, namespaces } = cmd;
    anyhow::ensure!(
        valid_user_name(name),
        "a publisher name is 1-64 characters of letters, digits, '.', '_' or '-'"
    );
    for ns in namespaces {
        anyhow::ensure!(
            server_json::valid_prefix(ns),
            "{ns:?} is not a reverse-DNS namespace such as com.example"
        );
    }
    let (token, _) = create_publisher(
        &super::serve::connect_existing(config).await?,
        name,
        namespaces,
        "cli",
    )
    .await?;
    println!(
        "created publisher {name} for {} (token shown once):",
        namespaces.join(", ")
    );
    println!("{token}");
    Ok(())
}

/// Creates a publisher with a first token; returns the token and the publisher id.
pub async fn create_publisher(
    db: &crate::storage::Db,
    name: &str,
    namespaces: &[String],
    actor: &str,
) -> anyhow::Result<(String, String)> {
    let token = credentials::generate_token();
    let mut tx = db.begin().await?;
    let publisher = accounts::insert_publisher(&mut tx, name, namespaces)
        .await
        .map_err(|e| {
            if crate::storage::is_unique_violation(&e) {
                anyhow::anyhow!("a publisher named {name:?} already exists")
            } else {
                e.into()
            }
        })?;
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
    Ok((token, publisher.id))
}

fn valid_user_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
}
