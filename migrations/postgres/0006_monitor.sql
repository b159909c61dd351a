-- Monitoring of approved versions (issue 14): what the latest rescan found
-- against the approved pins, and the policy's verdict on it.
--   state 'ok'        the rescan matched the approved pins;
--   state 'changed'   pinned capabilities changed (they left the allowlist,
--                     listed in `dropped`) or capabilities were added (never
--                     exposed until approved): waits for a re-approval;
--   state 'suspended' the change introduced a high or critical finding
--                     (reason 'drift') or the server was unreachable
--                     `failures` times in a row (reason 'unreachable').
-- `diff` (review::diff::Diff), `dropped` and `findings` are JSON.
CREATE TABLE monitor_state (
    version_id   TEXT PRIMARY KEY REFERENCES versions(id),
    state        TEXT NOT NULL CHECK (state IN ('ok', 'changed', 'suspended')),
    reason       TEXT,
    failures     BIGINT NOT NULL DEFAULT 0,
    last_error   TEXT,
    dropped      TEXT NOT NULL DEFAULT '[]',
    diff         TEXT,
    findings     TEXT NOT NULL DEFAULT '[]',
    checked_at   TEXT NOT NULL,
    changed_at   TEXT
);
CREATE INDEX monitor_state_state ON monitor_state (state);

-- Webhooks (DESIGN.md §5). The secret is kept to sign deliveries (HMAC) and
-- never returned. A deleted webhook keeps its delivery log.
CREATE TABLE webhooks (
    id          TEXT PRIMARY KEY,
    url         TEXT NOT NULL,
    secret      TEXT NOT NULL,
    events      TEXT NOT NULL,
    created_by  TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    deleted_at  TEXT
);

-- The outbox: one row per event and webhook, written in the event's
-- transaction, sent by the workers with retries (claimed like jobs).
CREATE TABLE webhook_deliveries (
    id              TEXT PRIMARY KEY,
    webhook_id      TEXT NOT NULL REFERENCES webhooks(id),
    event           TEXT NOT NULL,
    body            TEXT NOT NULL,
    state           TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
    attempts        BIGINT NOT NULL DEFAULT 0,
    next_attempt_at TEXT NOT NULL,
    lease_until     TEXT,
    locked_by       TEXT,
    last_status     BIGINT,
    last_error      TEXT,
    created_at      TEXT NOT NULL,
    delivered_at    TEXT
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (state, next_attempt_at);
CREATE INDEX webhook_deliveries_hook ON webhook_deliveries (webhook_id, created_at);

-- When each approved version is rescanned next. Rows are claimed like jobs
-- (FOR UPDATE SKIP LOCKED on PostgreSQL) and pushed forward in the same
-- transaction that queues the monitor job: one rescan per version per pass,
-- whatever the number of workers.
CREATE TABLE rescan_schedule (
    version_id  TEXT PRIMARY KEY REFERENCES versions(id),
    next_run_at TEXT NOT NULL,
    last_run_at TEXT
);
CREATE INDEX rescan_schedule_due ON rescan_schedule (next_run_at);

-- Per-server rescan interval (overrides the default).
CREATE TABLE monitor_intervals (
    server_id     TEXT PRIMARY KEY REFERENCES servers(id),
    interval_secs BIGINT NOT NULL CHECK (interval_secs > 0)
);
