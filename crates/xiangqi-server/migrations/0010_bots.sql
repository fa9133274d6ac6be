-- Bots: accounts played by an engine through the bot API, their API tokens,
-- and their pool of ratings. Same SQL on SQLite and PostgreSQL (0001's types).
--
-- players.bot: 1 once the account was upgraded to a bot (for good; refused
-- after any game, so a player's games are either all bot games or none of
-- theirs are by their side). players.bot_rating: the bot pool's rating,
-- which every game with a bot on either side changes when rated; NULL until
-- the first rated bot game (the start rating is shown).
ALTER TABLE players ADD COLUMN bot BIGINT NOT NULL DEFAULT 0 CHECK (bot IN (0, 1));
ALTER TABLE players ADD COLUMN bot_rating BIGINT;

-- games.bot: 1 for a game with a bot on either side (written at the start).
ALTER TABLE games ADD COLUMN bot BIGINT NOT NULL DEFAULT 0 CHECK (bot IN (0, 1));

-- api_tokens: a player's tokens for the bot API, stored as the token's
-- SHA-256 (hex), never the token. last_used_at is written at most once a
-- minute per token.
CREATE TABLE api_tokens (
    id           TEXT PRIMARY KEY,
    player       TEXT NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    token_hash   TEXT NOT NULL UNIQUE,
    description  TEXT NOT NULL,
    created_at   BIGINT NOT NULL,
    last_used_at BIGINT
);
CREATE INDEX api_tokens_by_player ON api_tokens (player, created_at);

-- bot_rating_changes: the bot pool's changes, as rating_changes is the
-- normal pool's (a bot game never writes rating_changes).
CREATE TABLE bot_rating_changes (
    player        TEXT NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    game          TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    rating_before BIGINT NOT NULL,
    rating_after  BIGINT NOT NULL,
    at_ms         BIGINT NOT NULL,
    PRIMARY KEY (player, game)
);
