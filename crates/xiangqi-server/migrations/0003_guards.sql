-- Names that pose as others, and guests that expire.
-- name_skeleton: the name's confusable key (Unicode TS #39 skeleton regardless
-- of case, `security::names::skeleton_key`); a new account's may not equal
-- another player's. Filled by the server for rows made before this migration.
-- last_seen: unix ms a guest last used its session (refreshed at most hourly);
-- a guest without games unused for 7 days is deleted with its sessions.
ALTER TABLE players ADD COLUMN name_skeleton TEXT;
ALTER TABLE players ADD COLUMN last_seen BIGINT;
CREATE INDEX players_by_skeleton ON players (name_skeleton);
CREATE INDEX players_by_last_seen ON players (guest, last_seen);
