//! The registry's signing keys and published roots, in `DATA_DIR/keys/`.
//!
//! Layout:
//!
//! ```text
//! keys/root.key          base64 of the root key's 32-byte seed (mode 0600)
//! keys/allowlist.key     base64 of the allowlist key's seed (mode 0600)
//! keys/roots/1.json      every root version ever published, never rewritten,
//! keys/roots/2.json      so /v1/root/{n}.json can serve each one
//! ```
//!
//! A key can come from the environment instead (`GATEHOUSE_ROOT_KEY`,
//! `GATEHOUSE_ALLOWLIST_KEY`, base64 of the seed), which is how several
//! `gatehouse serve` processes share keys. Key material is never logged: the
//! store's `Debug` shows key ids only.
//!
//! Every file is written to a temporary name and then linked or renamed into
//! place, so a crash never leaves a half-written key or root; roots are
//! published with a no-clobber link, so two processes cannot both publish a
//! different root `n+1`.

use std::fmt;
use std::path::{Path, PathBuf};

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use chrono::{DateTime, Duration, Utc};
use ed25519_dalek::SigningKey;
use rand::rngs::OsRng;

use super::dsse::{Envelope, keyid};
use super::files;
use super::payload::{AllowlistPayload, sign_allowlist};
use super::root::{RootPayload, SignedRoot};

/// Environment variable holding the root key's seed (base64).
pub const ROOT_KEY_ENV: &str = "GATEHOUSE_ROOT_KEY";
/// Environment variable holding the allowlist key's seed (base64).
pub const ALLOWLIST_KEY_ENV: &str = "GATEHOUSE_ALLOWLIST_KEY";
/// How long a newly published root is valid.
pub const ROOT_VALIDITY: Duration = Duration::days(365);
/// A root this close to expiry is renewed (same keys, next version) on open.
pub const ROOT_RENEW_BEFORE: Duration = Duration::days(30);

/// Why the key store could not be used.
#[derive(Debug, thiserror::Error)]
pub enum KeyStoreError {
    /// Reading or writing a file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A key file or variable does not hold a base64 32-byte seed.
    #[error("{origin}: not the base64 of a 32-byte Ed25519 seed")]
    BadKey {
        /// Which file or variable.
        origin: String,
    },
    /// A stored root document is unreadable.
    #[error("{path}: {reason}")]
    BadRoot {
        /// The file.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// The root key in use is not a root key of the newest root.
    #[error(
        "the root key {keyid} is not a root key of root version {version}; restore the right key"
    )]
    RootKeyMismatch {
        /// Key id of the key in use.
        keyid: String,
        /// The newest root version.
        version: u64,
    },
    /// Roots exist but their root key is gone.
    #[error(
        "roots exist in {dir} but the root key is missing; restore {dir}/root.key or set {ROOT_KEY_ENV}"
    )]
    MissingRootKey {
        /// The key directory.
        dir: PathBuf,
    },
    /// The key to rotate comes from the environment, which the store cannot change.
    #[error("the {role} key comes from {var}; rotate it by changing the variable")]
    ExternallyManaged {
        /// `root` or `allowlist`.
        role: &'static str,
        /// The variable.
        var: &'static str,
    },
    /// Another process published the same root version first.
    #[error("root version {version} was published concurrently; retry")]
    Conflict {
        /// The contested version.
        version: u64,
    },
}

/// Where the keys come from when not from files: seeds from the environment.
#[derive(Default, Clone)]
pub struct KeySources {
    /// Base64 seed of the root key.
    pub root_key: Option<String>,
    /// Base64 seed of the allowlist key.
    pub allowlist_key: Option<String>,
}

impl fmt::Debug for KeySources {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shown = |s: &Option<String>| {
            if s.is_some() {
                "Some(<redacted>)"
            } else {
                "None"
            }
        };
        f.debug_struct("KeySources")
            .field("root_key", &format_args!("{}", shown(&self.root_key)))
            .field(
                "allowlist_key",
                &format_args!("{}", shown(&self.allowlist_key)),
            )
            .finish()
    }
}

impl KeySources {
    /// Reads `GATEHOUSE_ROOT_KEY` and `GATEHOUSE_ALLOWLIST_KEY`; empty values count as unset.
    pub fn from_env() -> KeySources {
        let var = |name| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
        KeySources {
            root_key: var(ROOT_KEY_ENV),
            allowlist_key: var(ALLOWLIST_KEY_ENV),
        }
    }
}

/// The signing keys and the published roots.
pub struct KeyStore {
    dir: PathBuf,
    root_key: SigningKey,
    allowlist_key: SigningKey,
    root_from_env: bool,
    allowlist_from_env: bool,
    root: SignedRoot,
}

impl fmt::Debug for KeyStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Key ids only: the seeds must never reach a log.
        f.debug_struct("KeyStore")
            .field("dir", &self.dir)
            .field("root_keyid", &self.root_keyid())
            .field("allowlist_keyid", &self.allowlist_keyid())
            .field("root_version", &self.root_version())
            .finish()
    }
}

impl KeyStore {
    /// Opens the store in `dir` (`DATA_DIR/keys`) with keys from the
    /// environment where set, creating keys and root v1 on first use.
    pub fn open(dir: &Path) -> Result<KeyStore, KeyStoreError> {
        KeyStore::open_with(dir, KeySources::from_env(), Utc::now())
    }

    /// Opens the store with explicit key sources and clock (for tests and embedding).
    ///
    /// On first use it generates what is missing and publishes root v1. Later
    /// it checks the root key is a root key of the newest root; when the
    /// allowlist key is not in the newest root (a new key was configured), or
    /// the newest root is about to expire, it publishes the next root.
    pub fn open_with(
        dir: &Path,
        sources: KeySources,
        now: DateTime<Utc>,
    ) -> Result<KeyStore, KeyStoreError> {
        create_private_dir(dir)?;
        create_private_dir(&dir.join("roots"))?;
        let latest = load_latest_root(dir)?;
        if let Some(root) = &latest {
            finish_interrupted_rotation(dir, root)?;
        }

        let root_from_env = sources.root_key.is_some();
        let root_key = match &sources.root_key {
            Some(seed) => parse_seed(seed, ROOT_KEY_ENV)?,
            None => match read_key_file(&dir.join("root.key"))? {
                Some(key) => key,
                None if latest.is_some() => {
                    return Err(KeyStoreError::MissingRootKey {
                        dir: dir.to_path_buf(),
                    });
                }
                None => create_key_file(&dir.join("root.key"))?,
            },
        };
        let allowlist_from_env = sources.allowlist_key.is_some();
        let allowlist_key = match &sources.allowlist_key {
            Some(seed) => parse_seed(seed, ALLOWLIST_KEY_ENV)?,
            None => match read_key_file(&dir.join("allowlist.key"))? {
                Some(key) => key,
                None => create_key_file(&dir.join("allowlist.key"))?,
            },
        };

        let root = match latest {
            None => {
                let payload = RootPayload::new(
                    1,
                    now + ROOT_VALIDITY,
                    &[root_key.verifying_key()],
                    &[allowlist_key.verifying_key()],
                );
                let signed = SignedRoot::sign(payload, &[&root_key]);
                publish_root(dir, &signed).or_else(|e| match e {
                    // Another process created root v1 first: use theirs if our keys are in it.
                    KeyStoreError::Conflict { .. } => load_latest_root(dir)?.ok_or(e),
                    other => Err(other),
                })?
            }
            Some(root) => root,
        };
        let mut store = KeyStore {
            dir: dir.to_path_buf(),
            root_key,
            allowlist_key,
            root_from_env,
            allowlist_from_env,
            root,
        };

        if !store
            .root
            .payload
            .roles
            .root
            .keyids
            .contains(&store.root_keyid())
        {
            return Err(KeyStoreError::RootKeyMismatch {
                keyid: store.root_keyid(),
                version: store.root_version(),
            });
        }
        let allowlist_current = store
            .root
            .payload
            .roles
            .allowlist
            .keyids
            .contains(&store.allowlist_keyid());
        if !allowlist_current || store.root.payload.expires - now < ROOT_RENEW_BEFORE {
            store.publish_next_root(None, now)?;
        }
        Ok(store)
    }

    /// Key id of the root key.
    pub fn root_keyid(&self) -> String {
        keyid(&self.root_key.verifying_key())
    }

    /// Key id of the allowlist key.
    pub fn allowlist_keyid(&self) -> String {
        keyid(&self.allowlist_key.verifying_key())
    }

    /// The newest root.
    pub fn root(&self) -> &SignedRoot {
        &self.root
    }

    /// The newest root's version.
    pub fn root_version(&self) -> u64 {
        self.root.payload.version
    }

    /// The bytes of root `version` as published (`/v1/root/{n}.json`), `None` if there is no such version.
    pub fn root_document(&self, version: u64) -> Result<Option<Vec<u8>>, KeyStoreError> {
        if version == 0 || version > self.root_version() {
            return Ok(None);
        }
        let path = root_path(&self.dir, version);
        match std::fs::read(&path) {
            Ok(bytes) => Ok(Some(bytes)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(source) => Err(KeyStoreError::Io { path, source }),
        }
    }

    /// JWKS of the newest root's keys (`/.well-known/jwks.json`).
    pub fn jwks(&self) -> serde_json::Value {
        self.root.payload.jwks()
    }

    /// Signs an allowlist payload with the allowlist key.
    pub fn sign_allowlist(&self, payload: &AllowlistPayload) -> Envelope {
        sign_allowlist(payload, &[&self.allowlist_key])
    }

    /// Replaces the allowlist key with a new one and publishes the next root
    /// naming it; returns the new root version. Older roots stay published so
    /// clients pinned to them can walk forward.
    pub fn rotate_allowlist_key(&mut self, now: DateTime<Utc>) -> Result<u64, KeyStoreError> {
        if self.allowlist_from_env {
            return Err(KeyStoreError::ExternallyManaged {
                role: "allowlist",
                var: ALLOWLIST_KEY_ENV,
            });
        }
        let next = SigningKey::generate(&mut OsRng);
        // The new key is on disk (as `.next`) before the root that names it, and
        // becomes the current key only after that root is published; a crash in
        // between is finished by `finish_interrupted_rotation` on the next open.
        let staged = self.dir.join("allowlist.key.next");
        write_key_file(&staged, &next)?;
        let previous = std::mem::replace(&mut self.allowlist_key, next);
        if let Err(e) = self.publish_next_root(None, now) {
            self.allowlist_key = previous;
            let _ = std::fs::remove_file(&staged);
            return Err(e);
        }
        rename(&staged, &self.dir.join("allowlist.key"))?;
        Ok(self.root_version())
    }

    /// Replaces the root key and publishes the next root, signed by the old
    /// and the new root key (the rotation rule); returns the new root version.
    pub fn rotate_root_key(&mut self, now: DateTime<Utc>) -> Result<u64, KeyStoreError> {
        if self.root_from_env {
            return Err(KeyStoreError::ExternallyManaged {
                role: "root",
                var: ROOT_KEY_ENV,
            });
        }
        let next = SigningKey::generate(&mut OsRng);
        let staged = self.dir.join("root.key.next");
        write_key_file(&staged, &next)?;
        if let Err(e) = self.publish_next_root(Some(&next), now) {
            let _ = std::fs::remove_file(&staged);
            return Err(e);
        }
        rename(&staged, &self.dir.join("root.key"))?;
        self.root_key = next;
        Ok(self.root_version())
    }

    /// Publishes root `n+1` naming the current allowlist key and `new_root_key`
    /// (or the current root key), signed by the current root key and, when it
    /// changes, the new one.
    fn publish_next_root(
        &mut self,
        new_root_key: Option<&SigningKey>,
        now: DateTime<Utc>,
    ) -> Result<(), KeyStoreError> {
        let root_key = new_root_key.unwrap_or(&self.root_key);
        let payload = RootPayload::new(
            self.root_version() + 1,
            now + ROOT_VALIDITY,
            &[root_key.verifying_key()],
            &[self.allowlist_key.verifying_key()],
        );
        let mut signers = vec![&self.root_key];
        if let Some(new) = new_root_key {
            signers.push(new);
        }
        let signed = SignedRoot::sign(payload, &signers);
        self.root = publish_root(&self.dir, &signed)?;
        tracing::info!(
            root_version = self.root_version(),
            root_keyid = %keyid(&root_key.verifying_key()),
            allowlist_keyid = %self.allowlist_keyid(),
            "published a new root"
        );
        Ok(())
    }
}

fn root_path(dir: &Path, version: u64) -> PathBuf {
    dir.join("roots").join(format!("{version}.json"))
}

/// Reads `roots/1.json`, `roots/2.json`, … and returns the last of the contiguous run.
fn load_latest_root(dir: &Path) -> Result<Option<SignedRoot>, KeyStoreError> {
    let mut latest = None;
    let mut version = 1;
    loop {
        let path = root_path(dir, version);
        let bytes = match std::fs::read(&path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(latest),
            Err(source) => return Err(KeyStoreError::Io { path, source }),
        };
        let root = SignedRoot::parse(&bytes).map_err(|reason| KeyStoreError::BadRoot {
            path: path.clone(),
            reason,
        })?;
        if root.payload.version != version {
            let reason = format!("holds version {}", root.payload.version);
            return Err(KeyStoreError::BadRoot { path, reason });
        }
        latest = Some(root);
        version += 1;
    }
}

/// Finishes or undoes a rotation a crash interrupted: a staged `.next` key
/// that the newest root names becomes current; one it does not name is dropped.
fn finish_interrupted_rotation(dir: &Path, root: &SignedRoot) -> Result<(), KeyStoreError> {
    for (staged, current, role) in [
        (
            "allowlist.key.next",
            "allowlist.key",
            &root.payload.roles.allowlist,
        ),
        ("root.key.next", "root.key", &root.payload.roles.root),
    ] {
        let staged = dir.join(staged);
        let Some(key) = read_key_file(&staged)? else {
            continue;
        };
        if role.keyids.contains(&keyid(&key.verifying_key())) {
            rename(&staged, &dir.join(current))?;
        } else {
            std::fs::remove_file(&staged).map_err(|source| KeyStoreError::Io {
                path: staged.clone(),
                source,
            })?;
        }
    }
    Ok(())
}

/// Writes root `n` without ever replacing an existing one.
fn publish_root(dir: &Path, root: &SignedRoot) -> Result<SignedRoot, KeyStoreError> {
    let target = root_path(dir, root.payload.version);
    match files::create_atomically(&target, &root.bytes) {
        Ok(()) => {
            // Roots are public documents; only keys stay 0600.
            set_mode(&target, 0o644)?;
            Ok(root.clone())
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Err(KeyStoreError::Conflict {
            version: root.payload.version,
        }),
        Err(source) => Err(KeyStoreError::Io {
            path: target,
            source,
        }),
    }
}

fn parse_seed(text: &str, origin: &str) -> Result<SigningKey, KeyStoreError> {
    let bad = || KeyStoreError::BadKey {
        origin: origin.to_string(),
    };
    let raw = STANDARD.decode(text.trim()).map_err(|_| bad())?;
    let seed: [u8; 32] = raw.as_slice().try_into().map_err(|_| bad())?;
    Ok(SigningKey::from_bytes(&seed))
}

fn read_key_file(path: &Path) -> Result<Option<SigningKey>, KeyStoreError> {
    match std::fs::read_to_string(path) {
        Ok(text) => parse_seed(&text, &path.display().to_string()).map(Some),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(KeyStoreError::Io {
            path: path.to_path_buf(),
            source,
        }),
    }
}

/// Generates a key into `path` unless another process just did; returns the key on disk.
fn create_key_file(path: &Path) -> Result<SigningKey, KeyStoreError> {
    let key = SigningKey::generate(&mut OsRng);
    let io = |source| KeyStoreError::Io {
        path: path.to_path_buf(),
        source,
    };
    match files::create_atomically(path, seed_text(&key).as_bytes()) {
        Ok(()) => Ok(key),
        // Lost a race with another process: its key is the one.
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            read_key_file(path)?.ok_or_else(|| io(std::io::ErrorKind::NotFound.into()))
        }
        Err(source) => Err(io(source)),
    }
}

/// Writes (or replaces) a key file atomically with mode 0600.
fn write_key_file(path: &Path, key: &SigningKey) -> Result<(), KeyStoreError> {
    files::replace_atomically(path, seed_text(key).as_bytes()).map_err(|source| KeyStoreError::Io {
        path: path.to_path_buf(),
        source,
    })
}

fn seed_text(key: &SigningKey) -> String {
    format!("{}\n", STANDARD.encode(key.to_bytes()))
}

fn rename(from: &Path, to: &Path) -> Result<(), KeyStoreError> {
    std::fs::rename(from, to).map_err(|source| KeyStoreError::Io {
        path: to.to_path_buf(),
        source,
    })
}

fn create_private_dir(dir: &Path) -> Result<(), KeyStoreError> {
    std::fs::create_dir_all(dir).map_err(|source| KeyStoreError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    set_mode(dir, 0o700)
}

fn set_mode(path: &Path, mode: u32) -> Result<(), KeyStoreError> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).map_err(
            |source| KeyStoreError::Io {
                path: path.to_path_buf(),
                source,
            },
        )?;
    }
    #[cfg(not(unix))]
    let _ = (path, mode);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open(dir: &Path) -> KeyStore {
        KeyStore::open_with(dir, KeySources::default(), Utc::now()).unwrap()
    }

    #[test]
    fn first_use_creates_private_keys_and_root_v1() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("keys");

        let store = open(&dir);

        assert_eq!(store.root_version(), 1);
        assert!(store.root_document(1).unwrap().is_some());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(dir.join("root.key"))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
            let mode = std::fs::metadata(dir.join("allowlist.key"))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
        }
    }

    #[test]
    fn reopening_keeps_the_same_keys_and_root() {
        let tmp = tempfile::tempdir().unwrap();
        let first = open(tmp.path());

        let second = open(tmp.path());

        assert_eq!(second.root_keyid(), first.root_keyid());
        assert_eq!(second.allowlist_keyid(), first.allowlist_keyid());
        assert_eq!(second.root_version(), 1);
    }

    #[test]
    fn rotating_the_allowlist_key_publishes_a_root_that_follows_the_old_one() {
        let tmp = tempfile::tempdir().unwrap();
        let mut store = open(tmp.path());
        let old_keyid = store.allowlist_keyid();
        let v1 = store.root().clone();

        let version = store.rotate_allowlist_key(Utc::now()).unwrap();

        assert_eq!(version, 2);
        assert_ne!(store.allowlist_keyid(), old_keyid);
        assert_eq!(
            store.root().payload.roles.allowlist.keyids,
            vec![store.allowlist_keyid()]
        );
        assert_eq!(store.root().check_successor_of(&v1.payload), Ok(()));
        assert_eq!(store.root_document(1).unwrap(), Some(v1.bytes));
        assert_eq!(open(tmp.path()).allowlist_keyid(), store.allowlist_keyid());
    }

    #[test]
    fn rotating_the_root_key_signs_with_the_old_and_the_new_key() {
        let tmp = tempfile::tempdir().unwrap();
        let mut store = open(tmp.path());
        let v1 = store.root().clone();

        store.rotate_root_key(Utc::now()).unwrap();

        assert_eq!(store.root().envelope.signatures.len(), 2);
        assert_eq!(store.root().check_successor_of(&v1.payload), Ok(()));
        assert_eq!(open(tmp.path()).root_keyid(), store.root_keyid());
    }

    #[test]
    fn keys_from_the_environment_are_used_and_cannot_be_rotated() {
        let tmp = tempfile::tempdir().unwrap();
        let seed = STANDARD.encode([7u8; 32]);
        let sources = KeySources {
            root_key: Some(seed.clone()),
            allowlist_key: Some(seed),
        };

        let mut store = KeyStore::open_with(tmp.path(), sources, Utc::now()).unwrap();

        assert_eq!(
            store.root_keyid(),
            keyid(&SigningKey::from_bytes(&[7u8; 32]).verifying_key())
        );
        assert!(!tmp.path().join("root.key").exists());
        assert!(matches!(
            store.rotate_allowlist_key(Utc::now()),
            Err(KeyStoreError::ExternallyManaged { .. })
        ));
    }

    #[test]
    fn a_new_allowlist_key_from_the_environment_is_adopted_by_the_next_root() {
        let tmp = tempfile::tempdir().unwrap();
        let first = open(tmp.path());
        let sources = KeySources {
            root_key: None,
            allowlist_key: Some(STANDARD.encode([9u8; 32])),
        };

        let store = KeyStore::open_with(tmp.path(), sources, Utc::now()).unwrap();

        assert_eq!(store.root_version(), 2);
        assert_ne!(store.allowlist_keyid(), first.allowlist_keyid());
        assert_eq!(
            store.root().check_successor_of(&first.root().payload),
            Ok(())
        );
    }

    #[test]
    fn a_root_close_to_expiry_is_renewed_on_open() {
        let tmp = tempfile::tempdir().unwrap();
        let start = Utc::now();
        open(tmp.path());

        let later = KeyStore::open_with(
            tmp.path(),
            KeySources::default(),
            start + Duration::days(340),
        )
        .unwrap();

        assert_eq!(later.root_version(), 2);
    }

    #[test]
    fn debug_output_shows_no_key_material() {
        let tmp = tempfile::tempdir().unwrap();
        let store = open(tmp.path());
        let seed = std::fs::read_to_string(tmp.path().join("allowlist.key")).unwrap();

        let shown = format!(
            "{store:?} {:?}",
            KeySources {
                root_key: Some(seed.clone()),
                allowlist_key: None
            }
        );

        assert!(!shown.contains(seed.trim()));
        assert!(shown.contains(&store.allowlist_keyid()));
    }

    #[test]
    fn an_interrupted_rotation_whose_root_was_published_is_finished_on_open() {
        let tmp = tempfile::tempdir().unwrap();
        let mut store = open(tmp.path());
        store.rotate_allowlist_key(Utc::now()).unwrap();
        // Simulate a crash after the root was published but before the rename.
        let current = tmp.path().join("allowlist.key");
        std::fs::rename(&current, tmp.path().join("allowlist.key.next")).unwrap();
        write_key_file(&current, &SigningKey::generate(&mut OsRng)).unwrap();

        let reopened = open(tmp.path());

        assert_eq!(reopened.allowlist_keyid(), store.allowlist_keyid());
        assert_eq!(reopened.root_version(), 2);
    }
}
