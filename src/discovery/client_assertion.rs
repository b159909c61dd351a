//! `private_key_jwt` client authentication: a signed JWT client assertion.
//!
//! RFC 7523 §2.2 and §3 (JWT bearer client authentication), as OpenID Connect
//! Core §9 names it `private_key_jwt`: the token request carries
//! `client_assertion_type=urn:ietf:params:oauth:client-assertion-type:jwt-bearer`
//! and `client_assertion`, a compact JWS (RFC 7515) whose claims are
//!
//! - `iss` and `sub`: the client id;
//! - `aud`: the authorisation server's issuer identifier, one string. RFC 7523
//!   allowed the token endpoint URL too, but an audience that is not the
//!   issuer let one authorisation server replay an assertion at another; the
//!   update of RFC 7523 (draft-ietf-oauth-rfc7523bis) and the MCP conformance
//!   runner's `auth/client-credentials-jwt` scenario both take the issuer;
//! - `jti` (random, 128 bits), `iat`, and `exp` one minute later: an assertion
//!   is good for one request.
//!
//! The key is a PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`). Its type picks the
//! algorithm: P-256 → `ES256` (what the conformance runner and most
//! authorisation servers use), P-384 → `ES384`, Ed25519 → `EdDSA`, RSA →
//! `RS256`. Signing uses `ring`, already in the tree through rustls.
//!
//! The key never appears in an error message or a log line.

use base64::Engine;
use ring::rand::{SecureRandom, SystemRandom};
use ring::signature::{
    ECDSA_P256_SHA256_FIXED_SIGNING, ECDSA_P384_SHA384_FIXED_SIGNING, EcdsaKeyPair, Ed25519KeyPair,
    RSA_PKCS1_SHA256, RsaKeyPair,
};
use serde_json::json;

/// The `client_assertion_type` of RFC 7523 §2.2.
pub(crate) const ASSERTION_TYPE: &str = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";

/// How long an assertion is valid.
const LIFETIME_SECS: i64 = 60;

/// A parsed signing key.
enum Key {
    Ecdsa(EcdsaKeyPair, &'static str),
    Ed25519(Ed25519KeyPair),
    Rsa(RsaKeyPair),
}

impl Key {
    /// The JWS `alg` this key signs with (RFC 7518 §3.1, RFC 8037 §3.1).
    fn alg(&self) -> &'static str {
        match self {
            Key::Ecdsa(_, alg) => alg,
            Key::Ed25519(_) => "EdDSA",
            Key::Rsa(_) => "RS256",
        }
    }

    fn sign(&self, message: &[u8], rng: &SystemRandom) -> Result<Vec<u8>, String> {
        let failed = |_| "signing the client assertion failed".to_string();
        match self {
            Key::Ecdsa(key, _) => key
                .sign(rng, message)
                .map(|s| s.as_ref().to_vec())
                .map_err(failed),
            Key::Ed25519(key) => Ok(key.sign(message).as_ref().to_vec()),
            Key::Rsa(key) => {
                let mut signature = vec![0; key.public().modulus_len()];
                key.sign(&RSA_PKCS1_SHA256, rng, message, &mut signature)
                    .map_err(failed)?;
                Ok(signature)
            }
        }
    }
}

/// The JWS algorithm of a PKCS#8 PEM private key, or why it cannot be used.
/// `gatehouse scan --client-key` and the credentials API check keys with it
/// before anything is sent or stored.
pub fn key_algorithm(pem: &str) -> Result<&'static str, String> {
    parse_key(pem, &SystemRandom::new()).map(|k| k.alg())
}

/// A signed client assertion for `client_id` addressed to `issuer`; `allowed`
/// is the server's `token_endpoint_auth_signing_alg_values_supported` (empty:
/// not said, so any).
pub(crate) fn sign(
    pem: &str,
    client_id: &str,
    issuer: &str,
    allowed: &[String],
) -> Result<String, String> {
    let rng = SystemRandom::new();
    let key = parse_key(pem, &rng)?;
    let alg = key.alg();
    if !allowed.is_empty() && !allowed.iter().any(|a| a == alg) {
        return Err(format!(
            "the authorization server accepts client assertions signed with {} only, and the key signs {alg}",
            allowed
                .iter()
                .take(8)
                .map(|a| format!("{:?}", a.chars().take(16).collect::<String>()))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let mut jti = [0u8; 16];
    rng.fill(&mut jti)
        .map_err(|_| "no random bytes for the assertion id".to_string())?;
    let now = chrono::Utc::now().timestamp();
    let header = json!({"alg": alg, "typ": "JWT"});
    let claims = json!({
        "iss": client_id,
        "sub": client_id,
        "aud": issuer,
        "jti": hex::encode(jti),
        "iat": now,
        "exp": now + LIFETIME_SECS,
    });
    let b64 = |bytes: &[u8]| base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes);
    let signing_input = format!(
        "{}.{}",
        b64(header.to_string().as_bytes()),
        b64(claims.to_string().as_bytes())
    );
    let signature = key.sign(signing_input.as_bytes(), &rng)?;
    Ok(format!("{signing_input}.{}", b64(&signature)))
}

/// Reads a PKCS#8 PEM and tries each key type ring knows.
fn parse_key(pem: &str, rng: &SystemRandom) -> Result<Key, String> {
    let der = pem_body(pem)?;
    if let Ok(key) = EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, &der, rng) {
        return Ok(Key::Ecdsa(key, "ES256"));
    }
    if let Ok(key) = EcdsaKeyPair::from_pkcs8(&ECDSA_P384_SHA384_FIXED_SIGNING, &der, rng) {
        return Ok(Key::Ecdsa(key, "ES384"));
    }
    if let Ok(key) = Ed25519KeyPair::from_pkcs8_maybe_unchecked(&der) {
        return Ok(Key::Ed25519(key));
    }
    if let Ok(key) = RsaKeyPair::from_pkcs8(&der) {
        return Ok(Key::Rsa(key));
    }
    Err("the private key is not a PKCS#8 P-256, P-384, Ed25519 or RSA key".into())
}

/// The DER inside `-----BEGIN PRIVATE KEY-----` … `-----END PRIVATE KEY-----`.
fn pem_body(pem: &str) -> Result<Vec<u8>, String> {
    const BEGIN: &str = "-----BEGIN PRIVATE KEY-----";
    const END: &str = "-----END PRIVATE KEY-----";
    let Some(start) = pem.find(BEGIN) else {
        let hint = if pem.contains("-----BEGIN EC PRIVATE KEY-----")
            || pem.contains("-----BEGIN RSA PRIVATE KEY-----")
        {
            " (convert it with `openssl pkcs8 -topk8 -nocrypt`)"
        } else {
            ""
        };
        return Err(format!(
            "the private key is not a PKCS#8 PEM (BEGIN PRIVATE KEY){hint}"
        ));
    };
    let rest = &pem[start + BEGIN.len()..];
    let end = rest
        .find(END)
        .ok_or("the private key PEM has no END line")?;
    let text: String = rest[..end]
        .chars()
        .filter(|c| !c.is_ascii_whitespace())
        .collect();
    base64::engine::general_purpose::STANDARD
        .decode(text)
        .map_err(|_| "the private key PEM is not valid Base64".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ring::signature::{ECDSA_P256_SHA256_FIXED, KeyPair, UnparsedPublicKey};

    fn p256_pem() -> (String, Vec<u8>) {
        let rng = SystemRandom::new();
        let pkcs8 = EcdsaKeyPair::generate_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, &rng).unwrap();
        let key = EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, pkcs8.as_ref(), &rng)
            .unwrap();
        let body = base64::engine::general_purpose::STANDARD.encode(pkcs8.as_ref());
        (
            format!("-----BEGIN PRIVATE KEY-----\n{body}\n-----END PRIVATE KEY-----\n"),
            key.public_key().as_ref().to_vec(),
        )
    }

    #[test]
    fn an_es256_assertion_verifies_and_names_the_client_and_the_issuer() {
        let (pem, public) = p256_pem();
        let jwt = sign(&pem, "client-1", "https://as.example", &[]).unwrap();
        let parts: Vec<&str> = jwt.split('.').collect();
        assert_eq!(parts.len(), 3);
        let decode = |s: &str| {
            base64::engine::general_purpose::URL_SAFE_NO_PAD
                .decode(s)
                .unwrap()
        };
        let header: serde_json::Value = serde_json::from_slice(&decode(parts[0])).unwrap();
        let claims: serde_json::Value = serde_json::from_slice(&decode(parts[1])).unwrap();
        assert_eq!(header["alg"], "ES256");
        assert_eq!(claims["iss"], "client-1");
        assert_eq!(claims["sub"], "client-1");
        assert_eq!(claims["aud"], "https://as.example");
        assert_eq!(claims["jti"].as_str().unwrap().len(), 32);
        assert_eq!(
            claims["exp"].as_i64().unwrap() - claims["iat"].as_i64().unwrap(),
            LIFETIME_SECS
        );
        let signed = format!("{}.{}", parts[0], parts[1]);
        UnparsedPublicKey::new(&ECDSA_P256_SHA256_FIXED, public)
            .verify(signed.as_bytes(), &decode(parts[2]))
            .expect("the signature verifies with the public key");
    }

    #[test]
    fn a_key_the_server_does_not_accept_is_refused_before_signing() {
        let (pem, _) = p256_pem();
        let err = sign(&pem, "c", "https://as.example", &["RS256".into()]).unwrap_err();
        assert!(err.contains("RS256") && err.contains("ES256"), "{err}");
    }

    #[test]
    fn a_bad_key_is_a_clear_error_that_does_not_repeat_the_key() {
        let err = key_algorithm(
            "-----BEGIN PRIVATE KEY-----\nc2VjcmV0LWJ5dGVz\n-----END PRIVATE KEY-----",
        )
        .unwrap_err();
        assert!(!err.contains("c2VjcmV0"), "{err}");
        let sec1 =
            key_algorithm("-----BEGIN EC PRIVATE KEY-----\nAAAA\n-----END EC PRIVATE KEY-----")
                .unwrap_err();
        assert!(sec1.contains("openssl pkcs8"), "{sec1}");
        assert_eq!(key_algorithm(&p256_pem().0), Ok("ES256"));
    }

    #[test]
    fn an_ed25519_key_signs_eddsa_assertions() {
        let pkcs8 = Ed25519KeyPair::generate_pkcs8(&SystemRandom::new()).unwrap();
        let body = base64::engine::general_purpose::STANDARD.encode(pkcs8.as_ref());
        let pem = format!("-----BEGIN PRIVATE KEY-----\n{body}\n-----END PRIVATE KEY-----");
        assert_eq!(key_algorithm(&pem), Ok("EdDSA"));
        let jwt = sign(&pem, "c", "https://as.example", &["EdDSA".into()]).unwrap();
        let public = Ed25519KeyPair::from_pkcs8(pkcs8.as_ref()).unwrap();
        let (signed, signature) = jwt.rsplit_once('.').unwrap();
        let signature = base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(signature)
            .unwrap();
        UnparsedPublicKey::new(&ring::signature::ED25519, public.public_key().as_ref())
            .verify(signed.as_bytes(), &signature)
            .expect("the EdDSA signature verifies");
    }
}
