//! Root documents (docs/DESIGN.md §7): which keys may sign roots and allowlists,
//! and how many of them must.
//!
//! Trust starts from a root a client pinned out of band. Root `n+1` is valid
//! only when signed by a threshold of root `n`'s root keys (the old keys vouch
//! for the change) *and* a threshold of its own root keys (the new keys exist
//! and accept the role), the rule of TUF's root rotation. So a thief of the
//! allowlist key alone cannot publish a root, and rotating the allowlist key
//! simply publishes root `n+1` with the new key in the `allowlist` role.

use std::collections::BTreeMap;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use chrono::{DateTime, Utc};
use ed25519_dalek::{SigningKey, VerifyingKey};
use serde::{Deserialize, Serialize};

use super::dsse::{self, Envelope, ROOT_PAYLOAD_TYPE, keyid};
use super::{SPEC_VERSION, timestamp};

/// `_type` of a root payload.
pub const ROOT_TYPE: &str = "gatehouse/root";

/// The payload of a root document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RootPayload {
    /// Always [`ROOT_TYPE`].
    #[serde(rename = "_type")]
    pub type_: String,
    /// Format version, `1.0`.
    pub spec_version: String,
    /// 1 for the first root, then +1 per rotation.
    pub version: u64,
    /// A client refuses to end its walk on a root past this instant.
    #[serde(with = "timestamp")]
    pub expires: DateTime<Utc>,
    /// Every key any role names, by key id.
    pub keys: BTreeMap<String, PublicKey>,
    /// Who may sign what.
    pub roles: Roles,
}

/// A public key as a JWK (RFC 8037): `{"kty": "OKP", "crv": "Ed25519", "x": base64url}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PublicKey {
    /// Always `OKP`.
    pub kty: String,
    /// Always `Ed25519`.
    pub crv: String,
    /// Unpadded base64url of the raw 32-byte public key.
    pub x: String,
}

/// The two roles of a root document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Roles {
    /// Signs root documents.
    pub root: Role,
    /// Signs allowlists.
    pub allowlist: Role,
}

/// The keys of one role and how many of them must sign.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Role {
    /// Key ids (entries of [`RootPayload::keys`]).
    pub keyids: Vec<String>,
    /// Distinct valid signatures required; at least 1.
    pub threshold: u32,
}

/// A root document together with its parsed payload and the exact bytes served.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignedRoot {
    /// The envelope.
    pub envelope: Envelope,
    /// Its payload.
    pub payload: RootPayload,
    /// The envelope as stored and served at `/v1/root/{n}.json`.
    pub bytes: Vec<u8>,
}

impl PublicKey {
    /// The JWK of an Ed25519 public key.
    pub fn ed25519(key: &VerifyingKey) -> PublicKey {
        PublicKey {
            kty: "OKP".into(),
            crv: "Ed25519".into(),
            x: URL_SAFE_NO_PAD.encode(key.as_bytes()),
        }
    }

    /// The key itself; refuses other key types, bad encodings and invalid points.
    pub fn to_verifying_key(&self) -> Result<VerifyingKey, String> {
        if self.kty != "OKP" || self.crv != "Ed25519" {
            return Err("only OKP/Ed25519 keys are supported".into());
        }
        let raw = URL_SAFE_NO_PAD
            .decode(self.x.trim_end_matches('='))
            .map_err(|e| format!("x: {e}"))?;
        let raw: [u8; 32] = raw
            .as_slice()
            .try_into()
            .map_err(|_| "x is not 32 bytes".to_string())?;
        VerifyingKey::from_bytes(&raw).map_err(|_| "x is not an Ed25519 public key".to_string())
    }
}

impl RootPayload {
    /// A root listing `root_keys` and `allowlist_keys`, each role with threshold 1.
    pub fn new(
        version: u64,
        expires: DateTime<Utc>,
        root_keys: &[VerifyingKey],
        allowlist_keys: &[VerifyingKey],
    ) -> RootPayload {
        let mut keys = BTreeMap::new();
        let mut role = |members: &[VerifyingKey]| {
            let mut keyids: Vec<String> = members
                .iter()
                .map(|k| {
                    keys.insert(keyid(k), PublicKey::ed25519(k));
                    keyid(k)
                })
                .collect();
            keyids.sort();
            keyids.dedup();
            Role {
                keyids,
                threshold: 1,
            }
        };
        let roles = Roles {
            root: role(root_keys),
            allowlist: role(allowlist_keys),
        };
        RootPayload {
            type_: ROOT_TYPE.into(),
            spec_version: SPEC_VERSION.into(),
            version,
            expires: timestamp::whole_seconds(expires),
            keys,
            roles,
        }
    }

    /// The keys of `role`, by key id, after checking the role is usable: a
    /// threshold between 1 and the number of keys, every key id listed under
    /// `keys`, and every key id really the SHA-256 of its key (otherwise one
    /// key listed under two ids could meet a threshold of two alone).
    pub fn role_keys(&self, role: &Role) -> Result<BTreeMap<String, VerifyingKey>, String> {
        let mut out = BTreeMap::new();
        for id in &role.keyids {
            let jwk = self
                .keys
                .get(id)
                .ok_or_else(|| format!("key id {id} is not under keys"))?;
            let key = jwk
                .to_verifying_key()
                .map_err(|e| format!("key {id}: {e}"))?;
            if keyid(&key) != *id {
                return Err(format!("key id {id} is not the SHA-256 of its key"));
            }
            out.insert(id.clone(), key);
        }
        if role.threshold == 0 || role.threshold as usize > out.len() {
            return Err(format!(
                "threshold {} with {} distinct keys",
                role.threshold,
                out.len()
            ));
        }
        Ok(out)
    }

    /// The public keys of the `root` role.
    pub fn root_keys(&self) -> Result<BTreeMap<String, VerifyingKey>, String> {
        self.role_keys(&self.roles.root)
    }

    /// The public keys of the `allowlist` role.
    pub fn allowlist_keys(&self) -> Result<BTreeMap<String, VerifyingKey>, String> {
        self.role_keys(&self.roles.allowlist)
    }

    /// JWKS (RFC 7517) of every key this root names, for `/.well-known/jwks.json`.
    /// Informational: clients must trust keys through the root chain only.
    pub fn jwks(&self) -> serde_json::Value {
        let keys: Vec<serde_json::Value> = self
            .keys
            .iter()
            .map(|(id, jwk)| {
                let mut uses = Vec::new();
                if self.roles.root.keyids.contains(id) {
                    uses.push("root");
                }
                if self.roles.allowlist.keyids.contains(id) {
                    uses.push("allowlist");
                }
                serde_json::json!({
                    "kty": jwk.kty, "crv": jwk.crv, "x": jwk.x, "kid": id,
                    "alg": "EdDSA", "use": "sig", "gatehouse_roles": uses,
                })
            })
            .collect();
        serde_json::json!({ "keys": keys })
    }
}

impl SignedRoot {
    /// Serialises and signs `payload` with `signers`.
    pub fn sign(payload: RootPayload, signers: &[&SigningKey]) -> SignedRoot {
        // Plain data with string keys: serialisation cannot fail.
        let body = serde_json::to_vec(&payload).expect("a root payload always serialises");
        let envelope = dsse::sign(ROOT_PAYLOAD_TYPE, &body, signers);
        let bytes = envelope.to_bytes();
        SignedRoot {
            envelope,
            payload,
            bytes,
        }
    }

    /// Parses stored or fetched root bytes; does not check any signature.
    pub fn parse(bytes: &[u8]) -> Result<SignedRoot, String> {
        let envelope =
            Envelope::from_slice(bytes).map_err(|e| format!("not a DSSE envelope: {e}"))?;
        if envelope.signatures.len() > dsse::MAX_SIGNATURES {
            return Err(format!("more than {} signatures", dsse::MAX_SIGNATURES));
        }
        if envelope.payload_type != ROOT_PAYLOAD_TYPE {
            return Err("payloadType is not a root document".into());
        }
        let body = envelope
            .payload_bytes()
            .map_err(|e| format!("payload is not base64: {e}"))?;
        let payload: RootPayload = serde_json::from_slice(&body)
            .map_err(|e| format!("payload is not a root document: {e}"))?;
        if payload.type_ != ROOT_TYPE {
            return Err("_type is not gatehouse/root".into());
        }
        Ok(SignedRoot {
            envelope,
            payload,
            bytes: bytes.to_vec(),
        })
    }

    /// Whether `self` is a valid successor of `previous`: version exactly one
    /// more, signed by a threshold of `previous`'s root keys and of its own.
    pub fn check_successor_of(&self, previous: &RootPayload) -> Result<(), String> {
        if self.payload.version != previous.version + 1 {
            return Err(format!(
                "version {} does not follow version {}",
                self.payload.version, previous.version
            ));
        }
        check_threshold(&self.envelope, previous, "the previous root's root keys")?;
        check_threshold(&self.envelope, &self.payload, "its own root keys")
    }

    /// Whether `self` is signed by a threshold of its own root keys (the check for a pinned first root).
    pub fn check_self_signed(&self) -> Result<(), String> {
        check_threshold(&self.envelope, &self.payload, "its own root keys")
    }
}

fn check_threshold(
    envelope: &Envelope,
    signer_root: &RootPayload,
    whose: &str,
) -> Result<(), String> {
    let keys = signer_root
        .root_keys()
        .map_err(|e| format!("root role of version {}: {e}", signer_root.version))?;
    let tally = envelope.check_signatures(&keys);
    let needed = signer_root.roles.root.threshold as usize;
    if tally.valid.len() < needed {
        return Err(format!(
            "{} valid signature(s) of {whose}, {needed} needed",
            tally.valid.len()
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use chrono::Duration;
    use rand::rngs::OsRng;

    use super::*;

    fn root(version: u64, root_key: &SigningKey, allowlist_key: &SigningKey) -> RootPayload {
        RootPayload::new(
            version,
            Utc::now() + Duration::days(365),
            &[root_key.verifying_key()],
            &[allowlist_key.verifying_key()],
        )
    }

    #[test]
    fn a_root_signed_by_the_old_and_new_root_keys_follows_its_predecessor() {
        let (old, new, list) = (
            SigningKey::generate(&mut OsRng),
            SigningKey::generate(&mut OsRng),
            SigningKey::generate(&mut OsRng),
        );
        let v1 = root(1, &old, &list);

        let v2 = SignedRoot::sign(root(2, &new, &list), &[&old, &new]);

        assert_eq!(v2.check_successor_of(&v1), Ok(()));
    }

    #[test]
    fn a_root_signed_only_by_its_new_key_does_not_follow_its_predecessor() {
        let (old, new, list) = (
            SigningKey::generate(&mut OsRng),
            SigningKey::generate(&mut OsRng),
            SigningKey::generate(&mut OsRng),
        );
        let v1 = root(1, &old, &list);

        let v2 = SignedRoot::sign(root(2, &new, &list), &[&new]);

        assert!(
            v2.check_successor_of(&v1)
                .unwrap_err()
                .contains("previous root")
        );
    }

    #[test]
    fn a_root_that_skips_a_version_does_not_follow() {
        let (key, list) = (
            SigningKey::generate(&mut OsRng),
            SigningKey::generate(&mut OsRng),
        );
        let v1 = root(1, &key, &list);

        let v3 = SignedRoot::sign(root(3, &key, &list), &[&key]);

        assert!(
            v3.check_successor_of(&v1)
                .unwrap_err()
                .contains("does not follow")
        );
    }

    #[test]
    fn a_key_listed_under_a_false_key_id_is_refused() {
        let (key, list) = (
            SigningKey::generate(&mut OsRng),
            SigningKey::generate(&mut OsRng),
        );
        let mut payload = root(1, &key, &list);
        let jwk = payload.keys.values().next().unwrap().clone();
        payload.keys.insert("00".repeat(32), jwk);
        payload.roles.root.keyids.push("00".repeat(32));
        payload.roles.root.threshold = 2;

        let result = payload.root_keys();

        assert!(result.unwrap_err().contains("not the SHA-256"));
    }

    #[test]
    fn a_signed_root_round_trips_through_its_bytes() {
        let (key, list) = (
            SigningKey::generate(&mut OsRng),
            SigningKey::generate(&mut OsRng),
        );
        let signed = SignedRoot::sign(root(1, &key, &list), &[&key]);

        let parsed = SignedRoot::parse(&signed.bytes).unwrap();

        assert_eq!(parsed, signed);
        assert_eq!(parsed.check_self_signed(), Ok(()));
    }
}
