-- Core registry schema (SQLite). Timestamps are RFC 3339 UTC text with a fixed
-- width (YYYY-MM-DDTHH:MM:SS.ffffffZ) so that text order is time order on both
-- backends. JSON documents are stored as text, verbatim where the contract says so.

CREATE TABLE publishers (
    id          TEXT PRIMARY KEY,
    name        TEXT NOT NULL UNIQUE,
    created_at  TEXT NOT NULL,
    disabled_at TEXT
);

CREATE TABLE publisher_namespaces (
    publisher_id TEXT NOT NULL REFERENCES publishers(id),
    prefix       TEXT NOT NULL,
    PRIMARY KEY (publisher_id, prefix)
);

CREATE TABLE users (
    id            TEXT PRIMARY KEY,
    name          TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    role          TEXT NOT NULL CHECK (role IN ('admin', 'reviewer')),
    created_at    TEXT NOT NULL,
    disabled_at   TEXT
);

-- API tokens are stored only as SHA-256 hashes; the token itself is shown once.
CREATE TABLE api_tokens (
    id           TEXT PRIMARY KEY,
    token_hash   TEXT NOT NULL UNIQUE,
    role         TEXT NOT NULL CHECK (role IN ('admin', 'reviewer', 'publisher')),
    publisher_id TEXT REFERENCES publishers(id),
    label        TEXT NOT NULL,
    created_at   TEXT NOT NULL,
    last_used_at TEXT,
    revoked_at   TEXT
);

CREATE TABLE servers (
    id           TEXT PRIMARY KEY,
    name         TEXT NOT NULL UNIQUE,
    publisher_id TEXT NOT NULL REFERENCES publishers(id),
    created_at   TEXT NOT NULL,
    updated_at   TEXT NOT NULL
);

-- A remote URL belongs to exactly one server (the registry refuses reuse).
CREATE TABLE server_remotes (
    url       TEXT PRIMARY KEY,
    server_id TEXT NOT NULL REFERENCES servers(id)
);

CREATE TABLE versions (
    id            TEXT PRIMARY KEY,
    server_id     TEXT NOT NULL REFERENCES servers(id),
    server_name   TEXT NOT NULL,
    version       TEXT NOT NULL,
    server_json   TEXT NOT NULL,
    status        TEXT NOT NULL,
    max_severity  TEXT,
    is_latest     INTEGER NOT NULL DEFAULT 0,
    published_at  TEXT NOT NULL,
    updated_at    TEXT NOT NULL,
    approved_at   TEXT,
    UNIQUE (server_name, version)
);
CREATE INDEX versions_status ON versions (status, server_name, version);
CREATE INDEX versions_updated ON versions (updated_at);

-- Background work (scans, rescans). Claimed with a lease; a dead worker's job
-- becomes claimable again when its lease expires.
CREATE TABLE jobs (
    id          TEXT PRIMARY KEY,
    kind        TEXT NOT NULL,
    version_id  TEXT NOT NULL REFERENCES versions(id),
    state       TEXT NOT NULL CHECK (state IN ('queued', 'running', 'done', 'failed')),
    attempts    INTEGER NOT NULL DEFAULT 0,
    run_after   TEXT NOT NULL,
    lease_until TEXT,
    locked_by   TEXT,
    last_error  TEXT,
    created_at  TEXT NOT NULL,
    finished_at TEXT
);
CREATE INDEX jobs_claim ON jobs (state, run_after);

-- One completed scan per job (idempotence: the unique job_id).
CREATE TABLE scans (
    id           TEXT PRIMARY KEY,
    version_id   TEXT NOT NULL REFERENCES versions(id),
    job_id       TEXT UNIQUE,
    started_at   TEXT NOT NULL,
    finished_at  TEXT NOT NULL,
    duration_ms  INTEGER NOT NULL,
    snapshot     TEXT,
    report       TEXT,
    max_severity TEXT,
    error        TEXT
);
CREATE INDEX scans_version ON scans (version_id, finished_at);

CREATE TABLE approvals (
    version_id  TEXT PRIMARY KEY REFERENCES versions(id),
    tools       TEXT,
    audiences   TEXT NOT NULL,
    note        TEXT NOT NULL,
    approved_by TEXT NOT NULL,
    approved_at TEXT NOT NULL
);

-- Append-only: rows are inserted in the same transaction as the change they record.
CREATE TABLE audit_log (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    at         TEXT NOT NULL,
    actor      TEXT NOT NULL,
    action     TEXT NOT NULL,
    subject    TEXT NOT NULL,
    version_id TEXT,
    detail     TEXT NOT NULL
);
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;

-- Tool names of approved versions: the context for shadowing and conflict rules.
CREATE TABLE approved_tools (
    version_id  TEXT NOT NULL REFERENCES versions(id),
    server_name TEXT NOT NULL,
    tool_name   TEXT NOT NULL,
    PRIMARY KEY (version_id, tool_name)
);
