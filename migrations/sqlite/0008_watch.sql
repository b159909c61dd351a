-- Live watching (issue 14): the change-notification stream of each approved
-- remote version is held by exactly one worker process. A row per version;
-- `listens` says whether the snapshot the approval rests on declared
-- `listChanged` for tools, prompts or resources (0: nothing to hold, the row
-- only records that it was looked at). A process claims free rows (no owner,
-- or a lease that ran out) like jobs — FOR UPDATE SKIP LOCKED on PostgreSQL —
-- and renews its leases while it holds the streams; a process that dies
-- loses them when `lease_until` passes, and another takes them over.
CREATE TABLE watch_leases (
    version_id  TEXT PRIMARY KEY REFERENCES versions(id),
    listens     INTEGER NOT NULL,
    owner       TEXT,
    lease_until TEXT
);
CREATE INDEX watch_leases_free ON watch_leases (listens, lease_until);

-- Per-server drift policy (issue 14, item 2), set by an admin (audited):
--   on_drift  'suspend' (default): a change that introduces a high or critical
--             finding suspends the version; 'narrow': only the capabilities that
--             changed leave the allowlist, the rest of the approval stands;
--   reinstate 1 (default): a later rescan that matches the approved pins
--             reinstates a version the monitor suspended; 0: a reviewer must.
CREATE TABLE monitor_policies (
    server_id  TEXT PRIMARY KEY REFERENCES servers(id),
    on_drift   TEXT NOT NULL CHECK (on_drift IN ('suspend', 'narrow')),
    reinstate  INTEGER NOT NULL
);

-- The shortest caching hint (`ttlMs`, MCP 2026-07-28 Caching §Cacheable
-- Results) of the version's last rescan, in seconds: a freshness hint that
-- may bring the next rescan forward (never below monitor::TTL_FLOOR), never a
-- polling rate.
ALTER TABLE rescan_schedule ADD COLUMN ttl_secs INTEGER;
