-- Signed allowlists. Each approval writes the entry a version contributes to
-- each of its audiences (pins computed once, at approval); each change bumps
-- the audience's version under a row lock and stores the newly signed
-- document, in the same transaction as the change.

CREATE TABLE allowlist_entries (
    version_id  TEXT NOT NULL REFERENCES versions(id),
    audience    TEXT NOT NULL,
    server_name TEXT NOT NULL,
    entry       TEXT NOT NULL,
    PRIMARY KEY (version_id, audience)
);
CREATE INDEX allowlist_entries_audience ON allowlist_entries (audience, server_name);

CREATE TABLE allowlist_audiences (
    audience   TEXT PRIMARY KEY,
    version    INTEGER NOT NULL,
    updated_at TEXT NOT NULL
);

CREATE TABLE allowlist_documents (
    audience  TEXT NOT NULL,
    version   INTEGER NOT NULL,
    envelope  TEXT NOT NULL,
    issued_at TEXT NOT NULL,
    expires   TEXT NOT NULL,
    PRIMARY KEY (audience, version)
);

-- Revoked versions stay listed under `revoked` in the audiences they were in.
CREATE TABLE allowlist_revocations (
    version_id  TEXT NOT NULL REFERENCES versions(id),
    audience    TEXT NOT NULL,
    server_name TEXT NOT NULL,
    version     TEXT NOT NULL,
    reason      TEXT NOT NULL,
    at          TEXT NOT NULL,
    PRIMARY KEY (version_id, audience)
);
