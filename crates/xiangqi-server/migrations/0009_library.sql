-- A player's library of imported games (`POST /api/library/import`,
-- docs/server.md, "Library"): each game as the PGN text our writer makes of
-- what the gamefile crate read, where it came from (the import it came in,
-- the file's name and format, its number in the file), the fields the list
-- shows and filters on, and the engine's review of it (as `reviews` keeps
-- one per played game). Deleting the account deletes its library.
-- player_key: both names lower-cased by the server (SQLite's LOWER knows
-- ASCII only), which the list's player filter matches.
CREATE TABLE library_games (
    id            TEXT PRIMARY KEY,
    owner         TEXT NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    batch         TEXT NOT NULL,
    source_name   TEXT NOT NULL,
    source_format TEXT NOT NULL,
    source_index  BIGINT NOT NULL,
    red           TEXT NOT NULL,
    black         TEXT NOT NULL,
    player_key    TEXT NOT NULL,
    event         TEXT NOT NULL,
    game_date     TEXT NOT NULL,
    result        TEXT NOT NULL,
    ecco          TEXT,
    opening       TEXT,
    plies         BIGINT NOT NULL,
    pgn           TEXT NOT NULL,
    review_pgn    TEXT,
    review_error  TEXT,
    reviewed_at   BIGINT,
    created_at    BIGINT NOT NULL
);
CREATE INDEX library_games_by_owner ON library_games (owner, created_at);
CREATE INDEX library_games_by_batch ON library_games (owner, batch);
