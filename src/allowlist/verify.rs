//! Client-side verification of a signed allowlist (docs/DESIGN.md §7), exactly as
//! an MCP client should do it; `gatehouse verify` and the tests use it.
//!
//! The order of the checks follows the DSSE protocol: authenticate the bytes
//! first (signatures over the PAE), only then look at `payloadType` and parse
//! the payload, so nothing unauthenticated is ever interpreted. Every refusal
//! has its own [`VerifyError`] variant so a client can tell an attack
//! (tampering, rollback, a foreign key) from an operational problem (an
//! expired document). Anything unexpected fails closed.

use std::collections::BTreeMap;
use std::path::Path;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

use super::dsse::{ALLOWLIST_PAYLOAD_TYPE, Envelope, MAX_SIGNATURES};
use super::files;
use super::payload::{ALLOWLIST_TYPE, AllowlistPayload};
use super::root::{RootPayload, SignedRoot};
use super::text::printable;
use super::timestamp;

/// Most root versions a client walks in one verification; a server that
/// offers more is treated as hostile rather than followed forever.
pub const MAX_ROOT_WALK: u64 = 1024;

/// Why a document was refused. Strings in variants are already made
/// printable ([`printable`]): they may come from the hostile document.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    /// A trusted key signed, but its signature does not verify: the payload or
    /// the signature was altered (the two cannot be told apart).
    #[error("bad signature: the payload or its signature was altered after signing")]
    BadSignature,
    /// No signature is by a key the trusted root names for this role.
    #[error("signed by unknown key(s) {keyids}: not an allowlist key of the trusted root")]
    UnknownKey {
        /// The key ids that signed.
        keyids: String,
    },
    /// Some trusted signatures verify, but fewer than the role's threshold.
    #[error("only {valid} valid signature(s), the threshold is {needed}")]
    ThresholdNotMet {
        /// Distinct valid signatures.
        valid: usize,
        /// The role's threshold.
        needed: usize,
    },
    /// The envelope carries another kind of document.
    #[error("wrong payloadType {found:?}: expected {ALLOWLIST_PAYLOAD_TYPE}")]
    WrongPayloadType {
        /// The payloadType found.
        found: String,
    },
    /// The payload is not an allowlist.
    #[error("wrong _type {found:?}: expected {ALLOWLIST_TYPE}")]
    WrongType {
        /// The `_type` found.
        found: String,
    },
    /// A `spec_version` whose major version this client does not know.
    #[error("unsupported spec_version {found:?}: this client reads 1.x")]
    UnsupportedSpecVersion {
        /// The `spec_version` found.
        found: String,
    },
    /// The document (or the newest root) is past its `expires`.
    #[error("expired: the {document} expired at {expires}")]
    Expired {
        /// `allowlist` or `root`.
        document: &'static str,
        /// Its `expires`, RFC 3339.
        expires: String,
    },
    /// Older than the version accepted before, or the same version with other bytes.
    #[error("rollback: version {found} offered, version {stored} already accepted{detail}")]
    Rollback {
        /// The version stored in the client state.
        stored: u64,
        /// The version offered.
        found: u64,
        /// Extra explanation (equal version, different content).
        detail: &'static str,
    },
    /// The document is for another audience.
    #[error("wrong audience {found:?}: expected {expected:?}")]
    WrongAudience {
        /// The audience asked for.
        expected: String,
        /// The audience in the document.
        found: String,
    },
    /// The roots from the pinned one to the newest do not link up.
    #[error("root chain broken at version {version}: {reason}")]
    RootChainBroken {
        /// The root version that failed.
        version: u64,
        /// Why.
        reason: String,
    },
    /// Not a well-formed envelope or payload.
    #[error("malformed: {reason}")]
    Malformed {
        /// What is wrong.
        reason: String,
    },
}

impl VerifyError {
    /// A stable machine code for the refusal (`bad_signature`, `rollback`, …).
    pub fn code(&self) -> &'static str {
        match self {
            VerifyError::BadSignature => "bad_signature",
            VerifyError::UnknownKey { .. } => "unknown_key",
            VerifyError::ThresholdNotMet { .. } => "threshold_not_met",
            VerifyError::WrongPayloadType { .. } => "wrong_payload_type",
            VerifyError::WrongType { .. } => "wrong_type",
            VerifyError::UnsupportedSpecVersion { .. } => "unsupported_spec_version",
            VerifyError::Expired { .. } => "expired",
            VerifyError::Rollback { .. } => "rollback",
            VerifyError::WrongAudience { .. } => "wrong_audience",
            VerifyError::RootChainBroken { .. } => "root_chain_broken",
            VerifyError::Malformed { .. } => "malformed",
        }
    }

    fn malformed(reason: impl std::fmt::Display) -> VerifyError {
        VerifyError::Malformed {
            reason: printable(&reason.to_string()),
        }
    }

    fn chain(version: u64, reason: impl std::fmt::Display) -> VerifyError {
        VerifyError::RootChainBroken {
            version,
            reason: printable(&reason.to_string()),
        }
    }
}

/// A root the client trusts: the pinned one, or one reached from it by valid rotations.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrustedRoot(SignedRoot);

impl TrustedRoot {
    /// Trusts a pinned root (from a file the user chose), after checking it is
    /// a well-formed root signed by a threshold of its own root keys.
    pub fn pinned(bytes: &[u8]) -> Result<TrustedRoot, VerifyError> {
        let root = SignedRoot::parse(bytes)
            .map_err(|e| VerifyError::chain(0, format!("pinned root: {e}")))?;
        root.check_self_signed()
            .map_err(|e| VerifyError::chain(root.payload.version, format!("pinned root: {e}")))?;
        Ok(TrustedRoot(root))
    }

    /// The root's payload.
    pub fn payload(&self) -> &RootPayload {
        &self.0.payload
    }

    /// The root's version.
    pub fn version(&self) -> u64 {
        self.0.payload.version
    }

    /// The root as served.
    pub fn signed(&self) -> &SignedRoot {
        &self.0
    }

    /// Walks from this root through `available` (root documents in any order;
    /// older or unrelated versions are ignored) to the newest one that links
    /// up: each step must be version `n+1` and signed by a threshold of root
    /// `n`'s root keys and of its own. Intermediate roots may have expired;
    /// the one the walk ends on must not have.
    pub fn walk(
        self,
        available: &[Vec<u8>],
        now: DateTime<Utc>,
    ) -> Result<TrustedRoot, VerifyError> {
        let mut by_version: BTreeMap<u64, SignedRoot> = BTreeMap::new();
        for bytes in available {
            // A document that does not even parse cannot be placed in the chain;
            // it only matters if its version is needed, and then it is missing,
            // which is what a server could achieve anyway by answering 404.
            if let Ok(root) = SignedRoot::parse(bytes) {
                by_version.entry(root.payload.version).or_insert(root);
            }
        }
        let mut current = self;
        for _ in 0..MAX_ROOT_WALK {
            let next_version = current.version() + 1;
            let Some(next) = by_version.remove(&next_version) else {
                break;
            };
            next.check_successor_of(current.payload())
                .map_err(|e| VerifyError::chain(next_version, e))?;
            current = TrustedRoot(next);
        }
        if current.payload().expires <= now {
            return Err(VerifyError::Expired {
                document: "root",
                expires: timestamp::format(&current.payload().expires),
            });
        }
        Ok(current)
    }
}

/// What a client remembers between verifications (rollback protection).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClientState {
    /// SHA-256 of the pinned root the stored root was reached from; the stored
    /// root is only used while the same root is pinned.
    #[serde(default)]
    pub pinned_root_sha256: Option<String>,
    /// The newest root reached so far (its envelope bytes as UTF-8 JSON), so a
    /// server cannot hide a rotation by withholding newer roots later.
    #[serde(default)]
    pub root: Option<String>,
    /// The last accepted allowlist per audience.
    #[serde(default)]
    pub allowlists: BTreeMap<String, AcceptedAllowlist>,
}

/// The last allowlist accepted for one audience.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AcceptedAllowlist {
    /// Its `version`.
    pub version: u64,
    /// Hex SHA-256 of its payload bytes: the same version must be the same document.
    pub payload_sha256: String,
}

/// A verified allowlist.
#[derive(Debug, Clone, PartialEq)]
pub struct VerifiedAllowlist {
    /// The payload.
    pub payload: AllowlistPayload,
    /// Hex SHA-256 of the payload bytes.
    pub payload_sha256: String,
    /// The root it was verified against.
    pub root_version: u64,
}

impl ClientState {
    /// Loads the state file; a missing file is an empty state (first use).
    pub fn load(path: &Path) -> std::io::Result<ClientState> {
        match std::fs::read(path) {
            Ok(bytes) => serde_json::from_slice(&bytes).map_err(|e| {
                std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    format!("{}: {e}", path.display()),
                )
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(ClientState::default()),
            Err(e) => Err(e),
        }
    }

    /// Saves the state atomically: a temporary file in the same directory,
    /// flushed to disk, then renamed over the old one, so a crash leaves
    /// either the old or the new state and never a torn file that would reset
    /// rollback protection.
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        let bytes = serde_json::to_vec_pretty(self).map_err(std::io::Error::other)?;
        files::replace_atomically(path, &bytes)
    }

    /// The root to start from: the stored root when it was reached from this
    /// same pinned root and is newer, else the pinned root.
    pub fn start_root(&self, pinned_bytes: &[u8]) -> Result<TrustedRoot, VerifyError> {
        let pinned = TrustedRoot::pinned(pinned_bytes)?;
        let same_pin =
            self.pinned_root_sha256.as_deref() == Some(sha256_hex(pinned_bytes).as_str());
        if let (true, Some(stored)) = (same_pin, &self.root) {
            // The stored root was verified when it was saved; re-parse it and make
            // sure it is at least self-consistent before relying on it.
            if let Ok(root) = TrustedRoot::pinned(stored.as_bytes()) {
                if root.version() > pinned.version() {
                    return Ok(root);
                }
            }
        }
        Ok(pinned)
    }
}

/// Verifies an allowlist envelope as a client: start from the pinned root (or
/// the newer root remembered in `state`), walk `available_roots`, check the
/// envelope against the final root's allowlist role, then `payloadType`,
/// `_type`, `spec_version`, audience, expiry and rollback. On success `state`
/// records the new root and version; the caller saves it.
pub fn verify_allowlist(
    pinned_root: &[u8],
    available_roots: &[Vec<u8>],
    envelope: &[u8],
    audience: &str,
    state: &mut ClientState,
    now: DateTime<Utc>,
) -> Result<VerifiedAllowlist, VerifyError> {
    let root = state.start_root(pinned_root)?.walk(available_roots, now)?;
    let verified = verify_envelope(
        &root,
        envelope,
        audience,
        state.allowlists.get(audience),
        now,
    )?;
    state.pinned_root_sha256 = Some(sha256_hex(pinned_root));
    state.root = Some(String::from_utf8_lossy(&root.signed().bytes).into_owned());
    state.allowlists.insert(
        audience.to_string(),
        AcceptedAllowlist {
            version: verified.payload.version,
            payload_sha256: verified.payload_sha256.clone(),
        },
    );
    Ok(verified)
}

/// Verifies one allowlist envelope against a trusted root and the last
/// accepted version (`None` on first use). Does not touch any state.
pub fn verify_envelope(
    root: &TrustedRoot,
    envelope: &[u8],
    audience: &str,
    accepted: Option<&AcceptedAllowlist>,
    now: DateTime<Utc>,
) -> Result<VerifiedAllowlist, VerifyError> {
    let envelope = Envelope::from_slice(envelope)
        .map_err(|e| VerifyError::malformed(format!("envelope: {e}")))?;
    let body = envelope
        .payload_bytes()
        .map_err(|e| VerifyError::malformed(format!("payload is not base64: {e}")))?;

    if envelope.signatures.len() > MAX_SIGNATURES {
        return Err(VerifyError::malformed(format!(
            "more than {MAX_SIGNATURES} signatures"
        )));
    }

    // 1. Authenticate the bytes.
    let keys = root
        .payload()
        .allowlist_keys()
        .map_err(|e| VerifyError::chain(root.version(), format!("allowlist role: {e}")))?;
    let needed = root.payload().roles.allowlist.threshold as usize;
    let tally = envelope.check_signatures(&keys);
    if tally.valid.len() < needed {
        return Err(if !tally.valid.is_empty() {
            VerifyError::ThresholdNotMet {
                valid: tally.valid.len(),
                needed,
            }
        } else if tally.invalid > 0 {
            VerifyError::BadSignature
        } else if !tally.unknown.is_empty() {
            let ids: Vec<&str> = tally.unknown.iter().map(String::as_str).collect();
            VerifyError::UnknownKey {
                keyids: printable(&ids.join(", ")),
            }
        } else {
            VerifyError::malformed("the envelope has no signatures")
        });
    }

    // 2. Only now interpret what was signed.
    if envelope.payload_type != ALLOWLIST_PAYLOAD_TYPE {
        return Err(VerifyError::WrongPayloadType {
            found: printable(&envelope.payload_type),
        });
    }
    let raw: Value = serde_json::from_slice(&body)
        .map_err(|e| VerifyError::malformed(format!("payload: {e}")))?;
    let text_field = |key: &str| {
        raw.get(key)
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    };
    if text_field("_type") != ALLOWLIST_TYPE {
        return Err(VerifyError::WrongType {
            found: printable(&text_field("_type")),
        });
    }
    let spec = text_field("spec_version");
    if spec.split('.').next() != Some("1") {
        return Err(VerifyError::UnsupportedSpecVersion {
            found: printable(&spec),
        });
    }
    let payload: AllowlistPayload =
        serde_json::from_value(raw).map_err(|e| VerifyError::malformed(format!("payload: {e}")))?;

    // This format only knows deny-by-default; anything else is not a document we understand.
    if payload.default != "deny" {
        return Err(VerifyError::malformed(format!(
            "default is {:?}, not \"deny\"",
            payload.default
        )));
    }

    // 3. Is it for us, current, and not older than what we had?
    if payload.audience != audience {
        return Err(VerifyError::WrongAudience {
            expected: printable(audience),
            found: printable(&payload.audience),
        });
    }
    if payload.expires <= now {
        return Err(VerifyError::Expired {
            document: "allowlist",
            expires: timestamp::format(&payload.expires),
        });
    }
    let payload_sha256 = sha256_hex(&body);
    if let Some(accepted) = accepted {
        if payload.version < accepted.version {
            return Err(VerifyError::Rollback {
                stored: accepted.version,
                found: payload.version,
                detail: "",
            });
        }
        if payload.version == accepted.version && payload_sha256 != accepted.payload_sha256 {
            return Err(VerifyError::Rollback {
                stored: accepted.version,
                found: payload.version,
                detail: " with different content",
            });
        }
    }
    Ok(VerifiedAllowlist {
        payload,
        payload_sha256,
        root_version: root.version(),
    })
}

fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

#[cfg(test)]
mod tests {
    use chrono::Duration;
    use ed25519_dalek::SigningKey;
    use rand::rngs::OsRng;

    use super::*;
    use crate::allowlist::dsse::sign;
    use crate::allowlist::payload::build_payload;

    struct Keys {
        root: SigningKey,
        lists: Vec<SigningKey>,
    }

    fn keys(allowlist_keys: usize) -> Keys {
        Keys {
            root: SigningKey::generate(&mut OsRng),
            lists: (0..allowlist_keys)
                .map(|_| SigningKey::generate(&mut OsRng))
                .collect(),
        }
    }

    fn trusted_root(keys: &Keys, allowlist_threshold: u32) -> TrustedRoot {
        let list: Vec<_> = keys.lists.iter().map(SigningKey::verifying_key).collect();
        let mut payload = RootPayload::new(
            1,
            Utc::now() + Duration::days(30),
            &[keys.root.verifying_key()],
            &list,
        );
        payload.roles.allowlist.threshold = allowlist_threshold;
        TrustedRoot::pinned(&SignedRoot::sign(payload, &[&keys.root]).bytes).unwrap()
    }

    fn body(version: u64, edit: impl FnOnce(&mut Value)) -> Vec<u8> {
        let now = Utc::now();
        let payload = build_payload(
            "https://r",
            "default",
            version,
            now,
            now + Duration::days(1),
            &[],
            &[],
        );
        let mut value = serde_json::to_value(payload).unwrap();
        edit(&mut value);
        serde_json::to_vec(&value).unwrap()
    }

    #[test]
    fn one_signature_does_not_meet_a_threshold_of_two() {
        let keys = keys(2);
        let root = trusted_root(&keys, 2);
        let envelope = sign(ALLOWLIST_PAYLOAD_TYPE, &body(1, |_| {}), &[&keys.lists[0]]);

        let result = verify_envelope(&root, &envelope.to_bytes(), "default", None, Utc::now());

        assert_eq!(
            result.unwrap_err(),
            VerifyError::ThresholdNotMet {
                valid: 1,
                needed: 2
            }
        );
    }

    #[test]
    fn two_signatures_meet_a_threshold_of_two() {
        let keys = keys(2);
        let root = trusted_root(&keys, 2);
        let signers: Vec<&SigningKey> = keys.lists.iter().collect();
        let envelope = sign(ALLOWLIST_PAYLOAD_TYPE, &body(1, |_| {}), &signers);

        let result = verify_envelope(&root, &envelope.to_bytes(), "default", None, Utc::now());

        assert_eq!(result.unwrap().payload.version, 1);
    }

    #[test]
    fn a_future_major_spec_version_is_refused() {
        let keys = keys(1);
        let root = trusted_root(&keys, 1);
        let payload = body(1, |v| v["spec_version"] = "2.0".into());
        let envelope = sign(ALLOWLIST_PAYLOAD_TYPE, &payload, &[&keys.lists[0]]);

        let result = verify_envelope(&root, &envelope.to_bytes(), "default", None, Utc::now());

        assert_eq!(result.unwrap_err().code(), "unsupported_spec_version");
    }

    #[test]
    fn hostile_text_in_a_refusal_is_made_printable() {
        let keys = keys(1);
        let root = trusted_root(&keys, 1);
        let payload = body(1, |v| v["audience"] = "x\u{1b}]0;pwned\u{7}".into());
        let envelope = sign(ALLOWLIST_PAYLOAD_TYPE, &payload, &[&keys.lists[0]]);

        let error =
            verify_envelope(&root, &envelope.to_bytes(), "default", None, Utc::now()).unwrap_err();

        assert!(!error.to_string().contains('\u{1b}'), "{error}");
    }

    #[test]
    fn the_state_is_saved_atomically_and_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.json");
        let mut state = ClientState::default();
        state.allowlists.insert(
            "default".into(),
            AcceptedAllowlist {
                version: 3,
                payload_sha256: "ab".into(),
            },
        );

        state.save(&path).unwrap();
        state.save(&path).unwrap();

        assert_eq!(ClientState::load(&path).unwrap(), state);
        let leftovers = std::fs::read_dir(dir.path()).unwrap().count();
        assert_eq!(leftovers, 1, "no temporary file is left behind");
    }

    #[test]
    fn a_missing_state_file_is_a_first_use() {
        let dir = tempfile::tempdir().unwrap();

        let state = ClientState::load(&dir.path().join("absent.json")).unwrap();

        assert_eq!(state, ClientState::default());
    }
}
