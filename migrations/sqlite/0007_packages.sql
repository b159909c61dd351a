-- The package sandbox and ownership (issue 15).
--
-- Remote-URL ownership: the verification state of each remote a server
-- holds, one of 'card' (the remote serves a Server Card naming the server),
-- 'challenge' (the publisher served its Gatehouse-issued token on the
-- remote's origin), 'domain' (the remote's host lies under the domain of a
-- namespace the publisher holds) or 'unverified'; set by every scan.
ALTER TABLE server_remotes ADD COLUMN verification TEXT NOT NULL DEFAULT 'unverified';
ALTER TABLE server_remotes ADD COLUMN verified_at TEXT;

-- Challenge tokens: one per publisher and origin (`scheme://host[:port]`),
-- served by the publisher at /.well-known/gatehouse-challenge on the origin.
CREATE TABLE ownership_challenges (
    publisher_id TEXT NOT NULL REFERENCES publishers(id),
    origin       TEXT NOT NULL,
    token        TEXT NOT NULL,
    created_at   TEXT NOT NULL,
    PRIMARY KEY (publisher_id, origin)
);

-- Registry-wide settings an admin changes (key 'require_remote_verification':
-- 'true' refuses to approve a version whose remotes are unverified).
CREATE TABLE registry_settings (
    key        TEXT PRIMARY KEY,
    value      TEXT NOT NULL,
    updated_by TEXT NOT NULL,
    updated_at TEXT NOT NULL
);

-- A webhook a publisher registered for its own servers' events (NULL: an
-- admin's webhook, which hears every event it subscribed to).
ALTER TABLE webhooks ADD COLUMN publisher_id TEXT REFERENCES publishers(id);
