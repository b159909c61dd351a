//! Shared fixtures of the allowlist integration tests: a registry key
//! store in a temporary directory, approved servers, signed documents on disk,
//! and a way to run the real `gatehouse` binary. A module of the `allowlist`
//! test binary (`use crate::support`), also mounted by `tests/api` for the
//! first-run tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use chrono::{DateTime, Duration, Utc};
use ed25519_dalek::SigningKey;
use gatehouse::allowlist::{
    ALLOWLIST_PAYLOAD_TYPE, AllowlistPayload, ApprovedServer, Envelope, KeySources, KeyStore, Risk,
    build_payload, sign,
};
use gatehouse::snapshot::Tool;
use serde_json::{Value, json};

/// A registry's key store plus a scratch directory for client files.
pub struct Registry {
    /// Holds every file of the test; removed on drop.
    pub tmp: tempfile::TempDir,
    /// The registry's keys and roots (`<tmp>/data/keys`).
    pub store: KeyStore,
}

impl Default for Registry {
    fn default() -> Registry {
        Registry::new()
    }
}

impl Registry {
    /// A fresh registry: new keys, root v1.
    pub fn new() -> Registry {
        let tmp = tempfile::tempdir().expect("a temporary directory");
        let store = KeyStore::open_with(
            &tmp.path().join("data/keys"),
            KeySources::default(),
            Utc::now(),
        )
        .expect("the key store opens");
        Registry { tmp, store }
    }

    /// `<tmp>/data`, the `--data-dir` of the registry.
    pub fn data_dir(&self) -> PathBuf {
        self.tmp.path().join("data")
    }

    /// `<tmp>/data/keys/roots`, every published root version.
    pub fn roots_dir(&self) -> PathBuf {
        self.data_dir().join("keys/roots")
    }

    /// Writes `bytes` to `<tmp>/<name>` and returns the path.
    pub fn write(&self, name: &str, bytes: &[u8]) -> PathBuf {
        let path = self.tmp.path().join(name);
        std::fs::write(&path, bytes).expect("the file is written");
        path
    }

    /// Writes root version 1 where a client would pin it.
    pub fn pin_root_v1(&self) -> PathBuf {
        let bytes = self
            .store
            .root_document(1)
            .unwrap()
            .expect("root v1 exists");
        self.write("pinned-root.json", &bytes)
    }

    /// A signed allowlist of [`weather`] for `audience`, `version`, expiring at `expires`.
    pub fn allowlist(&self, version: u64, audience: &str, expires: DateTime<Utc>) -> Vec<u8> {
        self.store
            .sign_allowlist(&payload(version, audience, expires))
            .to_bytes()
    }

    /// A signed, current allowlist for `default`.
    pub fn current_allowlist(&self, version: u64) -> Vec<u8> {
        self.allowlist(version, "default", Utc::now() + Duration::days(7))
    }
}

/// The payload of a one-server allowlist.
pub fn payload(version: u64, audience: &str, expires: DateTime<Utc>) -> AllowlistPayload {
    let now = Utc::now();
    build_payload(
        "https://gatehouse.test",
        audience,
        version,
        now,
        expires,
        &[weather()],
        &[],
    )
}

/// The approved tool of [`weather`], with JSON that tests JCS: unsorted keys,
/// a float written with a fraction, an exponent, non-ASCII text.
pub fn forecast_tool() -> Value {
    json!({
        "name": "get_forecast",
        "title": "Forecast ☀",
        "description": "Weather forecast for a city.\u{2028}Ünïcödé 😀",
        "inputSchema": {
            "type": "object",
            "properties": {
                "city": {"type": "string", "maxLength": 100},
                "days": {"type": "number", "minimum": 1.0, "maximum": 1e21, "multipleOf": 0.5}
            },
            "required": ["city"]
        },
        "annotations": {"readOnlyHint": true},
        "_meta": {"ignored": "by the pin"}
    })
}

/// An approved server with one remote, one npm package and one tool.
pub fn weather() -> ApprovedServer {
    let tool: Tool = serde_json::from_value(forecast_tool()).unwrap();
    ApprovedServer {
        name: "com.example/weather".into(),
        version: "1.4.2".into(),
        approved_at: Utc::now(),
        server_json: json!({
            "name": "com.example/weather",
            "version": "1.4.2",
            "remotes": [{"type": "streamable-http", "url": "https://mcp.example.com/mcp"}],
            "packages": [{"registryType": "npm", "identifier": "@example/weather", "version": "1.4.2"}]
        }),
        tools: vec![tool],
        prompts: vec![],
        resources: vec![],
        instructions: None,
        risk: Risk {
            max_severity: Some("low".into()),
            findings: 1,
        },
    }
}

/// Decodes an envelope, lets `edit` change its payload JSON, and re-encodes
/// it keeping the old signatures: what an attacker on the path can do.
pub fn tamper_payload(envelope: &[u8], edit: impl FnOnce(&mut Value)) -> Vec<u8> {
    let mut envelope = Envelope::from_slice(envelope).unwrap();
    let mut payload: Value = serde_json::from_slice(&envelope.payload_bytes().unwrap()).unwrap();
    edit(&mut payload);
    envelope.payload = STANDARD.encode(serde_json::to_vec(&payload).unwrap());
    envelope.to_bytes()
}

/// Flips one bit of the first signature.
pub fn tamper_signature(envelope: &[u8]) -> Vec<u8> {
    let mut envelope = Envelope::from_slice(envelope).unwrap();
    let mut sig = STANDARD.decode(&envelope.signatures[0].sig).unwrap();
    sig[10] ^= 0x01;
    envelope.signatures[0].sig = STANDARD.encode(sig);
    envelope.to_bytes()
}

/// Signs `payload` as an allowlist with any key (an attacker's, or the right one with another type).
pub fn sign_with(key: &SigningKey, payload_type: &str, payload: &Value) -> Vec<u8> {
    sign(payload_type, &serde_json::to_vec(payload).unwrap(), &[key]).to_bytes()
}

/// The allowlist payload type, re-exported for brevity.
pub const ALLOWLIST: &str = ALLOWLIST_PAYLOAD_TYPE;

/// Runs the real `gatehouse` binary with `args`, isolated from the caller's
/// environment (no key or data-dir variables leak in).
pub fn gatehouse(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gatehouse"))
        .args(args)
        .env_remove("GATEHOUSE_ROOT_KEY")
        .env_remove("GATEHOUSE_ALLOWLIST_KEY")
        .env_remove("GATEHOUSE_DATA_DIR")
        .env("RUST_LOG", "warn")
        .output()
        .expect("the gatehouse binary runs")
}

/// Runs `gatehouse verify --file FILE --root ROOT` plus `extra` arguments.
pub fn verify_file(file: &Path, root: &Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "verify",
        "--file",
        file.to_str().unwrap(),
        "--root",
        root.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    gatehouse(&args)
}

/// Standard error as text.
pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Standard output as text.
pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}
