//! Webhooks (DESIGN.md §5): registration rules and delivery.
//!
//! Events are written to the outbox by `storage::webhooks::emit` in the
//! transaction of what they report. Workers send them: a JSON POST of the
//! stored body with `X-Gatehouse-Event`, `X-Gatehouse-Delivery` (the delivery
//! id, also `id` in the body: the same on every retry, so a receiver
//! recognises a replay), `X-Gatehouse-Timestamp` (when the event happened,
//! also `createdAt` in the body) and `X-Gatehouse-Signature: sha256=<hex
//! HMAC-SHA256 of the body>` keyed with the webhook's secret. A failure (no
//! answer, or a status other than 2xx) is retried with exponential backoff,
//! up to [`MAX_ATTEMPTS`]. The URL obeys the scanner's network policy both
//! when registered and at every connection (a resolver that refuses
//! forbidden addresses; no redirects).

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use hmac::{Hmac, Mac};
use sha2::Sha256;
use tokio::sync::watch;

use crate::discovery::NetPolicy;
use crate::registry::server_json::FieldError;
use crate::storage::Db;
use crate::storage::audit::{self, AuditEntry};
use crate::storage::webhooks::{self as store, WebhookRow};

/// The events a webhook may subscribe to.
pub const EVENTS: [&str; 10] = [
    "submitted",
    "scanned",
    "approved",
    "rejected",
    "changed",
    "suspended",
    "reinstated",
    "revoked",
    "key_rotated",
    // A verified owner took over a remote URL the receiving publisher held unverified (issue 15).
    "taken_over",
];

/// Attempts before a delivery is given up.
pub const MAX_ATTEMPTS: i64 = 10;
/// Longest wait between two attempts.
const MAX_BACKOFF: Duration = Duration::from_secs(3600);
const TIMEOUT: Duration = Duration::from_secs(10);

/// Body of `POST /api/v1/admin/webhooks`.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewWebhook {
    /// Where to POST.
    #[serde(default)]
    pub url: String,
    /// HMAC key (16 to 256 characters).
    #[serde(default)]
    pub secret: String,
    /// Event names or `["*"]`.
    #[serde(default)]
    pub events: Vec<String>,
}

/// Why a webhook was refused.
#[derive(Debug, thiserror::Error)]
pub enum WebhookError {
    /// Bad input.
    #[error("invalid webhook")]
    Invalid(Vec<FieldError>),
    /// Database failure.
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

/// The HMAC-SHA256 of `body` under `secret`, as the signature header carries it.
pub fn signature(secret: &str, body: &[u8]) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("HMAC takes any key");
    mac.update(body);
    format!("sha256={}", hex::encode(mac.finalize().into_bytes()))
}

/// Checks and stores an admin's webhook (audited); the secret is never returned.
pub async fn create(
    db: &Db,
    net: &NetPolicy,
    actor: &str,
    req: NewWebhook,
) -> Result<WebhookRow, WebhookError> {
    create_for(db, net, actor, None, req).await
}

/// Checks and stores a webhook, an admin's (`publisher_id` `None`: it hears
/// every event it subscribes to) or a publisher's (it hears the events about
/// that publisher: `taken_over`), audited; the secret is never returned.
pub async fn create_for(
    db: &Db,
    net: &NetPolicy,
    actor: &str,
    publisher_id: Option<&str>,
    req: NewWebhook,
) -> Result<WebhookRow, WebhookError> {
    let mut errors = Vec::new();
    if let Err(detail) = check_url(&req.url, net) {
        errors.push(field("/url", detail));
    }
    let secret_len = req.secret.chars().count();
    if !(16..=256).contains(&secret_len) {
        errors.push(field(
            "/secret",
            "a secret of 16 to 256 characters is required".into(),
        ));
    }
    let mut events = req.events.clone();
    events.sort();
    events.dedup();
    if events.is_empty() {
        errors.push(field("/events", "name at least one event, or \"*\"".into()));
    }
    for (i, e) in req.events.iter().enumerate() {
        if e != "*" && !EVENTS.contains(&e.as_str()) {
            errors.push(field(
                &format!("/events/{i}"),
                format!("unknown event; use \"*\" or one of {}", EVENTS.join(", ")),
            ));
        }
    }
    if !errors.is_empty() {
        return Err(WebhookError::Invalid(errors));
    }
    let mut tx = db.begin().await?;
    let row = store::insert(&mut tx, &req.url, &req.secret, &events, actor, publisher_id).await?;
    audit::append(
        &mut tx,
        AuditEntry {
            actor,
            action: "webhook.create",
            subject: &format!("webhook:{}", row.id),
            version_id: None,
            detail: serde_json::json!({"url": row.url, "events": row.events}),
        },
    )
    .await?;
    tx.commit().await?;
    Ok(row)
}

/// Deletes a webhook (audited); false when there was none.
pub async fn delete(db: &Db, actor: &str, id: &str) -> Result<bool, sqlx::Error> {
    let mut tx = db.begin().await?;
    let done = store::delete(&mut tx, id).await?;
    if done {
        audit::append(
            &mut tx,
            AuditEntry {
                actor,
                action: "webhook.delete",
                subject: &format!("webhook:{id}"),
                version_id: None,
                detail: serde_json::json!({}),
            },
        )
        .await?;
    }
    tx.commit().await?;
    Ok(done)
}

fn field(pointer: &str, detail: String) -> FieldError {
    FieldError {
        pointer: pointer.into(),
        detail,
    }
}

/// An `http(s)` URL without credentials whose host the network policy allows
/// (a literal address is judged here; names at every connection).
fn check_url(url: &str, net: &NetPolicy) -> Result<reqwest::Url, String> {
    if url.len() > 2000 {
        return Err("at most 2000 characters".into());
    }
    let parsed = reqwest::Url::parse(url).map_err(|e| format!("not a URL: {e}"))?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err("the URL must be http or https".into());
    }
    if !parsed.username().is_empty() || parsed.password().is_some() {
        return Err("the URL must not carry credentials".into());
    }
    let host = parsed.host_str().ok_or("the URL has no host")?;
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    let Ok(host) = bare.parse::<IpAddr>() else {
        if !net.is_host_allowed(bare) {
            return Err("the network policy refuses this host".into());
        }
        return Ok(parsed);
    };
    if !net.is_allowed(host) {
        return Err("the network policy refuses this address".into());
    }
    Ok(parsed)
}

/// A resolver that only returns addresses the network policy allows.
struct GuardedResolver(NetPolicy);

impl reqwest::dns::Resolve for GuardedResolver {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let policy = self.0.clone();
        Box::pin(async move {
            let host = name.as_str().to_string();
            if !policy.is_host_allowed(&host) {
                return Err("the network policy refuses this host".into());
            }
            let found: Vec<SocketAddr> = tokio::net::lookup_host((host.as_str(), 0))
                .await?
                .filter(|a| policy.is_allowed(a.ip()))
                .collect();
            if found.is_empty() {
                return Err("no address of this host is allowed by the network policy".into());
            }
            Ok(Box::new(found.into_iter()) as reqwest::dns::Addrs)
        })
    }
}

/// The HTTP client deliveries go through.
pub fn client(net: &NetPolicy) -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(TIMEOUT)
        .redirect(reqwest::redirect::Policy::none())
        .dns_resolver(Arc::new(GuardedResolver(net.clone())))
        .user_agent(concat!("gatehouse-webhooks/", env!("CARGO_PKG_VERSION")))
        .build()
        .expect("a TLS backend is compiled in")
}

/// What one call of [`deliver_next`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Delivery {
    /// Nothing was due.
    Idle,
    /// Sent and acknowledged with a 2xx.
    Delivered,
    /// The attempt failed; retried later.
    Retrying,
    /// The attempt failed and was the last.
    Failed,
}

/// Sends the next due delivery, if any.
pub async fn deliver_next(
    db: &Db,
    client: &reqwest::Client,
    net: &NetPolicy,
    worker: &str,
    backoff_base: Duration,
) -> anyhow::Result<Delivery> {
    let lease = chrono::Duration::from_std(TIMEOUT * 3)?;
    let Some(out) = store::claim(db, worker, lease).await? else {
        return Ok(Delivery::Idle);
    };
    let (status, error) = match check_url(&out.url, net) {
        Err(e) => (None, Some(e)),
        Ok(url) => {
            let sent = client
                .post(url)
                .header(reqwest::header::CONTENT_TYPE, "application/json")
                .header("X-Gatehouse-Event", &out.event)
                .header("X-Gatehouse-Delivery", &out.id)
                .header("X-Gatehouse-Timestamp", &out.created_at)
                .header(
                    "X-Gatehouse-Signature",
                    signature(&out.secret, out.body.as_bytes()),
                )
                .body(out.body.clone())
                .send()
                .await;
            match sent {
                Ok(r) if r.status().is_success() => (Some(i64::from(r.status().as_u16())), None),
                Ok(r) => (
                    Some(i64::from(r.status().as_u16())),
                    Some(format!("the receiver answered {}", r.status())),
                ),
                Err(e) => (None, Some(format!("not delivered: {e}"))),
            }
        }
    };
    let delivered = error.is_none();
    let retry_at = (!delivered && out.attempts < MAX_ATTEMPTS).then(|| {
        let wait = backoff_base
            .saturating_mul(2u32.saturating_pow((out.attempts - 1).clamp(0, 20) as u32))
            .min(MAX_BACKOFF);
        chrono::Utc::now() + chrono::Duration::from_std(wait).unwrap_or_default()
    });
    store::record_attempt(
        db,
        &out.id,
        worker,
        status,
        error.as_deref(),
        delivered,
        retry_at,
    )
    .await?;
    Ok(match (delivered, retry_at) {
        (true, _) => Delivery::Delivered,
        (false, Some(_)) => {
            tracing::warn!(delivery = %out.id, attempt = out.attempts, error = ?error, "webhook delivery failed; will retry");
            Delivery::Retrying
        }
        (false, None) => {
            tracing::error!(delivery = %out.id, error = ?error, "webhook delivery given up");
            Delivery::Failed
        }
    })
}

/// Sends due deliveries until `shutdown` turns true (one loop per worker process).
pub async fn run_deliveries(
    db: Db,
    net: NetPolicy,
    worker: String,
    backoff_base: Duration,
    poll: Duration,
    mut shutdown: watch::Receiver<bool>,
) {
    let client = client(&net);
    loop {
        if *shutdown.borrow() {
            return;
        }
        match deliver_next(&db, &client, &net, &worker, backoff_base).await {
            Ok(Delivery::Idle) => {}
            Ok(_) => continue,
            Err(e) => tracing::error!(error = %format!("{e:#}"), "webhook delivery loop error"),
        }
        tokio::select! {
            _ = tokio::time::sleep(poll) => {}
            _ = shutdown.changed() => {}
        }
    }
}
