-- The name a person chose for a seat ('' for none; a bot's seat is named
-- by x_player/o_player), shown to the other player and to watchers.
ALTER TABLE games ADD COLUMN x_name TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN o_name TEXT NOT NULL DEFAULT '';
