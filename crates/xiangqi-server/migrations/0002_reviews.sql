-- The engine's review of a finished game (`POST /api/games/{id}/annotate`):
-- the annotated PGN, or why it failed. One per game; a new review replaces it.
CREATE TABLE reviews (
    game         TEXT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    pgn          TEXT,
    error        TEXT,
    requested_by TEXT NOT NULL,
    finished_at  BIGINT NOT NULL
);
