-- Several server processes on one database agree because the row decides.
--
-- Every change of a game bumps `version`, and is written only where the
-- version is still the one its writer read (a conditional write): of two
-- processes changing the same game at once, one wins and the other is told
-- so and reloads.
ALTER TABLE games ADD COLUMN version BIGINT NOT NULL DEFAULT 0;
-- When the turn in progress started (ms since the Unix epoch): every process
-- works the clocks out from it.
ALTER TABLE games ADD COLUMN turn_started_ms BIGINT NOT NULL DEFAULT 0;
-- When the game ends unless someone acts (the running clock's flag falls,
-- or it is abandoned), in ms since the Unix epoch; finished games never.
ALTER TABLE games ADD COLUMN deadline_ms BIGINT NOT NULL DEFAULT 0;
-- 1 while the side to move is the computer, in a game being played.
ALTER TABLE games ADD COLUMN computer_to_move BIGINT NOT NULL DEFAULT 0;
-- Which process thinks the computer's turn, and until when its lease holds
-- (ms since the Unix epoch): another takes the turn over once it lapses.
ALTER TABLE games ADD COLUMN thinker TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN thinker_until_ms BIGINT NOT NULL DEFAULT 0;
-- The game this one is the rematch of ('' for none): one rematch a game.
ALTER TABLE games ADD COLUMN rematch_of TEXT NOT NULL DEFAULT '';

-- Games stored before: the turn in progress started at their last change,
-- and the computer may be to move (the server checks and corrects both).
UPDATE games SET turn_started_ms = last_active_ms;
UPDATE games SET computer_to_move = 1
    WHERE finished = 0 AND (x_player LIKE 'level:%' OR o_player LIKE 'level:%');

CREATE UNIQUE INDEX games_rematch_of ON games (rematch_of) WHERE rematch_of <> '';
CREATE INDEX games_deadline ON games (finished, deadline_ms);
CREATE INDEX games_computer ON games (computer_to_move, thinker_until_ms);

-- The service as a whole: when a server process was last alive. A process
-- that starts after every process was down moves the clocks of the games
-- in play on by the time nobody was there to serve them.
CREATE TABLE service (
    id BIGINT PRIMARY KEY,
    alive_ms BIGINT NOT NULL
);
INSERT INTO service (id, alive_ms) VALUES (1, 0);
