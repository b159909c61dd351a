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
