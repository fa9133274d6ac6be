-- The first schema. The same text runs on SQLite and PostgreSQL, so it keeps
-- to types both share: TEXT, and BIGINT for integers, times (unix or game ms)
-- and flags (0/1; sqlx's Any driver reads SQLite's booleans as integers).

CREATE TABLE players (
    id            TEXT PRIMARY KEY,
    name          TEXT NOT NULL,
    -- The name in lower case: "Alice" and "alice" are one name.
    name_key      TEXT NOT NULL UNIQUE,
    guest         BIGINT NOT NULL CHECK (guest IN (0, 1)),
    password_hash TEXT,
    rating        BIGINT,
    notation      TEXT NOT NULL,
    created_at    BIGINT NOT NULL
);

CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    player     TEXT NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL
);

-- Sides are player ids or `engine-N`, so they are not foreign keys.
CREATE TABLE games (
    id           TEXT PRIMARY KEY,
    red          TEXT NOT NULL,
    black        TEXT NOT NULL,
    time_control TEXT NOT NULL,
    rated        BIGINT NOT NULL CHECK (rated IN (0, 1)),
    rules        TEXT NOT NULL,
    start_fen    TEXT NOT NULL,
    started_at   BIGINT NOT NULL
);
CREATE INDEX games_by_red ON games (red, started_at);
CREATE INDEX games_by_black ON games (black, started_at);

CREATE TABLE events (
    game  TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq   BIGINT NOT NULL,
    kind  TEXT NOT NULL,
    side  TEXT,
    mv    TEXT,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (game, seq)
);

-- A game has at most one ending; a game without one is still being played.
CREATE TABLE endings (
    game        TEXT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    status      TEXT NOT NULL,
    result      TEXT NOT NULL,
    reason      TEXT NOT NULL,
    ply         BIGINT NOT NULL,
    red_clock   BIGINT NOT NULL,
    black_clock BIGINT NOT NULL,
    ended_at    BIGINT NOT NULL
);

CREATE TABLE rating_changes (
    player        TEXT NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    game          TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    rating_before BIGINT NOT NULL,
    rating_after  BIGINT NOT NULL,
    at_ms         BIGINT NOT NULL,
    PRIMARY KEY (player, game)
);
CREATE INDEX rating_changes_by_time ON rating_changes (player, at_ms);
