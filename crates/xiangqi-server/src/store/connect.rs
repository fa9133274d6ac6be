//! Opening the pools: SQLite's pragmas and pool sizes, PostgreSQL's pool,
//! the migrations.

use std::time::Duration;

use sqlx::any::AnyPoolOptions;
use sqlx::AnyConnection;
use sqlx::{AnyPool, Executor};

use super::{migrations, StoreError};

/// Readers on SQLite: reads of different games run side by side.
const SQLITE_READERS: u32 = 4;
/// Connections to PostgreSQL (it has its own writer concurrency).
const POSTGRES_CONNECTIONS: u32 = 16;
/// How long a SQLite statement waits for a lock held by another process
/// (within this process the single writer connection never waits).
const SQLITE_BUSY_TIMEOUT_MS: u32 = 5_000;
/// How long a call waits for a free connection before failing.
const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(10);
/// How often the log is copied into the database file (see
/// [`spawn_checkpoints`]).
const CHECKPOINT_EVERY: Duration = Duration::from_secs(1);

/// The writer and reader pools for `url`, migrated.
pub(super) async fn pools(url: &str) -> Result<(AnyPool, AnyPool), StoreError> {
    sqlx::any::install_default_drivers();
    if is_sqlite(url) {
        probe(url, true).await.map_err(|e| {
            StoreError::Database(format!(
                "cannot open the SQLite database {:?}: {e}",
                sqlite_path(url)
            ))
        })?;
        sqlite_pools(url).await
    } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        // The URL may hold a password: never put it in the message.
        let unreachable =
            |e: sqlx::Error| StoreError::Database(format!("cannot connect to PostgreSQL: {e}"));
        probe(url, false).await.map_err(unreachable)?;
        let pool = AnyPoolOptions::new()
            .max_connections(POSTGRES_CONNECTIONS)
            .acquire_timeout(ACQUIRE_TIMEOUT)
            .connect(url)
            .await
            .map_err(unreachable)?;
        migrate(&pool, "the PostgreSQL database").await?;
        Ok((pool.clone(), pool))
    } else {
        Err(StoreError::Database(
            "unsupported database URL: expected sqlite://PATH?mode=rwc or postgres://…".into(),
        ))
    }
}

/// One connection first, to report why a database cannot be used (a pool
/// retries failed connections until its timeout and then reports only that).
/// On SQLite, WAL mode is set here: it is a property of the file, and reading
/// the file's header finds a file that is no database.
async fn probe(url: &str, sqlite: bool) -> Result<(), sqlx::Error> {
    use sqlx::Connection;
    let mut conn = AnyConnection::connect(url).await?;
    if sqlite {
        conn.execute("PRAGMA journal_mode = WAL;").await?;
    }
    conn.close().await
}

fn is_sqlite(url: &str) -> bool {
    url.starts_with("sqlite:")
}

/// The file (or `:memory:`) a SQLite URL names, for messages.
fn sqlite_path(url: &str) -> &str {
    let rest = url.trim_start_matches("sqlite:").trim_start_matches("//");
    rest.split('?').next().unwrap_or(rest)
}

/// WAL with `synchronous=NORMAL`: a commit is an append to the log, written
/// to the operating system before the call returns, so a killed process
/// loses nothing committed; only a power loss or OS crash can lose the last
/// transactions (never corrupt the file). Foreign keys are off by default in
/// SQLite and on here, as on PostgreSQL.
async fn sqlite_pragmas(conn: &mut AnyConnection) -> Result<(), sqlx::Error> {
    conn.execute(
        format!(
            "PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}; PRAGMA synchronous = NORMAL; \
             PRAGMA foreign_keys = ON;"
        )
        .as_str(),
    )
    .await?;
    Ok(())
}

async fn sqlite_pools(url: &str) -> Result<(AnyPool, AnyPool), StoreError> {
    let path = sqlite_path(url).to_string();
    let cannot_open = |e: sqlx::Error| {
        StoreError::Database(format!("cannot open the SQLite database {path:?}: {e}"))
    };
    // One writer: SQLite takes one write transaction at a time, and waiting in
    // the pool's queue is fairer and cheaper than retrying a busy lock.
    let writer = AnyPoolOptions::new()
        .max_connections(1)
        .acquire_timeout(ACQUIRE_TIMEOUT)
        // The pool's liveness ping before each use is a second round trip
        // to the connection's thread for every statement; an embedded
        // database has no network to lose (moves are one INSERT each).
        .test_before_acquire(false)
        .after_connect(|conn, _| {
            Box::pin(async move {
                sqlite_pragmas(conn).await?;
                // Checkpoints run beside the writer, not in its commits.
                conn.execute("PRAGMA wal_autocheckpoint = 0;").await?;
                Ok(())
            })
        })
        .connect(url)
        .await
        .map_err(cannot_open)?;
    migrate(&writer, &format!("the SQLite database {path:?}")).await?;
    if path.contains(":memory:") || url.contains("mode=memory") {
        // Each connection to an in-memory database would see its own database.
        return Ok((writer.clone(), writer));
    }
    let reader = AnyPoolOptions::new()
        .max_connections(SQLITE_READERS)
        .acquire_timeout(ACQUIRE_TIMEOUT)
        .test_before_acquire(false)
        .after_connect(|conn, _| Box::pin(async move { sqlite_pragmas(conn).await }))
        .connect(url)
        .await
        .map_err(cannot_open)?;
    spawn_checkpoints(reader.clone());
    Ok((writer, reader))
}

/// Copies the log into the database file every [`CHECKPOINT_EVERY`] from a
/// reader connection. SQLite's own checkpoint runs inside the commit that
/// fills the log past 1 000 pages and `fsync`s the log and the database
/// there: about once a second at 500 moves/s, the one writer stalled for
/// 5-15 ms (hundreds of ms on a busy disk) and every move waiting for its
/// event to be stored with it. A passive checkpoint from another connection
/// takes no write lock, so the writer goes on appending meanwhile.
fn spawn_checkpoints(reader: AnyPool) {
    tokio::spawn(async move {
        let mut every = tokio::time::interval(CHECKPOINT_EVERY);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            every.tick().await;
            if reader.is_closed() {
                return;
            }
            if let Err(error) = sqlx::query("PRAGMA wal_checkpoint(PASSIVE)")
                .execute(&reader)
                .await
            {
                tracing::warn!("SQLite checkpoint: {error}");
            }
        }
    });
}

async fn migrate(pool: &AnyPool, what: &str) -> Result<(), StoreError> {
    let migrator = sqlx::migrate::Migrator::new(migrations::Embedded)
        .await
        .map_err(|e| StoreError::Database(format!("cannot read the migrations: {e}")))?;
    migrator
        .run(pool)
        .await
        .map_err(|e| StoreError::Database(format!("cannot set up {what}: {e}")))
}
