//! Servers, versions, remotes, scans and approvals: the rows of the flow from
//! publish to decision, the review queue's filter, and the read-only
//! aggregates of the dashboard and the servers list.

use sqlx::Row;
use sqlx::any::AnyRow;

use super::{Db, Tx, new_id, now};
use crate::registry::lifecycle::Status;
use crate::registry::versioning;

/// A stored version of a server.
#[derive(Debug, Clone)]
pub struct VersionRow {
    /// Row id.
    pub id: String,
    /// Owning server row id.
    pub server_id: String,
    /// Server name (`com.example/weather`).
    pub server_name: String,
    /// Version string as published.
    pub version: String,
    /// The submitted server.json, verbatim.
    pub server_json: String,
    /// Lifecycle status.
    pub status: Status,
    /// Maximum severity of the latest scan's findings.
    pub max_severity: Option<String>,
    /// Latest approved version of its server.
    pub is_latest: bool,
    /// When it was published.
    pub published_at: String,
    /// When its status last changed.
    pub updated_at: String,
    /// When it was (last) approved.
    pub approved_at: Option<String>,
}

const VERSION_COLUMNS: &str = "v.id, v.server_id, v.server_name, v.version, v.server_json, v.status, v.max_severity, v.is_latest, v.published_at, v.updated_at, v.approved_at";

/// Decodes a row of [`VERSION_COLUMNS`]. A status this build does not know
/// is an error, never a default: a version must not silently look `pending`.
fn version_from_row(r: &AnyRow) -> Result<VersionRow, sqlx::Error> {
    Ok(VersionRow {
        id: r.try_get("id")?,
        server_id: r.try_get("server_id")?,
        server_name: r.try_get("server_name")?,
        version: r.try_get("version")?,
        server_json: r.try_get("server_json")?,
        status: status_of(r)?,
        max_severity: r.try_get("max_severity")?,
        is_latest: r.try_get::<i64, _>("is_latest")? != 0,
        published_at: r.try_get("published_at")?,
        updated_at: r.try_get("updated_at")?,
        approved_at: r.try_get("approved_at")?,
    })
}

/// The `status` column of a row, which must name a known [`Status`].
pub(crate) fn status_of(r: &AnyRow) -> Result<Status, sqlx::Error> {
    let stored: String = r.try_get("status")?;
    Status::parse(&stored).ok_or_else(|| sqlx::Error::ColumnDecode {
        index: "status".into(),
        source: format!("unknown version status {stored:?} in the database").into(),
    })
}

/// Finds a server by name: `(id, publisher_id)`.
///
/// Names that differ only by case are one server (DNS is case-insensitive and
/// a look-alike spelling must not become a second entry): the match ignores
/// ASCII case (server names are ASCII by the schema) and the answer carries the
/// stored spelling, `(id, publisher_id, name)`. Migration 0004 makes the rule
/// a unique index.
pub async fn find_server(
    tx: &mut Tx,
    name: &str,
) -> Result<Option<(String, String, String)>, sqlx::Error> {
    server_named(tx.conn(), name).await
}

/// [`find_server`] outside a transaction (on the pool, or any connection).
pub async fn server_named<'e>(
    executor: impl sqlx::Executor<'e, Database = sqlx::Any>,
    name: &str,
) -> Result<Option<(String, String, String)>, sqlx::Error> {
    let row =
        sqlx::query("SELECT id, publisher_id, name FROM servers WHERE LOWER(name) = LOWER($1)")
            .bind(name)
            .fetch_optional(executor)
            .await?;
    row.map(|r| {
        Ok((
            r.try_get("id")?,
            r.try_get("publisher_id")?,
            r.try_get("name")?,
        ))
    })
    .transpose()
}

/// Creates a server owned by a publisher; returns its id.
pub async fn insert_server(
    tx: &mut Tx,
    name: &str,
    publisher_id: &str,
) -> Result<String, sqlx::Error> {
    let id = new_id();
    let at = now();
    sqlx::query("INSERT INTO servers (id, name, publisher_id, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)")
        .bind(&id)
        .bind(name)
        .bind(publisher_id)
        .bind(&at)
        .execute(tx.conn())
        .await?;
    Ok(id)
}

/// The name of the server a remote URL belongs to, if any.
pub async fn remote_owner(tx: &mut Tx, url: &str) -> Result<Option<(String, String)>, sqlx::Error> {
    let row = sqlx::query(
        "SELECT s.id, s.name FROM server_remotes r JOIN servers s ON s.id = r.server_id WHERE r.url = $1",
    )
    .bind(url)
    .fetch_optional(tx.conn())
    .await?;
    row.map(|r| Ok((r.try_get("id")?, r.try_get("name")?)))
        .transpose()
}

/// Records that a remote URL belongs to a server (no-op when it already does).
pub async fn claim_remote(tx: &mut Tx, url: &str, server_id: &str) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO server_remotes (url, server_id) VALUES ($1, $2) ON CONFLICT (url) DO NOTHING",
    )
    .bind(url)
    .bind(server_id)
    .execute(tx.conn())
    .await?;
    Ok(())
}

/// Inserts a new version in `pending`.
pub async fn insert_version(
    tx: &mut Tx,
    server_id: &str,
    server_name: &str,
    version: &str,
    server_json: &str,
) -> Result<VersionRow, sqlx::Error> {
    let id = new_id();
    let at = now();
    sqlx::query(
        "INSERT INTO versions (id, server_id, server_name, version, server_json, status, is_latest, published_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, 0, $7, $7)",
    )
    .bind(&id)
    .bind(server_id)
    .bind(server_name)
    .bind(version)
    .bind(server_json)
    .bind(Status::Pending.as_str())
    .bind(&at)
    .execute(tx.conn())
    .await?;
    sqlx::query("UPDATE servers SET updated_at = $1 WHERE id = $2")
        .bind(&at)
        .bind(server_id)
        .execute(tx.conn())
        .await?;
    Ok(VersionRow {
        id,
        server_id: server_id.into(),
        server_name: server_name.into(),
        version: version.into(),
        server_json: server_json.into(),
        status: Status::Pending,
        max_severity: None,
        is_latest: false,
        published_at: at.clone(),
        updated_at: at,
        approved_at: None,
    })
}

/// Loads a version by server name and version.
pub async fn get_version(
    db: &Db,
    name: &str,
    version: &str,
) -> Result<Option<VersionRow>, sqlx::Error> {
    let sql = format!(
        "SELECT {VERSION_COLUMNS} FROM versions v WHERE v.server_name = $1 AND v.version = $2"
    );
    let row = sqlx::query(&sql)
        .bind(name)
        .bind(version)
        .fetch_optional(db.pool())
        .await?;
    row.as_ref().map(version_from_row).transpose()
}

/// Loads a version of a server owned by `publisher_id` (none when another
/// publisher owns it: see `review::read`).
pub async fn get_own_version(
    db: &Db,
    publisher_id: &str,
    name: &str,
    version: &str,
) -> Result<Option<VersionRow>, sqlx::Error> {
    let sql = format!(
        "SELECT {VERSION_COLUMNS} FROM versions v JOIN servers s ON s.id = v.server_id
         WHERE v.server_name = $1 AND v.version = $2 AND s.publisher_id = $3"
    );
    let row = sqlx::query(&sql)
        .bind(name)
        .bind(version)
        .bind(publisher_id)
        .fetch_optional(db.pool())
        .await?;
    row.as_ref().map(version_from_row).transpose()
}

/// Loads a version by id inside a transaction (for a consistent read-modify-write).
pub async fn get_version_by_id_tx(
    tx: &mut Tx,
    id: &str,
) -> Result<Option<VersionRow>, sqlx::Error> {
    let sql = format!("SELECT {VERSION_COLUMNS} FROM versions v WHERE v.id = $1");
    let row = sqlx::query(&sql).bind(id).fetch_optional(tx.conn()).await?;
    row.as_ref().map(version_from_row).transpose()
}

/// Loads a version by id.
pub async fn get_version_by_id(db: &Db, id: &str) -> Result<Option<VersionRow>, sqlx::Error> {
    let sql = format!("SELECT {VERSION_COLUMNS} FROM versions v WHERE v.id = $1");
    let row = sqlx::query(&sql).bind(id).fetch_optional(db.pool()).await?;
    row.as_ref().map(version_from_row).transpose()
}

/// Moves a version to `to` if it is currently `from`; returns whether it moved.
/// The conditional update makes concurrent transitions safe: only one wins.
pub async fn set_status(
    tx: &mut Tx,
    id: &str,
    from: Status,
    to: Status,
) -> Result<bool, sqlx::Error> {
    let at = now();
    let approved_at = (to == Status::Approved).then(|| at.clone());
    let done = sqlx::query(
        "UPDATE versions SET status = $1, updated_at = $2, approved_at = COALESCE($3, approved_at)
         WHERE id = $4 AND status = $5",
    )
    .bind(to.as_str())
    .bind(&at)
    .bind(approved_at)
    .bind(id)
    .bind(from.as_str())
    .execute(tx.conn())
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Recomputes `is_latest` among a server's approved versions (official registry rules).
pub async fn recompute_latest(tx: &mut Tx, server_id: &str) -> Result<(), sqlx::Error> {
    let rows = sqlx::query("SELECT id, version, published_at, is_latest FROM versions WHERE server_id = $1 AND status = $2")
        .bind(server_id)
        .bind(Status::Approved.as_str())
        .fetch_all(tx.conn())
        .await?;
    struct Approved {
        id: String,
        is_latest: bool,
    }
    let mut approved = Vec::with_capacity(rows.len());
    let mut pairs: Vec<(String, String)> = Vec::with_capacity(rows.len());
    for r in &rows {
        approved.push(Approved {
            id: r.try_get("id")?,
            is_latest: r.try_get::<i64, _>("is_latest")? != 0,
        });
        pairs.push((r.try_get("version")?, r.try_get("published_at")?));
    }
    let latest_id: Option<String> =
        versioning::latest_index(&pairs).map(|i| approved[i].id.clone());
    let current: Option<String> = approved.iter().find(|a| a.is_latest).map(|a| a.id.clone());
    // Any version outside the approved set must not be flagged either.
    let stale: i64 = sqlx::query(
        "SELECT COUNT(*) AS n FROM versions WHERE server_id = $1 AND is_latest = 1 AND status <> $2",
    )
    .bind(server_id)
    .bind(Status::Approved.as_str())
    .fetch_one(tx.conn())
    .await?
    .try_get("n")?;
    if latest_id == current && stale == 0 {
        return Ok(());
    }
    let at = now();
    sqlx::query(
        "UPDATE versions SET is_latest = 0, updated_at = $2 WHERE server_id = $1 AND is_latest = 1",
    )
    .bind(server_id)
    .bind(&at)
    .execute(tx.conn())
    .await?;
    if let Some(id) = latest_id {
        sqlx::query("UPDATE versions SET is_latest = 1, updated_at = $2 WHERE id = $1")
            .bind(id)
            .bind(&at)
            .execute(tx.conn())
            .await?;
    }
    Ok(())
}

/// Query of the public read API.
#[derive(Debug, Clone, Default)]
pub struct PublicQuery {
    /// Keyset cursor: the last `(server_name, version)` already returned.
    pub after: Option<(String, String)>,
    /// Page size.
    pub limit: i64,
    /// Case-insensitive substring of the name.
    pub search: Option<String>,
    /// Only versions updated at or after this timestamp.
    pub updated_since: Option<String>,
    /// Only the latest version of each server.
    pub latest_only: bool,
    /// Only this exact version.
    pub exact_version: Option<String>,
    /// Only this server.
    pub server_name: Option<String>,
}

/// Approved versions, ordered by `(server_name, version)` — a keyset order, so a
/// cursor walk returns each row once even while rows are added.
pub async fn list_approved(db: &Db, q: &PublicQuery) -> Result<Vec<VersionRow>, sqlx::Error> {
    let (after_name, after_version) = match &q.after {
        Some((n, v)) => (Some(n.as_str()), Some(v.as_str())),
        None => (None, None),
    };
    let search = q.search.as_deref().map(super::contains_pattern);
    let sql = format!(
        "SELECT {VERSION_COLUMNS} FROM versions v
         WHERE v.status = 'approved'
           AND ($1 IS NULL OR v.server_name > $1 OR (v.server_name = $1 AND v.version > $2))
           AND ($3 IS NULL OR LOWER(v.server_name) LIKE $3 ESCAPE '\\')
           AND ($4 IS NULL OR v.updated_at >= $4)
           AND ($5 = 0 OR v.is_latest = 1)
           AND ($6 IS NULL OR v.version = $6)
           AND ($7 IS NULL OR v.server_name = $7)
         ORDER BY v.server_name, v.version
         LIMIT $8"
    );
    let rows = sqlx::query(&sql)
        .bind(after_name)
        .bind(after_version)
        .bind(search)
        .bind(q.updated_since.as_deref())
        .bind(i64::from(q.latest_only))
        .bind(q.exact_version.as_deref())
        .bind(q.server_name.as_deref())
        .bind(q.limit)
        .fetch_all(db.pool())
        .await?;
    rows.iter().map(version_from_row).collect()
}

/// Filters for the review queue and server lists.
#[derive(Debug, Clone, Default)]
pub struct VersionFilter {
    /// Only these statuses (all when empty).
    pub statuses: Vec<Status>,
    /// Only this publisher's servers.
    pub publisher_id: Option<String>,
    /// Case-insensitive substring of the name.
    pub search: Option<String>,
    /// Only versions whose max severity is one of these.
    pub severities: Vec<String>,
    /// Sort key: `age` (oldest first, the default), `newest`, `severity`, `name`.
    pub sort: Option<String>,
    /// Page offset.
    pub offset: i64,
    /// Page size.
    pub limit: i64,
}

/// The `ORDER BY` key of "by severity" over the `versions` table (columns
/// prefixed with `prefix`, e.g. `v.`): findings from critical down to info,
/// then versions whose scan failed, then versions never scanned, and only then
/// clean ones. A version without a completed scan is not "no findings": it
/// must not sink below clean ones where a reviewer stops looking.
pub(crate) fn severity_rank(prefix: &str) -> String {
    format!(
        "CASE WHEN {p}status = 'scan_failed' THEN 5 WHEN {p}status IN ('pending', 'scanning') AND {p}max_severity IS NULL THEN 6 \
         ELSE CASE {p}max_severity WHEN 'critical' THEN 0 WHEN 'high' THEN 1 WHEN 'medium' THEN 2 WHEN 'low' THEN 3 WHEN 'info' THEN 4 ELSE 7 END END",
        p = prefix
    )
}

impl VersionFilter {
    /// The `FROM`, `WHERE` and `ORDER BY` clauses of this filter and the
    /// search pattern. The clauses bind `$1` (search pattern) and, with a
    /// publisher, `$2` (its id): only then is `servers` joined, so the
    /// reviewers' queue reads the `versions` table alone. Statuses and
    /// severities are closed vocabularies, inlined as literals from our own
    /// enum values, so every user-supplied value is bound.
    fn sql(&self) -> (String, String, Option<String>) {
        let mut from = String::from("FROM versions v");
        let mut where_sql =
            String::from("WHERE ($1 IS NULL OR LOWER(v.server_name) LIKE $1 ESCAPE '\\')");
        if self.publisher_id.is_some() {
            from.push_str(" JOIN servers s ON s.id = v.server_id");
            where_sql.push_str(" AND s.publisher_id = $2");
        }
        if !self.statuses.is_empty() {
            let list: Vec<String> = self
                .statuses
                .iter()
                .map(|s| format!("'{}'", s.as_str()))
                .collect();
            where_sql.push_str(&format!(" AND v.status IN ({})", list.join(", ")));
        }
        let severities: Vec<String> = self
            .severities
            .iter()
            .filter_map(|s| {
                crate::analysis::Severity::parse(s).map(|s| format!("'{}'", s.as_str()))
            })
            .collect();
        if !severities.is_empty() {
            where_sql.push_str(&format!(
                " AND v.max_severity IN ({})",
                severities.join(", ")
            ));
        }
        let order = match self.sort.as_deref() {
            Some("newest") => "v.updated_at DESC, v.id".to_string(),
            Some("name") => "v.server_name, v.version".to_string(),
            Some("severity") => format!("{}, v.updated_at, v.id", severity_rank("v.")),
            _ => "v.updated_at, v.id".to_string(),
        };
        let search = self
            .search
            .as_deref()
            .filter(|s| !s.is_empty())
            .map(super::contains_pattern);
        (format!("{from} {where_sql}"), order, search)
    }

    /// Runs `SELECT {columns}` of this filter's page and counts all matches.
    async fn page(&self, db: &Db, columns: &str) -> Result<(Vec<AnyRow>, i64), sqlx::Error> {
        let (from_where, order, search) = self.sql();
        let next = if self.publisher_id.is_some() { 3 } else { 2 };
        let sql = format!(
            "SELECT {columns} {from_where} ORDER BY {order} LIMIT ${next} OFFSET ${}",
            next + 1
        );
        let mut rows = sqlx::query(&sql).bind(search.as_deref());
        let count_sql = format!("SELECT COUNT(*) AS n {from_where}");
        let mut count = sqlx::query(&count_sql).bind(search.as_deref());
        if let Some(publisher) = self.publisher_id.as_deref() {
            rows = rows.bind(publisher);
            count = count.bind(publisher);
        }
        let rows = rows
            .bind(self.limit)
            .bind(self.offset)
            .fetch_all(db.pool())
            .await?;
        let total: i64 = count.fetch_one(db.pool()).await?.try_get("n")?;
        Ok((rows, total))
    }
}

/// Versions matching a filter, with the total count (for paging).
pub async fn list_versions(
    db: &Db,
    f: &VersionFilter,
) -> Result<(Vec<VersionRow>, i64), sqlx::Error> {
    let (rows, total) = f.page(db, VERSION_COLUMNS).await?;
    Ok((
        rows.iter()
            .map(version_from_row)
            .collect::<Result<_, _>>()?,
        total,
    ))
}

/// A version as a queue row: only what the row shows, so paging through
/// thousands of versions never drags their server.json documents along.
#[derive(Debug, Clone)]
pub struct QueueItem {
    /// Server name.
    pub server_name: String,
    /// Version string.
    pub version: String,
    /// Lifecycle status.
    pub status: Status,
    /// Maximum severity of the latest scan.
    pub max_severity: Option<String>,
    /// When its status last changed.
    pub updated_at: String,
}

/// One page of the review queue with the total, filtered and sorted like
/// [`list_versions`], reading only the listed columns.
pub async fn queue_page(db: &Db, f: &VersionFilter) -> Result<(Vec<QueueItem>, i64), sqlx::Error> {
    let (rows, total) = f
        .page(
            db,
            "v.server_name, v.version, v.status, v.max_severity, v.updated_at",
        )
        .await?;
    let items = rows
        .iter()
        .map(|r| {
            Ok(QueueItem {
                server_name: r.try_get("server_name")?,
                version: r.try_get("version")?,
                status: status_of(r)?,
                max_severity: r.try_get("max_severity")?,
                updated_at: r.try_get("updated_at")?,
            })
        })
        .collect::<Result<_, sqlx::Error>>()?;
    Ok((items, total))
}

/// Number of versions per status.
pub async fn count_by_status(db: &Db) -> Result<Vec<(Status, i64)>, sqlx::Error> {
    let rows = sqlx::query("SELECT status, COUNT(*) AS n FROM versions GROUP BY status")
        .fetch_all(db.pool())
        .await?;
    rows.iter()
        .map(|r| Ok((status_of(r)?, r.try_get::<i64, _>("n")?)))
        .collect()
}

/// The most recent version of the same server approved before (for diffs).
pub async fn last_approved_before(
    db: &Db,
    v: &VersionRow,
) -> Result<Option<VersionRow>, sqlx::Error> {
    let sql = format!(
        "SELECT {VERSION_COLUMNS} FROM versions v WHERE v.server_id = $1 AND v.id <> $2 AND v.approved_at IS NOT NULL
         ORDER BY v.approved_at DESC LIMIT 1"
    );
    let row = sqlx::query(&sql)
        .bind(&v.server_id)
        .bind(&v.id)
        .fetch_optional(db.pool())
        .await?;
    row.as_ref().map(version_from_row).transpose()
}

/// A stored scan.
#[derive(Debug, Clone)]
pub struct ScanRow {
    /// Row id.
    pub id: String,
    /// When it started.
    pub started_at: String,
    /// When it finished.
    pub finished_at: String,
    /// Wall time.
    pub duration_ms: i64,
    /// The Snapshot JSON, when the crawl produced one.
    pub snapshot: Option<String>,
    /// The Report JSON.
    pub report: Option<String>,
    /// Max severity of the report.
    pub max_severity: Option<String>,
    /// Why the scan failed, when it did.
    pub error: Option<String>,
}

/// The latest completed scan of a version.
pub async fn latest_scan(db: &Db, version_id: &str) -> Result<Option<ScanRow>, sqlx::Error> {
    let row = sqlx::query(
        "SELECT id, started_at, finished_at, duration_ms, snapshot, report, max_severity, error FROM scans
         WHERE version_id = $1 ORDER BY finished_at DESC LIMIT 1",
    )
    .bind(version_id)
    .fetch_optional(db.pool())
    .await?;
    row.map(|r| {
        Ok(ScanRow {
            id: r.try_get("id")?,
            started_at: r.try_get("started_at")?,
            finished_at: r.try_get("finished_at")?,
            duration_ms: r.try_get("duration_ms")?,
            snapshot: r.try_get("snapshot")?,
            report: r.try_get("report")?,
            max_severity: r.try_get("max_severity")?,
            error: r.try_get("error")?,
        })
    })
    .transpose()
}

/// A scan result to store.
pub struct NewScan<'a> {
    /// Version scanned.
    pub version_id: &'a str,
    /// Job that ran it (unique: one completed scan per job).
    pub job_id: Option<&'a str>,
    /// Start time.
    pub started_at: &'a str,
    /// Wall time.
    pub duration_ms: i64,
    /// Snapshot JSON.
    pub snapshot: Option<&'a str>,
    /// Report JSON.
    pub report: Option<&'a str>,
    /// Max severity.
    pub max_severity: Option<&'a str>,
    /// Failure reason.
    pub error: Option<&'a str>,
}

/// Stores a scan; returns false when this job already stored one (idempotence).
pub async fn insert_scan(tx: &mut Tx, scan: NewScan<'_>) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "INSERT INTO scans (id, version_id, job_id, started_at, finished_at, duration_ms, snapshot, report, max_severity, error)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (job_id) DO NOTHING",
    )
    .bind(new_id())
    .bind(scan.version_id)
    .bind(scan.job_id)
    .bind(scan.started_at)
    .bind(now())
    .bind(scan.duration_ms)
    .bind(scan.snapshot)
    .bind(scan.report)
    .bind(scan.max_severity)
    .bind(scan.error)
    .execute(tx.conn())
    .await?;
    if done.rows_affected() == 1 && scan.error.is_none() {
        sqlx::query("UPDATE versions SET max_severity = $1 WHERE id = $2")
            .bind(scan.max_severity)
            .bind(scan.version_id)
            .execute(tx.conn())
            .await?;
    }
    Ok(done.rows_affected() == 1)
}

/// Number of completed scans stored for a version.
pub async fn count_scans(db: &Db, version_id: &str) -> Result<i64, sqlx::Error> {
    sqlx::query("SELECT COUNT(*) AS n FROM scans WHERE version_id = $1")
        .bind(version_id)
        .fetch_one(db.pool())
        .await?
        .try_get("n")
}

/// A stored approval decision.
#[derive(Debug, Clone)]
pub struct ApprovalRow {
    /// Approved tool names; `None` = all.
    pub tools: Option<Vec<String>>,
    /// Audiences it is published to.
    pub audiences: Vec<String>,
    /// Reviewer's note.
    pub note: String,
    /// Who approved.
    pub approved_by: String,
    /// When.
    pub approved_at: String,
}

/// Records (or replaces) the approval decision of a version.
pub async fn upsert_approval(
    tx: &mut Tx,
    version_id: &str,
    a: &ApprovalRow,
) -> Result<(), sqlx::Error> {
    let tools = a
        .tools
        .as_ref()
        .map(|t| serde_json::to_string(t).expect("names serialise"));
    let audiences = serde_json::to_string(&a.audiences).expect("names serialise");
    sqlx::query(
        "INSERT INTO approvals (version_id, tools, audiences, note, approved_by, approved_at) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (version_id) DO UPDATE SET tools = excluded.tools, audiences = excluded.audiences,
           note = excluded.note, approved_by = excluded.approved_by, approved_at = excluded.approved_at",
    )
    .bind(version_id)
    .bind(tools)
    .bind(audiences)
    .bind(&a.note)
    .bind(&a.approved_by)
    .bind(&a.approved_at)
    .execute(tx.conn())
    .await?;
    Ok(())
}

/// The approval decision of a version, if any.
pub async fn approval(db: &Db, version_id: &str) -> Result<Option<ApprovalRow>, sqlx::Error> {
    let row = sqlx::query("SELECT tools, audiences, note, approved_by, approved_at FROM approvals WHERE version_id = $1")
        .bind(version_id)
        .fetch_optional(db.pool())
        .await?;
    row.map(|r| {
        Ok(ApprovalRow {
            tools: r
                .try_get::<Option<String>, _>("tools")?
                .and_then(|t| serde_json::from_str(&t).ok()),
            audiences: serde_json::from_str(&r.try_get::<String, _>("audiences")?)
                .unwrap_or_default(),
            note: r.try_get("note")?,
            approved_by: r.try_get("approved_by")?,
            approved_at: r.try_get("approved_at")?,
        })
    })
    .transpose()
}

/// A marker that changes whenever any version changes: every insert and every
/// status or `isLatest` change sets `updated_at` to the current microsecond, and
/// versions are never deleted, so the newest `updated_at` moves on every change.
/// One index lookup (`versions_updated`), cheap enough to read on every request.
pub async fn change_marker(db: &Db) -> Result<String, sqlx::Error> {
    let row = sqlx::query("SELECT MAX(updated_at) AS marker FROM versions")
        .fetch_one(db.pool())
        .await?;
    Ok(row
        .try_get::<Option<String>, _>("marker")?
        .unwrap_or_default())
}

/// Rewrites every stored `server.json` that repeats an object key as the
/// document it was validated and scanned as (for a repeated key, the last
/// value, as `serde_json` reads it), so that every document served has one
/// meaning. Publishing refuses such documents now; rows stored before that
/// are mended once, each with an audit entry naming the pointer. Returns how
/// many were rewritten.
pub async fn mend_duplicate_keys(db: &Db) -> anyhow::Result<usize> {
    let rows = sqlx::query("SELECT id, server_name, version, server_json FROM versions")
        .fetch_all(db.pool())
        .await?;
    let mut mended = 0;
    for r in rows {
        let id: String = r.try_get("id")?;
        let name: String = r.try_get("server_name")?;
        let version: String = r.try_get("version")?;
        let text: String = r.try_get("server_json")?;
        let Ok(parsed) = crate::strict_json::parse(text.as_bytes()) else {
            continue;
        };
        let Some(pointer) = parsed.duplicate else {
            continue;
        };
        let canonical = serde_json::to_string(&parsed.value)?;
        let mut tx = db.begin().await?;
        let done = sqlx::query(
            "UPDATE versions SET server_json = $1, updated_at = $2 WHERE id = $3 AND server_json = $4",
        )
        .bind(&canonical)
        .bind(now())
        .bind(&id)
        .bind(&text)
        .execute(tx.conn())
        .await?;
        if done.rows_affected() == 1 {
            crate::storage::audit::append(
                &mut tx,
                crate::storage::audit::AuditEntry {
                    actor: "system:startup",
                    action: "version.mend_duplicate_keys",
                    subject: &format!("{name}@{version}"),
                    version_id: Some(&id),
                    detail: serde_json::json!({"pointer": pointer}),
                },
            )
            .await?;
            mended += 1;
        }
        tx.commit().await?;
    }
    Ok(mended)
}

/// Completed scans per day (`YYYY-MM-DD`) since a day, oldest first: `(day, ok, failed)`.
pub async fn scans_per_day(db: &Db, since: &str) -> Result<Vec<(String, i64, i64)>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT SUBSTR(finished_at, 1, 10) AS day,
                SUM(CASE WHEN error IS NULL THEN 1 ELSE 0 END) AS ok,
                SUM(CASE WHEN error IS NULL THEN 0 ELSE 1 END) AS failed
         FROM scans WHERE finished_at >= $1 GROUP BY SUBSTR(finished_at, 1, 10) ORDER BY day",
    )
    .bind(since)
    .fetch_all(db.pool())
    .await?;
    rows.iter()
        .map(|r| Ok((r.try_get("day")?, r.try_get("ok")?, r.try_get("failed")?)))
        .collect()
}

/// The report JSON of every version's latest scan that produced one, with
/// the `name@version` it belongs to.
pub async fn latest_reports(db: &Db) -> Result<Vec<(String, String)>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT v.server_name, v.version, s.report FROM scans s JOIN versions v ON v.id = s.version_id
         WHERE s.report IS NOT NULL
           AND s.finished_at = (SELECT MAX(s2.finished_at) FROM scans s2 WHERE s2.version_id = s.version_id)",
    )
    .fetch_all(db.pool())
    .await?;
    rows.iter()
        .map(|r| {
            let name: String = r.try_get("server_name")?;
            let version: String = r.try_get("version")?;
            Ok((format!("{name}@{version}"), r.try_get("report")?))
        })
        .collect()
}

/// A server as the servers list shows it.
#[derive(Debug, Clone)]
pub struct ServerSummary {
    /// Server name.
    pub name: String,
    /// Owning publisher.
    pub publisher: String,
    /// Number of versions.
    pub versions: i64,
    /// Number of approved versions.
    pub approved: i64,
    /// Last change.
    pub updated_at: String,
}

/// Servers whose name contains `search` (case-insensitive), by name, with the total.
pub async fn list_servers(
    db: &Db,
    search: Option<&str>,
    offset: i64,
    limit: i64,
) -> Result<(Vec<ServerSummary>, i64), sqlx::Error> {
    let pattern = search
        .filter(|s| !s.is_empty())
        .map(super::contains_pattern);
    let rows = sqlx::query(
        "SELECT s.name AS name, p.name AS publisher,
                (SELECT COUNT(*) FROM versions v WHERE v.server_id = s.id) AS versions,
                (SELECT COUNT(*) FROM versions v WHERE v.server_id = s.id AND v.status = 'approved') AS approved,
                s.updated_at AS updated_at
         FROM servers s JOIN publishers p ON p.id = s.publisher_id
         WHERE ($1 IS NULL OR LOWER(s.name) LIKE $1 ESCAPE '\\')
         ORDER BY s.name LIMIT $2 OFFSET $3",
    )
    .bind(pattern.as_deref())
    .bind(limit)
    .bind(offset)
    .fetch_all(db.pool())
    .await?;
    let total = sqlx::query(
        "SELECT COUNT(*) AS n FROM servers s WHERE ($1 IS NULL OR LOWER(s.name) LIKE $1 ESCAPE '\\')",
    )
    .bind(pattern.as_deref())
    .fetch_one(db.pool())
    .await?
    .try_get("n")?;
    let servers = rows
        .iter()
        .map(|r| {
            Ok(ServerSummary {
                name: r.try_get("name")?,
                publisher: r.try_get("publisher")?,
                versions: r.try_get("versions")?,
                approved: r.try_get("approved")?,
                updated_at: r.try_get("updated_at")?,
            })
        })
        .collect::<Result<_, sqlx::Error>>()?;
    Ok((servers, total))
}

/// Records the tools an approval covers (replacing any earlier record): the
/// names other servers' tools are checked against for shadowing.
pub async fn replace_approved_tools(
    tx: &mut Tx,
    version_id: &str,
    server_name: &str,
    tools: &[String],
) -> Result<(), sqlx::Error> {
    clear_approved_tools(tx, version_id).await?;
    for name in tools {
        sqlx::query("INSERT INTO approved_tools (version_id, server_name, tool_name) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING")
            .bind(version_id)
            .bind(server_name)
            .bind(name)
            .execute(tx.conn())
            .await?;
    }
    Ok(())
}

/// Forgets the approved tools of a version (rejected, revoked, back to review).
pub async fn clear_approved_tools(tx: &mut Tx, version_id: &str) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM approved_tools WHERE version_id = $1")
        .bind(version_id)
        .execute(tx.conn())
        .await?;
    Ok(())
}

/// `(tool, server)` of every tool of an approved version, except those of `except_server`.
pub async fn approved_tools(
    db: &Db,
    except_server: &str,
) -> Result<Vec<(String, String)>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT t.tool_name, t.server_name FROM approved_tools t JOIN versions v ON v.id = t.version_id
         WHERE v.status = 'approved' AND t.server_name <> $1",
    )
    .bind(except_server)
    .fetch_all(db.pool())
    .await?;
    rows.iter()
        .map(|r| Ok((r.try_get("tool_name")?, r.try_get("server_name")?)))
        .collect()
}

/// The audiences of a version's approval decision (inside `tx`), empty without one.
pub async fn approval_audiences(tx: &mut Tx, version_id: &str) -> Result<Vec<String>, sqlx::Error> {
    let row = sqlx::query("SELECT audiences FROM approvals WHERE version_id = $1")
        .bind(version_id)
        .fetch_optional(tx.conn())
        .await?;
    Ok(match row {
        Some(r) => serde_json::from_str(&r.try_get::<String, _>("audiences")?).unwrap_or_default(),
        None => Vec::new(),
    })
}
