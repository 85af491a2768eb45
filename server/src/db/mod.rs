//! Database access: one `sqlx::AnyPool` for SQLite or PostgreSQL, chosen by `DATABASE_URL`.
//!
//! Conventions that keep one SQL text valid on both backends (see ARCHITECTURE.md):
//! - placeholders `$1, $2, ...` (SQLite accepts them);
//! - ids are TEXT (hyphenated UUID), timestamps are BIGINT unix seconds, flags are BIGINT 0/1
//!   (the `Any` driver cannot decode SQLite integers as `bool`);
//! - DDL lives in `migrations/sqlite` and `migrations/postgres` with the same file names.

pub mod sql;

use std::{path::Path, str::FromStr, time::Duration};

use sqlx::{
    AnyPool, Executor,
    any::{AnyConnectOptions, AnyPoolOptions},
    migrate::Migrator,
};

pub type Db = AnyPool;

static SQLITE_MIGRATOR: Migrator = sqlx::migrate!("./migrations/sqlite");
static POSTGRES_MIGRATOR: Migrator = sqlx::migrate!("./migrations/postgres");

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    pub fn of_url(url: &str) -> Backend {
        if url.starts_with("sqlite:") {
            Backend::Sqlite
        } else {
            Backend::Postgres
        }
    }
}

/// Connects (creating the SQLite file and its folder when needed), applies pragmas and runs
/// the migrations.
pub async fn connect_and_migrate(url: &str, max_connections: u32) -> Result<Db, sqlx::Error> {
    let pool = connect(url, max_connections).await?;
    migrator(url).run(&pool).await?;
    Ok(pool)
}

fn migrator(url: &str) -> &'static Migrator {
    match Backend::of_url(url) {
        Backend::Sqlite => &SQLITE_MIGRATOR,
        Backend::Postgres => &POSTGRES_MIGRATOR,
    }
}

/// The migrations of this build not yet applied to the database: `(version, description)`.
pub async fn pending_migrations(db: &Db, url: &str) -> Result<Vec<(i64, String)>, sqlx::Error> {
    // No table yet: nothing applied.
    let applied: Vec<(i64,)> =
        sqlx::query_as("SELECT version FROM _sqlx_migrations WHERE success = TRUE")
            .fetch_all(db)
            .await
            .unwrap_or_default();
    Ok(migrator(url)
        .iter()
        .filter(|m| !m.migration_type.is_down_migration())
        .filter(|m| !applied.iter().any(|(v,)| *v == m.version))
        .map(|m| (m.version, m.description.to_string()))
        .collect())
}

/// Applies the pending migrations.
pub async fn migrate(db: &Db, url: &str) -> Result<(), sqlx::Error> {
    migrator(url).run(db).await?;
    Ok(())
}

/// Connects (creating the SQLite file and its folder when needed) and applies the pragmas,
/// without migrating.
pub async fn connect(url: &str, max_connections: u32) -> Result<Db, sqlx::Error> {
    sqlx::any::install_default_drivers();
    let backend = Backend::of_url(url);
    let mut url = url.to_string();
    if backend == Backend::Sqlite {
        url = ensure_sqlite_file(&url)?;
    }
    let options = AnyConnectOptions::from_str(&url)?;
    let pool = AnyPoolOptions::new()
        .max_connections(max_connections)
        .acquire_timeout(Duration::from_secs(10))
        .after_connect(move |conn, _meta| {
            Box::pin(async move {
                if backend == Backend::Sqlite {
                    // Durable commits, WAL for concurrent readers, wait on locks.
                    conn.execute("PRAGMA journal_mode = WAL").await?;
                    conn.execute("PRAGMA synchronous = FULL").await?;
                    conn.execute("PRAGMA foreign_keys = ON").await?;
                    conn.execute("PRAGMA busy_timeout = 10000").await?;
                    // Reads through a memory map instead of read() calls, and a larger page
                    // cache per connection: list and search queries scan thousands of rows.
                    conn.execute("PRAGMA mmap_size = 268435456").await?;
                    conn.execute("PRAGMA cache_size = -32768").await?;
                }
                Ok(())
            })
        })
        .connect_with(options)
        .await?;
    Ok(pool)
}

/// The file a `sqlite:` URL names (`None` for PostgreSQL and in-memory databases).
fn sqlite_file(url: &str) -> Option<&Path> {
    let rest = url.strip_prefix("sqlite://").or_else(|| url.strip_prefix("sqlite:"))?;
    let path = rest.split_once('?').map_or(rest, |(p, _)| p);
    (!path.is_empty() && path != ":memory:").then(|| Path::new(path))
}

/// Creates the folder of a SQLite file (owner-only) when it is missing.
fn create_sqlite_folder(path: &Path) -> std::io::Result<()> {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() && !parent.exists() => crate::files::create_private_dir(parent),
        _ => Ok(()),
    }
}

/// Makes sure the folder of a SQLite file exists and that the URL asks to create the file.
fn ensure_sqlite_file(url: &str) -> Result<String, sqlx::Error> {
    let Some(path) = sqlite_file(url) else {
        return Ok(url.to_string());
    };
    let query = url.split_once('?').map(|(_, q)| q);
    create_sqlite_folder(path).map_err(sqlx::Error::Io)?;
    // Owner-only from the first byte (SQLite gives -wal and -shm the same permissions).
    crate::files::touch_private(path).map_err(sqlx::Error::Io)?;
    crate::files::restrict_sqlite(path).map_err(sqlx::Error::Io)?;
    let path = path.display();
    Ok(match query {
        Some(q) if q.contains("mode=") => url.to_string(),
        Some(q) => format!("sqlite://{path}?{q}&mode=rwc"),
        None => format!("sqlite://{path}?mode=rwc"),
    })
}

/// The exclusive lock a serving process holds on `<SQLite file>.lock` for as long as it runs:
/// a second server process on the same file refuses to start. So one process serves a SQLite
/// database, and what it keeps in memory (its rate limits, `crate::ratelimit`) is the whole
/// deployment's. PostgreSQL needs no lock: several instances share it (README).
#[derive(Debug)]
pub struct InstanceLock {
    _file: Option<std::fs::File>,
}

impl InstanceLock {
    /// Takes the lock of the SQLite file `url` names; nothing to take for PostgreSQL.
    pub fn acquire(url: &str) -> Result<InstanceLock, String> {
        let Some(path) = sqlite_file(url) else {
            return Ok(InstanceLock { _file: None });
        };
        let mut lock_path = path.as_os_str().to_owned();
        lock_path.push(".lock");
        let lock_path = std::path::PathBuf::from(lock_path);
        let opened = create_sqlite_folder(path)
            .and_then(|()| crate::files::touch_private(&lock_path))
            .and_then(|()| std::fs::OpenOptions::new().write(true).open(&lock_path));
        let file = opened.map_err(|e| format!("{}: {e}", lock_path.display()))?;
        match file.try_lock() {
            Ok(()) => Ok(InstanceLock { _file: Some(file) }),
            Err(std::fs::TryLockError::WouldBlock) => Err(format!(
                "another server process serves {}: a SQLite database is served by one process \
                 (run several instances on PostgreSQL, see the README)",
                path.display()
            )),
            Err(std::fs::TryLockError::Error(e)) => Err(format!("{}: {e}", lock_path.display())),
        }
    }
}

/// Writes a consistent copy of a SQLite database to `to` while the server keeps running
/// (`VACUUM INTO`: one read transaction, so the copy is a snapshot; writers are not blocked in
/// WAL mode). The copy is owner-only and appears under its name only when complete; an
/// existing `to` is refused. PostgreSQL is backed up with `pg_dump` (README).
pub async fn backup_sqlite(db: &Db, to: &Path) -> Result<(), String> {
    if to.exists() {
        return Err(format!("{} already exists", to.display()));
    }
    let folder = match to.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    let name = to.file_name().ok_or_else(|| format!("{} is not a file name", to.display()))?;
    let mut partial = folder.join(".");
    partial.as_mut_os_string().push(name);
    partial.as_mut_os_string().push(".partial");
    let _ = std::fs::remove_file(&partial);
    // VACUUM INTO accepts an empty file: created first, so it is owner-only from the start.
    crate::files::touch_private(&partial).map_err(|e| format!("{}: {e}", partial.display()))?;
    let target = partial.to_str().ok_or("the backup path must be UTF-8")?.to_string();
    let result = sqlx::query("VACUUM INTO $1").bind(target).execute(db).await;
    if let Err(e) = result {
        let _ = std::fs::remove_file(&partial);
        return Err(format!("backup: {e}"));
    }
    std::fs::rename(&partial, to).map_err(|e| format!("{}: {e}", to.display()))
}

/// One round trip to the database (readiness).
pub async fn ping(db: &Db) -> Result<(), sqlx::Error> {
    sqlx::query_scalar::<_, i64>("SELECT 1").fetch_one(db).await.map(|_| ())
}

/// Current time as unix seconds.
pub fn now() -> i64 {
    time::OffsetDateTime::now_utc().unix_timestamp()
}

/// Unix seconds to an RFC 3339 / ISO 8601 UTC timestamp.
pub fn to_rfc3339(ts: i64) -> String {
    time::OffsetDateTime::from_unix_timestamp(ts)
        .ok()
        .and_then(|t| {
            t.format(&time::format_description::well_known::Rfc3339)
                .ok()
        })
        .unwrap_or_default()
}

/// Whether `id` can name a row: every id is a UUID, so anything else is answered 404 before
/// a query is made.
pub fn is_id(id: &str) -> bool {
    uuid::Uuid::try_parse(id).is_ok()
}

/// A new random UUID v4 as text.
pub fn new_id() -> String {
    uuid::Uuid::new_v4().hyphenated().to_string()
}
