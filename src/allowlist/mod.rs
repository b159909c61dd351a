//! Signed allowlist: pins, payload, DSSE envelopes, keys and the root of trust (pure).
//!
//! This module implements docs/DESIGN.md §7, the contract every MCP client relies on:
//!
//! - [`pin`]: the SHA-256 of the RFC 8785 (JCS) form of an approved tool, prompt
//!   or resource, so a client can tell a capability changed after approval.
//! - [`payload`]: the allowlist document built from approved versions.
//! - [`dsse`]: the DSSE envelope and its pre-authentication encoding (PAE),
//!   signed with Ed25519.
//! - [`root`]: root documents naming the keys and thresholds of each role, and
//!   the rule that links root `n` to root `n+1`.
//! - [`keystore`]: the server's keys on disk (or from the environment) and the
//!   published root versions.
//! - [`verify`]: the full client-side verification, used by `gatehouse verify`
//!   and the tests, and [`check`] which compares a live crawl with the pins.
//! - [`exports`]: Claude Code and GitHub Copilot managed settings of the
//!   same approvals, as far as those clients can enforce them.
//! - [`fetch`]: the allowlist and newer roots from a registry (with
//!   `If-None-Match`), for `gatehouse verify --url` and `gatehouse gateway`.
//!
//! It imports nothing of the application but [`crate::snapshot`], so the HTTP
//! layer, the CLI and the tests all share one implementation.

pub mod check;
pub mod dsse;
pub mod exports;
pub mod fetch;
mod files;
pub mod jcs;
pub mod keystore;
pub mod payload;
pub mod pin;
pub mod root;
pub mod text;
pub mod timestamp;
pub mod verify;

pub use check::{PinMismatch, PinReport, check_snapshot};
pub use dsse::{ALLOWLIST_PAYLOAD_TYPE, Envelope, ROOT_PAYLOAD_TYPE, Signature, keyid, pae, sign};
pub use keystore::{KeySources, KeyStore, KeyStoreError};
pub use payload::{
    AllowlistPayload, ApprovedServer, Revoked, Risk, ServerEntry, build_payload, sign_allowlist,
};
pub use pin::{pin_instructions, pin_prompt, pin_resource, pin_tool};
pub use root::{RootPayload, SignedRoot};
pub use verify::{ClientState, TrustedRoot, VerifiedAllowlist, VerifyError, verify_allowlist};

/// `spec_version` written into every document this build produces.
pub const SPEC_VERSION: &str = "1.0";
