//! `gatehouse keys`: show or rotate the signing keys in `DATA_DIR/keys/`;
//! export root documents (what clients pin).

use chrono::Utc;
use clap::Subcommand;

use super::{EXIT_OK, EXIT_USAGE};
use crate::allowlist::{KeyStore, KeyStoreError};

/// `gatehouse keys …`
#[derive(Subcommand, Debug)]
pub enum KeysCommand {
    /// Show key ids and the root version.
    Show,
    /// Rotate the allowlist signing key (publishes a new root version).
    Rotate {
        /// Rotate the root key instead (the new root is signed by the old and the new key).
        #[arg(long)]
        root: bool,
    },
    /// Print the current signed root document (or version N with `--version`).
    ExportRoot {
        /// Root version to print; the newest when omitted.
        #[arg(long)]
        version: Option<u64>,
    },
}

/// Runs a `keys` command; returns the exit code.
pub async fn run(cmd: &KeysCommand, config: &crate::config::Config) -> i32 {
    let dir = match crate::startup::require_keys(config) {
        Ok(dir) => dir,
        Err(e) => {
            eprintln!("gatehouse keys: {e}");
            return EXIT_USAGE;
        }
    };
    let mut store = match KeyStore::open(&dir) {
        Ok(store) => store,
        Err(e) => return fail(&e),
    };
    match cmd {
        KeysCommand::Show => {
            println!("keys directory:   {}", dir.display());
            println!("root version:     {}", store.root_version());
            println!(
                "root expires:     {}",
                crate::allowlist::timestamp::format(&store.root().payload.expires)
            );
            println!("root key id:      {}", store.root_keyid());
            println!("allowlist key id: {}", store.allowlist_keyid());
            EXIT_OK
        }
        KeysCommand::Rotate { root } => {
            let rotated = if *root {
                store.rotate_root_key(Utc::now())
            } else {
                store.rotate_allowlist_key(Utc::now())
            };
            match rotated {
                Ok(version) => {
                    let (role, id) = if *root {
                        ("root", store.root_keyid())
                    } else {
                        ("allowlist", store.allowlist_keyid())
                    };
                    println!("new {role} key id: {id}");
                    println!("published root version {version}");
                    EXIT_OK
                }
                Err(e) => fail(&e),
            }
        }
        KeysCommand::ExportRoot { version } => {
            let version = version.unwrap_or(store.root_version());
            match store.root_document(version) {
                Ok(Some(bytes)) => {
                    print!("{}", String::from_utf8_lossy(&bytes));
                    EXIT_OK
                }
                Ok(None) => {
                    eprintln!("gatehouse keys: there is no root version {version}");
                    EXIT_USAGE
                }
                Err(e) => fail(&e),
            }
        }
    }
}

fn fail(error: &KeyStoreError) -> i32 {
    eprintln!("gatehouse keys: {error}");
    EXIT_USAGE
}
