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

use crate::accounts;
use crate::config::Config;
use crate::storage::accounts::Role;

fn role_of(r: RoleArg) -> Role {
    match r {
        RoleArg::Admin => Role::Admin,
        RoleArg::Reviewer => Role::Reviewer,
    }
}

/// Runs a `gatehouse admin` command.
pub async fn run_admin(cmd: &AdminCommand, config: &Config) -> anyhow::Result<()> {
    let db = crate::startup::connect_existing(config).await?;
    match cmd {
        AdminCommand::CreateUser {
            name,
            role,
            password_stdin,
        } => {
            // Refuse a bad name before asking for a password.
            anyhow::ensure!(
                accounts::valid_name(name),
                "a user name is 1-64 characters of letters, digits, '.', '_' or '-'"
            );
            let (password, generated) = if *password_stdin {
                let mut input = String::new();
                std::io::stdin().read_to_string(&mut input)?;
                let password = input.trim_end_matches(['\r', '\n']).to_string();
                accounts::check_password(&password)?;
                (password, false)
            } else {
                (crate::registry::credentials::generate_password(), true)
            };
            accounts::create_user(&db, name, &password, role_of(*role), "cli").await?;
            println!("created user {name} ({})", role_of(*role).as_str());
            if generated {
                println!("{password}");
            }
        }
        AdminCommand::CreateToken { name, role } => {
            let token = accounts::create_staff_token(&db, name, role_of(*role), "cli").await?;
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
    let db = crate::startup::connect_existing(config).await?;
    let created = accounts::create_publisher(&db, name, namespaces, "cli").await?;
    println!(
        "created publisher {name} for {} (token shown once):",
        namespaces.join(", ")
    );
    println!("{}", created.token);
    Ok(())
}
