-- Two display settings of a player, as `notation` is one: the language of
-- the web client (a catalogue's code, `en`, `zh-Hans`, …) and its piece set
-- (`traditional` or `pictogram`). NULL until the player chooses: the client
-- then follows the browser's languages, and draws the traditional pieces.
ALTER TABLE players ADD COLUMN language TEXT;
ALTER TABLE players ADD COLUMN pieces TEXT;
