//! The gateway's allowlist, fetched and verified exactly as `gatehouse verify`
//! does: `allowlist::fetch` brings the envelope (with `If-None-Match`) and the
//! newer roots, `allowlist::verify_allowlist` walks the roots, checks the
//! threshold, the payload type, the audience, expiry and rollback against the
//! state file. Fail closed: a refusal exposes nothing; a registry that cannot
//! be reached leaves the last verified document in force only as long as it
//! verifies (it is re-verified, so it stops counting the moment it expires).

use std::path::PathBuf;
use std::sync::Arc;

use chrono::Utc;
use tokio::sync::Mutex;

use crate::allowlist::fetch::{self, FetchError};
use crate::allowlist::{ClientState, VerifiedAllowlist, VerifyError, verify_allowlist};

/// Why no allowlist is in force.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum TrustError {
    /// The registry could not be reached and nothing verified is cached.
    #[error("the allowlist could not be fetched: {0}")]
    Fetch(#[from] FetchError),
    /// A document was refused (tampered, expired, rolled back, …).
    #[error("the allowlist was refused ({code}): {error}", code = .0.code(), error = .0)]
    Refused(#[from] VerifyError),
    /// The state file could not be read or written.
    #[error("state file: {0}")]
    State(String),
}

/// The client state shared by every audience of one gateway, and where it is saved.
pub struct SharedState {
    state: Mutex<ClientState>,
    path: Option<PathBuf>,
}

impl SharedState {
    /// Loads the state file (a missing file is a first use); without a path
    /// the state lives in memory and rollbacks are caught only within this run.
    pub fn load(path: Option<PathBuf>) -> Result<Arc<SharedState>, TrustError> {
        let state = match &path {
            Some(path) => ClientState::load(path).map_err(|e| TrustError::State(e.to_string()))?,
            None => ClientState::default(),
        };
        Ok(Arc::new(SharedState {
            state: Mutex::new(state),
            path,
        }))
    }
}

/// One audience's allowlist source.
pub struct Trust {
    client: reqwest::Client,
    url: String,
    pinned_root: Vec<u8>,
    audience: String,
    state: Arc<SharedState>,
    etag: Option<String>,
    envelope: Option<Vec<u8>>,
}

impl Trust {
    /// A source for `audience` at the registry `registry` (its base URL), trusting `pinned_root`.
    pub fn new(
        registry: &str,
        pinned_root: Vec<u8>,
        audience: &str,
        state: Arc<SharedState>,
    ) -> Result<Trust, TrustError> {
        let client = fetch::client(concat!("gatehouse-gateway/", env!("CARGO_PKG_VERSION")))?;
        let url = format!(
            "{}/v1/allowlist?audience={}",
            registry.trim_end_matches('/'),
            audience
        );
        Ok(Trust {
            client,
            url,
            pinned_root,
            audience: audience.to_string(),
            state,
            etag: None,
            envelope: None,
        })
    }

    /// Fetches (revalidating with the last ETag) and verifies the allowlist.
    /// `Err` means nothing may be exposed for this audience.
    pub async fn refresh(&mut self) -> Result<VerifiedAllowlist, TrustError> {
        let start = {
            let state = self.state.state.lock().await;
            state.start_root(&self.pinned_root)?.version()
        };
        let fetched =
            fetch::fetch_documents(&self.client, &self.url, start, self.etag.as_deref()).await;
        let (envelope, roots) = match fetched {
            Ok(documents) => {
                if let Some(envelope) = documents.envelope {
                    self.envelope = Some(envelope);
                }
                self.etag = documents.etag;
                (self.envelope.clone(), documents.roots)
            }
            // The registry is down: the cached document still counts while it
            // verifies (until it expires), and not a moment longer.
            Err(error) => match &self.envelope {
                Some(envelope) => {
                    tracing::warn!(audience = %self.audience, error = %error, "allowlist refresh failed; re-verifying the cached document");
                    (Some(envelope.clone()), Vec::new())
                }
                None => return Err(error.into()),
            },
        };
        let Some(envelope) = envelope else {
            // A 304 to an ETag we never stored a body for: fetch it whole next time.
            self.etag = None;
            return Err(TrustError::Fetch(FetchError {
                url: self.url.clone(),
                reason: "304 without a cached document".into(),
            }));
        };
        let mut state = self.state.state.lock().await;
        let mut next = state.clone();
        let verified = verify_allowlist(
            &self.pinned_root,
            &roots,
            &envelope,
            &self.audience,
            &mut next,
            Utc::now(),
        );
        let verified = match verified {
            Ok(verified) => verified,
            Err(error) => {
                // A refused document is not kept: the next fetch asks for it whole.
                self.envelope = None;
                self.etag = None;
                return Err(error.into());
            }
        };
        if next != *state {
            if let Some(path) = &self.state.path {
                next.save(path)
                    .map_err(|e| TrustError::State(format!("{}: {e}", path.display())))?;
            }
            *state = next;
        }
        Ok(verified)
    }
}
