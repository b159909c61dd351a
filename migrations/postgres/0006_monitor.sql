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
