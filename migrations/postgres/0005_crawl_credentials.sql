-- Crawl credentials (issue 13): what the scanner needs to crawl a server behind
-- OAuth or a secret header, set per server by its publisher or an admin.
-- `ciphertext` is the AEAD-sealed secret (src/registry/crawl_secrets.rs); the
-- key is a file in the data directory, never in the database. The associated
-- data binds a row to its server, kind, name, client id and method, so a sealed
-- value copied to another row or server does not open. Nothing here is secret
-- on its own: the API shows these columns, except `nonce` and `ciphertext`.
CREATE TABLE crawl_credentials (
    server_id   TEXT NOT NULL REFERENCES servers(id) ON DELETE CASCADE,
    -- 'oauth' (one per server, name '') or 'header' (one per secret header name, lower case).
    kind        TEXT NOT NULL,
    name        TEXT NOT NULL,
    -- OAuth only: the client id and 'client_secret' or 'private_key_jwt'.
    client_id   TEXT,
    method      TEXT,
    -- The issuer the OAuth credentials were first used with; they are never sent to another.
    issuer      TEXT,
    nonce       TEXT NOT NULL,
    ciphertext  TEXT NOT NULL,
    set_by      TEXT NOT NULL,
    set_at      TEXT NOT NULL,
    PRIMARY KEY (server_id, kind, name)
);
