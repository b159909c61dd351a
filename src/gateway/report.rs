//! Telling the registry about drift: `POST /api/v1/gateway/drift` with the
//! `--report-token`, so the monitor rescans the server at once instead of at
//! its next scheduled rescan. Reports are sent in the background, at most one
//! at a time, and a failure is logged, never retried in a loop: the gateway
//! has already hidden the capability, the report only speeds up the registry.

use serde_json::json;
use tokio::sync::mpsc;

use super::catalog::Drift;

/// Most reports waiting to be sent; more are dropped (and logged).
const QUEUE: usize = 256;

/// Sends drift reports to the registry.
pub struct Reporter {
    queue: mpsc::Sender<Drift>,
}

impl Reporter {
    /// A reporter for the registry at `registry` (base URL) using `token`.
    pub fn new(registry: &str, token: &str) -> Reporter {
        let (queue, mut pending) = mpsc::channel::<Drift>(QUEUE);
        let url = format!("{}/api/v1/gateway/drift", registry.trim_end_matches('/'));
        let token = token.to_string();
        tokio::spawn(async move {
            let client = match reqwest::Client::builder()
                .timeout(std::time::Duration::from_secs(30))
                .user_agent(concat!("gatehouse-gateway/", env!("CARGO_PKG_VERSION")))
                .build()
            {
                Ok(client) => client,
                Err(e) => {
                    tracing::error!(error = %e, "drift reports disabled: no HTTP client");
                    return;
                }
            };
            while let Some(drift) = pending.recv().await {
                let body = json!({
                    "server": drift.server,
                    "version": drift.version,
                    "kind": drift.kind,
                    "name": drift.name,
                    "expected": drift.expected,
                    "found": drift.found,
                });
                let sent = client
                    .post(&url)
                    .bearer_auth(&token)
                    .json(&body)
                    .send()
                    .await;
                match sent {
                    Ok(response) if response.status().is_success() => {
                        tracing::info!(server = %drift.server, version = %drift.version, name = %drift.name, "drift reported to the registry");
                    }
                    Ok(response) => {
                        tracing::warn!(server = %drift.server, status = response.status().as_u16(), "the registry refused the drift report");
                    }
                    Err(e) => {
                        tracing::warn!(server = %drift.server, error = %e, "the drift report could not be sent");
                    }
                }
            }
        });
        Reporter { queue }
    }

    /// Queues a report.
    pub fn report(&self, drift: Drift) {
        if self.queue.try_send(drift).is_err() {
            tracing::warn!("drift report queue full: a report was dropped");
        }
    }
}
