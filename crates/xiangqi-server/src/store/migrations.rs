//! The schema migrations, compiled into the binary: `migrations/NNNN_*.sql`,
//! applied in order at open and recorded in `_sqlx_migrations`.

use std::borrow::Cow;

use futures_util::future::BoxFuture;
use sqlx::error::BoxDynError;
use sqlx::migrate::{Migration, MigrationSource, MigrationType};

/// Version, description and SQL of each migration, oldest first. A released
/// migration is never edited (its checksum is stored): add a new one.
const MIGRATIONS: &[(i64, &str, &str)] = &[
    (
        1,
        "initial",
        include_str!("../../migrations/0001_initial.sql"),
    ),
    (
        2,
        "reviews",
        include_str!("../../migrations/0002_reviews.sql"),
    ),
    (
        3,
        "guards",
        include_str!("../../migrations/0003_guards.sql"),
    ),
    (
        4,
        "ending opening",
        include_str!("../../migrations/0004_ending_opening.sql"),
    ),
    (
        5,
        "game owners",
        include_str!("../../migrations/0005_game_owners.sql"),
    ),
    (
        6,
        "player language pieces",
        include_str!("../../migrations/0006_player_language_pieces.sql"),
    ),
    (
        7,
        "social",
        include_str!("../../migrations/0007_social.sql"),
    ),
    (
        8,
        "puzzles",
        include_str!("../../migrations/0008_puzzles.sql"),
    ),
    (10, "bots", include_str!("../../migrations/0010_bots.sql")),
];

/// The migrations above as a source for sqlx's migrator.
#[derive(Debug)]
pub(super) struct Embedded;

impl MigrationSource<'static> for Embedded {
    fn resolve(self) -> BoxFuture<'static, Result<Vec<Migration>, BoxDynError>> {
        Box::pin(async {
            Ok(MIGRATIONS
                .iter()
                .map(|&(version, description, sql)| {
                    Migration::new(
                        version,
                        Cow::Borrowed(description),
                        MigrationType::Simple,
                        Cow::Borrowed(sql),
                        false,
                    )
                })
                .collect())
        })
    }
}
