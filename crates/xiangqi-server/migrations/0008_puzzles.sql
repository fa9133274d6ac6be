-- Puzzles (docs/puzzles.md): each player's puzzle rating and streak, each
-- puzzle's rating, and every puzzle served. Ratings are Glicko-2, stored as
-- BIGINT like every number of this schema: rating and deviation in
-- thousandths, volatility in millionths. A guest has a row for its streak;
-- its rating never moves.
CREATE TABLE puzzle_players (
    player           TEXT PRIMARY KEY REFERENCES players (id) ON DELETE CASCADE,
    rating_milli     BIGINT NOT NULL,
    deviation_milli  BIGINT NOT NULL,
    volatility_micro BIGINT NOT NULL,
    streak           BIGINT NOT NULL,
    best_streak      BIGINT NOT NULL,
    solved           BIGINT NOT NULL,
    failed           BIGINT NOT NULL
);

-- A puzzle without a row still has the rating its set gives it.
CREATE TABLE puzzle_ratings (
    puzzle           TEXT PRIMARY KEY,
    rating_milli     BIGINT NOT NULL,
    deviation_milli  BIGINT NOT NULL,
    volatility_micro BIGINT NOT NULL,
    plays            BIGINT NOT NULL
);

-- An attempt: a puzzle served to a player. ply: the plies of the solution
-- played so far (the player's moves and the replies); outcome NULL while
-- open, else 'solved', 'failed', 'shown' (the solution asked for) or
-- 'skipped' (left before any move). counts: the player's first attempt at
-- this puzzle, which moves the streak and, for an account, both ratings.
CREATE TABLE puzzle_attempts (
    id          TEXT PRIMARY KEY,
    player      TEXT NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    puzzle      TEXT NOT NULL,
    served_at   BIGINT NOT NULL,
    ply         BIGINT NOT NULL,
    outcome     TEXT,
    counts      BIGINT NOT NULL CHECK (counts IN (0, 1)),
    finished_at BIGINT
);
CREATE INDEX puzzle_attempts_by_player ON puzzle_attempts (player, puzzle);
