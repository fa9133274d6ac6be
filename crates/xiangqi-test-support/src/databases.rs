//! The databases the server's tests run on: a SQLite file in a temp dir,
//! and a fresh schema of the test PostgreSQL server named by
//! `XIANGQI_TEST_POSTGRES_URL` (`cargo xtask test` and `cargo xtask
//! postgres -- COMMAND` start one and set it). Without the variable a test
//! on PostgreSQL says it is skipped, and fails under `CI=true`.

/// The variable naming the test PostgreSQL server.
pub const POSTGRES_URL_VAR: &str = "XIANGQI_TEST_POSTGRES_URL";

/// A SQLite database file in a temp dir (the dir lives as long as this).
pub struct TempSqlite {
    _dir: tempfile::TempDir,
    /// `sqlite://DIR/xiangqi.db?mode=rwc`.
    pub url: String,
}

impl TempSqlite {
    pub fn new() -> TempSqlite {
        let dir = tempfile::tempdir().unwrap();
        let url = format!(
            "sqlite://{}?mode=rwc",
            dir.path().join("xiangqi.db").display()
        );
        TempSqlite { _dir: dir, url }
    }
}

impl Default for TempSqlite {
    fn default() -> TempSqlite {
        TempSqlite::new()
    }
}

/// The test PostgreSQL server's URL, or `None` when it is not set: then
/// `what` is said to be skipped (once per test binary, on the real stderr),
/// and under `CI=true` that is a failure.
pub fn test_postgres_url(what: &str) -> Option<String> {
    match std::env::var(POSTGRES_URL_VAR) {
        Ok(url) if !url.is_empty() => Some(url),
        _ => {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "{POSTGRES_URL_VAR} is not set under CI=true: `cargo xtask test` starts PostgreSQL and sets it"
            );
            static SKIP_NOTICE: std::sync::Once = std::sync::Once::new();
            SKIP_NOTICE.call_once(|| {
                use std::io::Write;
                let _ = writeln!(
                    std::io::stderr(),
                    "SKIPPED: the PostgreSQL runs of {what} ({POSTGRES_URL_VAR} is not set; \
                     `cargo xtask test` starts a server and sets it)"
                );
            });
            None
        }
    }
}

/// A schema of its own on the test PostgreSQL server, made afresh.
pub struct PgSchema {
    admin_url: String,
    /// The schema's name: `NAME_PID`.
    pub name: String,
    /// The server's URL with this schema as the search path: what a store
    /// (or every node of a cluster) opens.
    pub url: String,
}

impl PgSchema {
    /// Drops any schema `NAME_PID` (left by an earlier run of this process
    /// id) and makes it again on the server at `admin_url`.
    pub async fn fresh(admin_url: &str, name: &str) -> PgSchema {
        let schema = format!("{name}_{}", std::process::id());
        execute(
            admin_url,
            &format!("DROP SCHEMA IF EXISTS {schema} CASCADE; CREATE SCHEMA {schema}"),
        )
        .await;
        let separator = if admin_url.contains('?') { '&' } else { '?' };
        PgSchema {
            url: format!("{admin_url}{separator}options=-c%20search_path%3D{schema}"),
            admin_url: admin_url.to_owned(),
            name: schema,
        }
    }

    /// Drops the schema and everything in it.
    pub async fn drop_schema(self) {
        execute(
            &self.admin_url,
            &format!("DROP SCHEMA {} CASCADE", self.name),
        )
        .await;
    }
}

async fn execute(url: &str, sql: &str) {
    use sqlx::Connection;
    let mut admin = sqlx::PgConnection::connect(url).await.unwrap();
    sqlx::Executor::execute(&mut admin, sql).await.unwrap();
}

/// Each named `async fn(Store)` of the calling test file as a test on a
/// temp SQLite file and one on a fresh PostgreSQL schema (`PREFIX_TEST_PID`,
/// dropped after the test), each store opened by `open(url)` (a future of
/// a `Result`): `on_both_databases!(Store::open, "t"; a_test, another);`.
#[macro_export]
macro_rules! on_both_databases {
    ($open:path, $prefix:literal; $($name:ident),* $(,)?) => {
        mod sqlite {
            #[allow(unused_imports)]
            use super::*;
            $(
                #[tokio::test]
                async fn $name() {
                    let file = $crate::databases::TempSqlite::new();
                    let store = $open(&file.url).await.unwrap();
                    super::$name(store).await;
                }
            )*
        }
        mod postgres {
            #[allow(unused_imports)]
            use super::*;
            $(
                #[tokio::test]
                async fn $name() {
                    let what = env!("CARGO_CRATE_NAME");
                    if let Some(url) = $crate::databases::test_postgres_url(what) {
                        let name = concat!($prefix, "_", stringify!($name));
                        let schema = $crate::databases::PgSchema::fresh(&url, name).await;
                        super::$name($open(&schema.url).await.unwrap()).await;
                        schema.drop_schema().await;
                    }
                }
            )*
        }
    };
}
