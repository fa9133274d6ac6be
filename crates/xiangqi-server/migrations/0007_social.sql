-- Chat, reports, account deletion and the player page's filters.
--
-- chat_messages: what players and spectators wrote during a game, kept with
-- the game. channel 'players' is the two players' chat, 'spectators' the
-- watchers'; body is plain text (the client renders it as text, never HTML).
CREATE TABLE chat_messages (
    id      TEXT PRIMARY KEY,
    game    TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    channel TEXT NOT NULL CHECK (channel IN ('players', 'spectators')),
    author  TEXT NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    body    TEXT NOT NULL,
    at_ms   BIGINT NOT NULL
);
CREATE INDEX chat_by_game ON chat_messages (game, at_ms);

-- reports: a player's complaint about a chat message (message set) or about
-- their opponent in a game (message NULL), for a moderator to read. The
-- reported player and the game are the server's, taken from the message or
-- the game, never from the request. One report per reporter and message.
CREATE TABLE reports (
    id         TEXT PRIMARY KEY,
    reporter   TEXT NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    reported   TEXT NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    game       TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    message    TEXT REFERENCES chat_messages (id) ON DELETE CASCADE,
    reason     TEXT NOT NULL,
    note       TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE UNIQUE INDEX reports_once_per_message ON reports (reporter, message);
CREATE INDEX reports_by_time ON reports (created_at);

-- deleted_at: unix ms an account was deleted; its name is then a stable
-- placeholder ("deleted-…"), it has no password and no session.
ALTER TABLE players ADD COLUMN deleted_at BIGINT;

-- A player's games against one opponent, newest first (the player page's
-- `opponent` filter); results are filtered on the endings joined by game.
CREATE INDEX games_by_red_black ON games (red, black, started_at);
CREATE INDEX games_by_black_red ON games (black, red, started_at);
CREATE INDEX endings_by_result ON endings (result);
