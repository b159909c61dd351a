//! DSSE envelopes (<https://github.com/secure-systems-lab/dsse>, protocol v1)
//! signed with Ed25519, as docs/DESIGN.md §7 fixes them.
//!
//! The signature covers `PAE(payloadType, payload)`, never the JSON of the
//! envelope, so a verifier needs no canonical JSON and the payload type is
//! authenticated along with the bytes (a root document cannot pass for an
//! allowlist).

use std::collections::{BTreeMap, BTreeSet};

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use ed25519_dalek::{Signer, SigningKey, VerifyingKey};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// `payloadType` of a signed allowlist.
pub const ALLOWLIST_PAYLOAD_TYPE: &str = "application/vnd.gatehouse.allowlist+json";
/// `payloadType` of a signed root document.
pub const ROOT_PAYLOAD_TYPE: &str = "application/vnd.gatehouse.root+json";

/// Most signatures a verifier looks at: each costs a signature check, so a
/// hostile envelope with millions of them is refused instead of processed.
pub const MAX_SIGNATURES: usize = 64;

/// A DSSE envelope: the payload (base64) and its signatures.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Envelope {
    /// What the payload is; authenticated through the PAE.
    pub payload_type: String,
    /// Standard base64 (with padding) of the payload bytes.
    pub payload: String,
    /// One entry per signing key.
    pub signatures: Vec<Signature>,
}

/// One signature of an envelope.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Signature {
    /// Hex SHA-256 of the signer's raw 32-byte Ed25519 public key.
    pub keyid: String,
    /// Standard base64 of the 64-byte Ed25519 signature over the PAE.
    pub sig: String,
}

/// The DSSE pre-authentication encoding:
/// `"DSSEv1" SP len(type) SP type SP len(body) SP body`, lengths in ASCII decimal bytes.
pub fn pae(payload_type: &str, body: &[u8]) -> Vec<u8> {
    let header = format!(
        "DSSEv1 {} {} {} ",
        payload_type.len(),
        payload_type,
        body.len()
    );
    let mut out = Vec::with_capacity(header.len() + body.len());
    out.extend_from_slice(header.as_bytes());
    out.extend_from_slice(body);
    out
}

/// The key id of a public key: hex SHA-256 of its raw 32 bytes.
pub fn keyid(key: &VerifyingKey) -> String {
    hex::encode(Sha256::digest(key.as_bytes()))
}

/// Signs `body` as `payload_type` with every key in `keys`.
pub fn sign(payload_type: &str, body: &[u8], keys: &[&SigningKey]) -> Envelope {
    let message = pae(payload_type, body);
    let signatures = keys
        .iter()
        .map(|key| Signature {
            keyid: keyid(&key.verifying_key()),
            sig: STANDARD.encode(key.sign(&message).to_bytes()),
        })
        .collect();
    Envelope {
        payload_type: payload_type.to_string(),
        payload: STANDARD.encode(body),
        signatures,
    }
}

impl Envelope {
    /// The envelope as the JSON bytes that are stored and served (compact, newline-terminated).
    pub fn to_bytes(&self) -> Vec<u8> {
        // Strings and a list of plain structs: serialisation cannot fail.
        let mut bytes = serde_json::to_vec(self).expect("an envelope always serialises");
        bytes.push(b'\n');
        bytes
    }

    /// Parses an envelope from untrusted bytes.
    pub fn from_slice(bytes: &[u8]) -> Result<Envelope, serde_json::Error> {
        serde_json::from_slice(bytes)
    }

    /// The decoded payload bytes. DSSE lets signers use either base64
    /// alphabet, with or without padding, so all four are accepted.
    pub fn payload_bytes(&self) -> Result<Vec<u8>, base64::DecodeError> {
        decode_base64(&self.payload)
    }

    /// Counts the signatures that verify under `trusted` (keyid → key).
    ///
    /// Each trusted key counts once however often it appears, so repeating a
    /// signature cannot meet a threshold.
    /// Only the first [`MAX_SIGNATURES`] are examined; callers refuse
    /// envelopes with more before they get here.
    pub fn check_signatures(&self, trusted: &BTreeMap<String, VerifyingKey>) -> SignatureTally {
        let mut tally = SignatureTally::default();
        let Ok(body) = self.payload_bytes() else {
            tally.invalid = self.signatures.len();
            return tally;
        };
        let message = pae(&self.payload_type, &body);
        for signature in self.signatures.iter().take(MAX_SIGNATURES) {
            let Some(key) = trusted.get(&signature.keyid) else {
                tally.unknown.insert(signature.keyid.clone());
                continue;
            };
            let parsed = decode_base64(&signature.sig)
                .ok()
                .and_then(|raw| <[u8; 64]>::try_from(raw.as_slice()).ok())
                .map(|raw| ed25519_dalek::Signature::from_bytes(&raw));
            // `verify_strict` refuses weak keys and non-canonical signatures, so a
            // signature has exactly one valid encoding.
            match parsed {
                Some(sig) if key.verify_strict(&message, &sig).is_ok() => {
                    tally.valid.insert(signature.keyid.clone());
                }
                _ => tally.invalid += 1,
            }
        }
        tally
    }
}

/// What [`Envelope::check_signatures`] found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SignatureTally {
    /// Trusted key ids whose signature verified.
    pub valid: BTreeSet<String>,
    /// Signatures by a trusted key that did not verify (tampering or corruption).
    pub invalid: usize,
    /// Key ids that signed but are not trusted.
    pub unknown: BTreeSet<String>,
}

fn decode_base64(text: &str) -> Result<Vec<u8>, base64::DecodeError> {
    use base64::engine::general_purpose::{STANDARD_NO_PAD, URL_SAFE, URL_SAFE_NO_PAD};
    STANDARD
        .decode(text)
        .or_else(|_| STANDARD_NO_PAD.decode(text))
        .or_else(|_| URL_SAFE.decode(text))
        .or_else(|_| URL_SAFE_NO_PAD.decode(text))
}

#[cfg(test)]
mod tests {
    use rand::rngs::OsRng;

    use super::*;

    fn trusted(keys: &[&SigningKey]) -> BTreeMap<String, VerifyingKey> {
        keys.iter()
            .map(|k| (keyid(&k.verifying_key()), k.verifying_key()))
            .collect()
    }

    #[test]
    fn pae_matches_the_dsse_specification_example() {
        // The worked example of the DSSE protocol document.
        let encoded = pae("http://example.com/HelloWorld", b"hello world");

        assert_eq!(
            encoded,
            b"DSSEv1 29 http://example.com/HelloWorld 11 hello world"
        );
    }

    #[test]
    fn a_signed_envelope_verifies_under_its_key() {
        let key = SigningKey::generate(&mut OsRng);

        let envelope = sign("t", b"{}", &[&key]);
        let tally = envelope.check_signatures(&trusted(&[&key]));

        assert_eq!(tally.valid.len(), 1);
        assert_eq!(tally.invalid, 0);
    }

    #[test]
    fn a_changed_payload_type_breaks_the_signature() {
        let key = SigningKey::generate(&mut OsRng);
        let mut envelope = sign("a", b"{}", &[&key]);

        envelope.payload_type = "b".into();
        let tally = envelope.check_signatures(&trusted(&[&key]));

        assert!(tally.valid.is_empty());
        assert_eq!(tally.invalid, 1);
    }

    #[test]
    fn a_repeated_signature_counts_once() {
        let key = SigningKey::generate(&mut OsRng);
        let mut envelope = sign("t", b"{}", &[&key]);
        envelope.signatures.push(envelope.signatures[0].clone());

        let tally = envelope.check_signatures(&trusted(&[&key]));

        assert_eq!(tally.valid.len(), 1);
    }

    #[test]
    fn a_signature_by_an_untrusted_key_is_reported_as_unknown() {
        let key = SigningKey::generate(&mut OsRng);
        let other = SigningKey::generate(&mut OsRng);

        let tally = sign("t", b"{}", &[&other]).check_signatures(&trusted(&[&key]));

        assert_eq!(tally.unknown.len(), 1);
        assert!(tally.valid.is_empty());
    }
}
