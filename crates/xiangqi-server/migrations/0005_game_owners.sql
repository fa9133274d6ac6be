-- Which node of a cluster runs each game's room (`xiangqi serve --bus`):
-- a lease, renewed by its node every second and taken over by another once
-- `expires_at` (unix ms) has passed. A single process never writes here.
CREATE TABLE game_owners (
    game       TEXT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    node       TEXT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX game_owners_by_node ON game_owners (node);
CREATE INDEX game_owners_by_expiry ON game_owners (expires_at);
