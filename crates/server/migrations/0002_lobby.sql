-- The lobby and what players agree on: listed games (the open games list
-- and quick play), draw offers, rematches, bots, and when a game last saw
-- a step (untimed games left alone end after a while).
ALTER TABLE games ADD COLUMN listed BIGINT NOT NULL DEFAULT 0;
-- 'x' or 'o': the side whose draw offer stands; '' for none.
ALTER TABLE games ADD COLUMN draw_offer TEXT NOT NULL DEFAULT '';
-- The id of the rematch game, once one side asked for it; '' for none.
ALTER TABLE games ADD COLUMN rematch_id TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN last_active_ms BIGINT NOT NULL DEFAULT 0;

CREATE INDEX games_listed ON games (listed, finished);

-- Registered bots: one secret token (its SHA-256, hex) a bot plays all its games with.
CREATE TABLE bots (
    name TEXT PRIMARY KEY,
    token TEXT NOT NULL,
    created_ms BIGINT NOT NULL
);
CREATE INDEX bots_token ON bots (token);

-- 1: correspondence (each turn gets clock_base_ms), 0: Fischer.
ALTER TABLE games ADD COLUMN clock_per_turn BIGINT NOT NULL DEFAULT 0;
