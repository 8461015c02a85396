-- Swiss tournaments and round robins (docs/tournaments.md): a tournament's
-- planned rounds and the round paired last; the round of each game; the
-- pairing-allocated byes (a Swiss round's odd player out, one a player).
ALTER TABLE tournaments ADD COLUMN rounds INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tournaments ADD COLUMN round INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tournament_games ADD COLUMN round INTEGER NOT NULL DEFAULT 0;

CREATE TABLE tournament_byes (
    tournament TEXT NOT NULL,
    round INTEGER NOT NULL,
    account TEXT NOT NULL,
    PRIMARY KEY (tournament, round)
);
