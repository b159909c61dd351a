-- Web UI sessions and login throttling (PostgreSQL).
--
-- A session is identified by a random id that only the browser holds (in an
-- HttpOnly cookie); the table stores its SHA-256, like API tokens, so a leaked
-- database yields no usable session. `kind` is `anon` (a login form's CSRF
-- holder), `user` (admin/reviewer) or `publisher` (publisher portal).
CREATE TABLE ui_sessions (
    id_hash      TEXT PRIMARY KEY,
    kind         TEXT NOT NULL CHECK (kind IN ('anon', 'user', 'publisher')),
    user_id      TEXT REFERENCES users(id),
    publisher_id TEXT REFERENCES publishers(id),
    token_id     TEXT REFERENCES api_tokens(id),
    csrf_token   TEXT NOT NULL,
    flash        TEXT,
    created_at   TEXT NOT NULL,
    last_seen_at TEXT NOT NULL
);
CREATE INDEX ui_sessions_last_seen ON ui_sessions (last_seen_at);

-- One row per failed sign-in, keyed by account and by client address, so the
-- throttle holds across processes sharing the database.
CREATE TABLE login_failures (
    scope TEXT NOT NULL,
    at    TEXT NOT NULL
);
CREATE INDEX login_failures_scope ON login_failures (scope, at);
