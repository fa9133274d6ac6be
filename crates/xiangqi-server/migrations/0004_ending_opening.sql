-- The ECCO code of a game's moves, kept with its ending so a player's games
-- can be filtered by code (`GET /api/players/{name}?ecco=C2`): the code
-- (`C23`), or '' for a game without one (no move, or a set-up start).
-- NULL only for endings stored before this column: the server fills them
-- from the stored moves when it opens the store.
ALTER TABLE endings ADD COLUMN ecco TEXT;
