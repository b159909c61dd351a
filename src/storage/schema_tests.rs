//! The SQLite and PostgreSQL migrations must define one schema: the same
//! tables, columns (type family and nullability), primary keys and indexes.
//! Both schemas are read back from live databases migrated by
//! [`Db::connect`] (`sqlite_master` and the `pragma_*` functions on one side,
//! `information_schema` and `pg_index` on the other), so what is compared is
//! what the engines made of the SQL, not the SQL text. The PostgreSQL part
//! runs when `GATEHOUSE_TEST_POSTGRES_URL` is set (on a fresh database).

use std::collections::{BTreeMap, BTreeSet};

use sqlx::{Connection as _, Row};

use super::Db;

/// A schema, reduced to what both engines can say alike.
#[derive(Debug, Default, PartialEq, Eq)]
struct Schema {
    /// Table → columns: `(name, type family, nullable)`, in name order.
    columns: BTreeMap<String, Vec<(String, &'static str, bool)>>,
    /// Table → primary key columns, in key order.
    primary_keys: BTreeMap<String, Vec<String>>,
    /// Every other index (explicit or behind a UNIQUE constraint):
    /// `(table, unique, columns or lower-cased expressions)`.
    indexes: BTreeSet<(String, bool, Vec<String>)>,
    /// Names of the indexes the migrations create by name (`CREATE INDEX`).
    named_indexes: BTreeSet<String>,
}

/// `TEXT` or an integer of any width (SQLite's `INTEGER` is PostgreSQL's `BIGINT`).
fn family(declared: &str) -> &'static str {
    let t = declared.to_ascii_lowercase();
    if t.contains("int") || t.contains("serial") {
        "integer"
    } else if t == "text" {
        "text"
    } else {
        panic!("a column of type {declared:?}: the schema sticks to TEXT and integers")
    }
}

fn normalise_expression(e: &str) -> String {
    e.chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_lowercase()
}

/// The parenthesised items after `ON table` in a `CREATE INDEX` statement.
fn index_items(sql: &str) -> Vec<String> {
    let open = sql.find('(').expect("an index column list");
    let close = sql.rfind(')').expect("an index column list");
    let mut items = Vec::new();
    let (mut depth, mut current) = (0, String::new());
    for c in sql[open + 1..close].chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                items.push(std::mem::take(&mut current));
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    items.push(current);
    items.iter().map(|i| normalise_expression(i)).collect()
}

async fn sqlite_schema(db: &Db) -> Schema {
    let pool = db.pool();
    let mut schema = Schema::default();
    let tables: Vec<String> = sqlx::query(
        "SELECT name FROM sqlite_master WHERE type = 'table'
         AND name NOT LIKE 'sqlite_%' AND name <> '_sqlx_migrations' ORDER BY name",
    )
    .fetch_all(pool)
    .await
    .unwrap()
    .iter()
    .map(|r| r.get("name"))
    .collect();
    for table in tables {
        let mut columns = Vec::new();
        let mut pk: Vec<(i64, String)> = Vec::new();
        for r in
            sqlx::query("SELECT name, type, \"notnull\" AS not_null, pk FROM pragma_table_info($1)")
                .bind(&table)
                .fetch_all(pool)
                .await
                .unwrap()
        {
            let name: String = r.get("name");
            let in_pk = r.get::<i64, _>("pk");
            if in_pk > 0 {
                pk.push((in_pk, name.clone()));
            }
            // A primary key column is never null, whatever SQLite lets it say.
            let nullable = r.get::<i64, _>("not_null") == 0 && in_pk == 0;
            columns.push((name, family(&r.get::<String, _>("type")), nullable));
        }
        columns.sort();
        pk.sort();
        schema.columns.insert(table.clone(), columns);
        schema
            .primary_keys
            .insert(table.clone(), pk.into_iter().map(|(_, n)| n).collect());
        for r in sqlx::query("SELECT name, \"unique\" AS uniq, origin FROM pragma_index_list($1)")
            .bind(&table)
            .fetch_all(pool)
            .await
            .unwrap()
        {
            let (name, origin): (String, String) = (r.get("name"), r.get("origin"));
            if origin == "pk" {
                continue;
            }
            let sql: Option<String> =
                sqlx::query("SELECT sql FROM sqlite_master WHERE type = 'index' AND name = $1")
                    .bind(&name)
                    .fetch_one(pool)
                    .await
                    .unwrap()
                    .get("sql");
            let mut columns = Vec::new();
            for c in sqlx::query("SELECT seqno, name FROM pragma_index_info($1) ORDER BY seqno")
                .bind(&name)
                .fetch_all(pool)
                .await
                .unwrap()
            {
                let column: Option<String> = c.get("name");
                columns.push(match column {
                    Some(column) => column,
                    None => {
                        let items = index_items(sql.as_deref().expect("an expression index"));
                        items[c.get::<i64, _>("seqno") as usize].clone()
                    }
                });
            }
            schema
                .indexes
                .insert((table.clone(), r.get::<i64, _>("uniq") == 1, columns));
            if origin == "c" {
                schema.named_indexes.insert(name);
            }
        }
    }
    schema
}

async fn postgres_schema(db: &Db) -> Schema {
    let pool = db.pool();
    let mut schema = Schema::default();
    for r in sqlx::query(
        "SELECT table_name::text AS tbl, column_name::text AS col, data_type::text AS ty,
                is_nullable::text AS nullable
         FROM information_schema.columns
         WHERE table_schema = current_schema() AND table_name <> '_sqlx_migrations'",
    )
    .fetch_all(pool)
    .await
    .unwrap()
    {
        schema.columns.entry(r.get("tbl")).or_default().push((
            r.get("col"),
            family(&r.get::<String, _>("ty")),
            r.get::<String, _>("nullable") == "YES",
        ));
    }
    for columns in schema.columns.values_mut() {
        columns.sort();
    }
    for table in schema.columns.keys() {
        schema.primary_keys.insert(table.clone(), Vec::new());
    }
    let rows = sqlx::query(
        "SELECT t.relname::text AS tbl, c.relname::text AS idx,
                CASE WHEN i.indisunique THEN 1 ELSE 0 END::bigint AS uniq,
                CASE WHEN i.indisprimary THEN 1 ELSE 0 END::bigint AS pk,
                CASE WHEN EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)
                     THEN 1 ELSE 0 END::bigint AS backed,
                pg_get_indexdef(i.indexrelid, k.n, true) AS col
         FROM pg_index i
         JOIN pg_class c ON c.oid = i.indexrelid
         JOIN pg_class t ON t.oid = i.indrelid
         JOIN pg_namespace ns ON ns.oid = t.relnamespace
         CROSS JOIN LATERAL generate_series(1, i.indnkeyatts) AS k(n)
         WHERE ns.nspname = current_schema() AND t.relname <> '_sqlx_migrations'
         ORDER BY tbl, idx, k.n",
    )
    .fetch_all(pool)
    .await
    .unwrap();
    /// One PostgreSQL index as read, before it is sorted into the schema.
    struct PgIndex {
        unique: bool,
        primary: bool,
        /// Behind a constraint (PRIMARY KEY, UNIQUE) rather than created by name.
        backed: bool,
        columns: Vec<String>,
    }
    let mut indexes: BTreeMap<(String, String), PgIndex> = BTreeMap::new();
    for r in rows {
        let entry = indexes
            .entry((r.get("tbl"), r.get("idx")))
            .or_insert_with(|| PgIndex {
                unique: r.get::<i64, _>("uniq") == 1,
                primary: r.get::<i64, _>("pk") == 1,
                backed: r.get::<i64, _>("backed") == 1,
                columns: Vec::new(),
            });
        entry
            .columns
            .push(normalise_expression(&r.get::<String, _>("col")));
    }
    for ((table, name), index) in indexes {
        if index.primary {
            schema.primary_keys.insert(table, index.columns);
            continue;
        }
        schema.indexes.insert((table, index.unique, index.columns));
        if !index.backed {
            schema.named_indexes.insert(name);
        }
    }
    schema
}

async fn fresh_postgres(base: &str) -> String {
    sqlx::any::install_default_drivers();
    let name = format!("gh_schema_{}", uuid::Uuid::new_v4().simple());
    let mut conn = sqlx::AnyConnection::connect(base)
        .await
        .expect("connect to PostgreSQL");
    sqlx::query(&format!("CREATE DATABASE {name}"))
        .execute(&mut conn)
        .await
        .expect("create a database");
    let mut url = url::Url::parse(base).expect("a PostgreSQL URL");
    url.set_path(&name);
    url.to_string()
}

#[tokio::test]
async fn the_sqlite_and_postgres_migrations_define_the_same_schema() {
    let dir = tempfile::tempdir().unwrap();
    let sqlite = Db::connect(&format!(
        "sqlite://{}",
        dir.path().join("schema.db").display()
    ))
    .await
    .unwrap();
    let lite = sqlite_schema(&sqlite).await;
    // The reading itself must see the schema, or an empty comparison passes.
    assert!(lite.columns.len() >= 15, "{:?}", lite.columns.keys());
    assert!(lite.named_indexes.contains("servers_name_lower"));
    assert!(
        lite.indexes
            .contains(&("servers".to_string(), true, vec!["lower(name)".to_string()]))
    );
    assert_eq!(lite.primary_keys["audit_log"], ["id"]);

    let Ok(base) = std::env::var("GATEHOUSE_TEST_POSTGRES_URL") else {
        eprintln!("SKIPPED: PostgreSQL part (set GATEHOUSE_TEST_POSTGRES_URL to run it)");
        return;
    };
    let postgres = Db::connect(&fresh_postgres(&base).await).await.unwrap();
    let pg = postgres_schema(&postgres).await;

    let tables = |s: &Schema| s.columns.keys().cloned().collect::<Vec<_>>();
    assert_eq!(tables(&lite), tables(&pg), "tables");
    for (table, columns) in &lite.columns {
        assert_eq!(columns, &pg.columns[table], "columns of {table}");
    }
    assert_eq!(lite.primary_keys, pg.primary_keys, "primary keys");
    assert_eq!(lite.indexes, pg.indexes, "indexes");
    assert_eq!(lite.named_indexes, pg.named_indexes, "index names");
}

#[test]
fn an_expression_index_is_read_item_by_item() {
    assert_eq!(
        index_items("CREATE UNIQUE INDEX x ON servers (LOWER(name), version)"),
        ["lower(name)", "version"]
    );
}
