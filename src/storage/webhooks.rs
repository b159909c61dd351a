//! Webhooks and their delivery outbox (issue 14, DESIGN.md §5).
//!
//! [`emit`] writes one delivery row per subscribed webhook inside the
//! transaction of the event it reports, so an event is delivered if and only
//! if it happened. Workers claim due deliveries with a lease (`FOR UPDATE
//! SKIP LOCKED` on PostgreSQL, as jobs are claimed) and record each attempt.

use chrono::{Duration, Utc};
use serde_json::{Value, json};
use sqlx::Row;
use sqlx::any::AnyRow;

use super::{Backend, Db, Tx, new_id, now, ts};

/// A registered webhook (the secret stays in the database and the signer).
#[derive(Debug, Clone)]
pub struct WebhookRow {
    /// Row id.
    pub id: String,
    /// Where deliveries are POSTed.
    pub url: String,
    /// Event names, or `["*"]`.
    pub events: Vec<String>,
    /// Who registered it.
    pub created_by: String,
    /// When.
    pub created_at: String,
}

fn webhook_from_row(r: &AnyRow) -> Result<WebhookRow, sqlx::Error> {
    Ok(WebhookRow {
        id: r.try_get("id")?,
        url: r.try_get("url")?,
        events: serde_json::from_str(&r.try_get::<String, _>("events")?).unwrap_or_default(),
        created_by: r.try_get("created_by")?,
        created_at: r.try_get("created_at")?,
    })
}

/// Registers a webhook.
pub async fn insert(
    tx: &mut Tx,
    url: &str,
    secret: &str,
    events: &[String],
    actor: &str,
    publisher_id: Option<&str>,
) -> Result<WebhookRow, sqlx::Error> {
    let row = WebhookRow {
        id: new_id(),
        url: url.into(),
        events: events.to_vec(),
        created_by: actor.into(),
        created_at: now(),
    };
    sqlx::query("INSERT INTO webhooks (id, url, secret, events, created_by, created_at, publisher_id) VALUES ($1, $2, $3, $4, $5, $6, $7)")
        .bind(&row.id)
        .bind(&row.url)
        .bind(secret)
        .bind(serde_json::to_string(&row.events).expect("names serialise"))
        .bind(&row.created_by)
        .bind(&row.created_at)
        .bind(publisher_id)
        .execute(tx.conn())
        .await?;
    Ok(row)
}

/// Webhooks not deleted, oldest first.
pub async fn list(db: &Db) -> Result<Vec<WebhookRow>, sqlx::Error> {
    let rows = sqlx::query("SELECT id, url, events, created_by, created_at FROM webhooks WHERE deleted_at IS NULL ORDER BY created_at, id")
        .fetch_all(db.pool())
        .await?;
    rows.iter().map(webhook_from_row).collect()
}

/// Whether a webhook exists (deleted ones included: their log stays readable).
pub async fn exists(db: &Db, id: &str) -> Result<bool, sqlx::Error> {
    Ok(sqlx::query("SELECT id FROM webhooks WHERE id = $1")
        .bind(id)
        .fetch_optional(db.pool())
        .await?
        .is_some())
}

/// Deletes a webhook (no further deliveries; pending ones are dropped). False when there was none.
pub async fn delete(tx: &mut Tx, id: &str) -> Result<bool, sqlx::Error> {
    let at = now();
    let done =
        sqlx::query("UPDATE webhooks SET deleted_at = $1 WHERE id = $2 AND deleted_at IS NULL")
            .bind(&at)
            .bind(id)
            .execute(tx.conn())
            .await?;
    sqlx::query("UPDATE webhook_deliveries SET state = 'failed', last_error = 'webhook deleted' WHERE webhook_id = $1 AND state = 'pending'")
        .bind(id)
        .execute(tx.conn())
        .await?;
    Ok(done.rows_affected() == 1)
}

/// Records `event` for every webhook subscribed to it, inside the event's
/// transaction. The body is `{"id", "event", "createdAt", "data"}`: `id` is
/// the delivery id (the same on every retry, so a replay is recognisable).
///
/// Only admins' webhooks hear it: a publisher's webhook hears the events of
/// [`emit_for_publisher`].
pub async fn emit(tx: &mut Tx, event: &str, data: Value) -> Result<(), sqlx::Error> {
    let hooks = sqlx::query(
        "SELECT id, events FROM webhooks WHERE deleted_at IS NULL AND publisher_id IS NULL",
    )
    .fetch_all(tx.conn())
    .await?;
    enqueue(tx, &hooks, event, &data).await
}

/// Records `event`, which concerns the publisher `publisher_id` (a takeover
/// of its remote), for the admins' webhooks subscribed to it and for that
/// publisher's own webhooks.
pub async fn emit_for_publisher(
    tx: &mut Tx,
    event: &str,
    data: Value,
    publisher_id: &str,
) -> Result<(), sqlx::Error> {
    let hooks = sqlx::query(
        "SELECT id, events FROM webhooks WHERE deleted_at IS NULL AND (publisher_id IS NULL OR publisher_id = $1)",
    )
    .bind(publisher_id)
    .fetch_all(tx.conn())
    .await?;
    enqueue(tx, &hooks, event, &data).await
}

async fn enqueue(
    tx: &mut Tx,
    hooks: &[sqlx::any::AnyRow],
    event: &str,
    data: &Value,
) -> Result<(), sqlx::Error> {
    let at = now();
    for hook in hooks {
        let events: Vec<String> =
            serde_json::from_str(&hook.try_get::<String, _>("events")?).unwrap_or_default();
        if !events.iter().any(|e| e == "*" || e == event) {
            continue;
        }
        let id = new_id();
        let body = json!({"id": id, "event": event, "createdAt": at, "data": data}).to_string();
        sqlx::query(
            "INSERT INTO webhook_deliveries (id, webhook_id, event, body, state, attempts, next_attempt_at, created_at)
             VALUES ($1, $2, $3, $4, 'pending', 0, $5, $5)",
        )
        .bind(&id)
        .bind(hook.try_get::<String, _>("id")?)
        .bind(event)
        .bind(&body)
        .bind(&at)
        .execute(tx.conn())
        .await?;
    }
    Ok(())
}

/// A claimed delivery, with what it takes to send it.
#[derive(Debug, Clone)]
pub struct Outgoing {
    /// Delivery id.
    pub id: String,
    /// Event name.
    pub event: String,
    /// The exact body to send and sign.
    pub body: String,
    /// When the event happened.
    pub created_at: String,
    /// Attempts so far, this one included.
    pub attempts: i64,
    /// Target URL.
    pub url: String,
    /// HMAC key.
    pub secret: String,
}

/// Claims the next due delivery for `worker`, leasing it for `lease`.
pub async fn claim(
    db: &Db,
    worker: &str,
    lease: Duration,
) -> Result<Option<Outgoing>, sqlx::Error> {
    let at = Utc::now();
    let lock = match db.backend() {
        Backend::Postgres => "FOR UPDATE SKIP LOCKED",
        Backend::Sqlite => "",
    };
    let sql = format!(
        "UPDATE webhook_deliveries SET lease_until = $1, locked_by = $2, attempts = attempts + 1
         WHERE id = (
             SELECT id FROM webhook_deliveries
             WHERE state = 'pending' AND next_attempt_at <= $3 AND (lease_until IS NULL OR lease_until < $3)
             ORDER BY next_attempt_at, created_at LIMIT 1 {lock}
         )
         RETURNING id, webhook_id, event, body, created_at, attempts"
    );
    let mut tx = db.begin().await?;
    let row = sqlx::query(&sql)
        .bind(ts(at + lease))
        .bind(worker)
        .bind(ts(at))
        .fetch_optional(tx.conn())
        .await?;
    let Some(row) = row else {
        tx.commit().await?;
        return Ok(None);
    };
    let hook = sqlx::query("SELECT url, secret FROM webhooks WHERE id = $1")
        .bind(row.try_get::<String, _>("webhook_id")?)
        .fetch_one(tx.conn())
        .await?;
    tx.commit().await?;
    Ok(Some(Outgoing {
        id: row.try_get("id")?,
        event: row.try_get("event")?,
        body: row.try_get("body")?,
        created_at: row.try_get("created_at")?,
        attempts: row.try_get("attempts")?,
        url: hook.try_get("url")?,
        secret: hook.try_get("secret")?,
    }))
}

/// Records an attempt: delivered, retried at `retry_at`, or (neither) failed for good.
pub async fn record_attempt(
    db: &Db,
    id: &str,
    worker: &str,
    status: Option<i64>,
    error: Option<&str>,
    delivered: bool,
    retry_at: Option<chrono::DateTime<Utc>>,
) -> Result<bool, sqlx::Error> {
    let (state, next) = match (delivered, retry_at) {
        (true, _) => ("delivered", None),
        (false, Some(at)) => ("pending", Some(ts(at))),
        (false, None) => ("failed", None),
    };
    let mut tx = db.begin().await?;
    let done = sqlx::query(
        "UPDATE webhook_deliveries SET state = $1, next_attempt_at = COALESCE($2, next_attempt_at),
           lease_until = NULL, locked_by = NULL, last_status = $3, last_error = $4,
           delivered_at = CASE WHEN $1 = 'delivered' THEN $5 ELSE delivered_at END
         WHERE id = $6 AND locked_by = $7 AND state = 'pending'",
    )
    .bind(state)
    .bind(next)
    .bind(status)
    .bind(error)
    .bind(now())
    .bind(id)
    .bind(worker)
    .execute(tx.conn())
    .await?;
    tx.commit().await?;
    Ok(done.rows_affected() == 1)
}

/// One row of a webhook's delivery log.
#[derive(Debug, Clone, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DeliveryRow {
    /// Delivery id (`X-Gatehouse-Delivery`).
    pub id: String,
    /// Event name.
    pub event: String,
    /// `pending`, `delivered` or `failed`.
    pub state: String,
    /// Attempts made.
    pub attempts: i64,
    /// HTTP status of the last attempt.
    pub last_status: Option<i64>,
    /// Why the last attempt failed.
    pub last_error: Option<String>,
    /// When the event happened.
    pub created_at: String,
    /// Next attempt (pending deliveries).
    pub next_attempt_at: String,
    /// When it was delivered.
    pub delivered_at: Option<String>,
}

/// A webhook's deliveries, newest first.
pub async fn deliveries(
    db: &Db,
    webhook_id: &str,
    limit: i64,
) -> Result<Vec<DeliveryRow>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT id, event, state, attempts, last_status, last_error, created_at, next_attempt_at, delivered_at
         FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY created_at DESC, id LIMIT $2",
    )
    .bind(webhook_id)
    .bind(limit)
    .fetch_all(db.pool())
    .await?;
    rows.iter()
        .map(|r| {
            Ok(DeliveryRow {
                id: r.try_get("id")?,
                event: r.try_get("event")?,
                state: r.try_get("state")?,
                attempts: r.try_get("attempts")?,
                last_status: r.try_get("last_status")?,
                last_error: r.try_get("last_error")?,
                created_at: r.try_get("created_at")?,
                next_attempt_at: r.try_get("next_attempt_at")?,
                delivered_at: r.try_get("delivered_at")?,
            })
        })
        .collect()
}
