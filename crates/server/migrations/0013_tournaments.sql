-- Tournaments (issue 47, docs/tournaments.md): the tournament, its players
-- and its games. One process pairs a tournament at a time: the one whose
-- lease (`pairer`, until `pairer_until_ms`) holds; every pairing is one
-- transaction that names that lease in its first write.

CREATE TABLE tournaments (
    id TEXT PRIMARY KEY,
    -- `arena`.
    kind TEXT NOT NULL,
    name TEXT NOT NULL,
    -- The games' options, as `POST /api/games` takes them (a JSON object).
    settings TEXT NOT NULL,
    -- The games' rating category ('' where they are not rated).
    category TEXT NOT NULL,
    -- Who made it ('' for the server's schedule).
    created_by TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    starts_ms BIGINT NOT NULL,
    -- An arena pairs until then (ms since the Unix epoch).
    ends_ms BIGINT NOT NULL,
    -- Bots may join.
    bots BIGINT NOT NULL,
    max_players BIGINT NOT NULL,
    -- `soon`, `running`, `finished`.
    state TEXT NOT NULL,
    finished_ms BIGINT NOT NULL DEFAULT 0,
    -- One more at every change its pages show (a join, a pairing, a
    -- result): a page's socket sends the tournament again when it moves.
    version BIGINT NOT NULL DEFAULT 0,
    pairer TEXT NOT NULL DEFAULT '',
    pairer_until_ms BIGINT NOT NULL DEFAULT 0,
    -- The schedule's line and slot that made it ('' for none): one
    -- tournament a slot, whichever process makes it first.
    schedule TEXT NOT NULL DEFAULT ''
);
CREATE INDEX tournaments_state ON tournaments (state, starts_ms);
CREATE INDEX tournaments_creator ON tournaments (created_by, state);
CREATE UNIQUE INDEX tournaments_schedule ON tournaments (schedule) WHERE schedule <> '';

CREATE TABLE tournament_players (
    tournament TEXT NOT NULL,
    account TEXT NOT NULL,
    name TEXT NOT NULL,
    -- The player's rating in the games' category when it joined.
    rating BIGINT NOT NULL,
    joined_ms BIGINT NOT NULL,
    -- `in`, `paused` (not paired until it comes back), `left`.
    state TEXT NOT NULL,
    points BIGINT NOT NULL DEFAULT 0,
    -- Wins in a row (an arena's streak).
    streak BIGINT NOT NULL DEFAULT 0,
    -- The game it plays now ('' for none): a pairing is written only
    -- where it is '', so nobody is paired twice.
    playing TEXT NOT NULL DEFAULT '',
    -- When its last game ended (its join, before its first).
    free_since_ms BIGINT NOT NULL DEFAULT 0,
    last_opponent TEXT NOT NULL DEFAULT '',
    -- Games as X less games as O.
    x_balance BIGINT NOT NULL DEFAULT 0,
    -- Its place in the final standings (0 until the end).
    place BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (tournament, account)
);
CREATE INDEX tournament_players_account ON tournament_players (account, joined_ms);

CREATE TABLE tournament_games (
    game TEXT PRIMARY KEY,
    tournament TEXT NOT NULL,
    x_account TEXT NOT NULL,
    o_account TEXT NOT NULL,
    paired_ms BIGINT NOT NULL,
    -- A seat halved its own clock before its first step.
    x_berserk BIGINT NOT NULL DEFAULT 0,
    o_berserk BIGINT NOT NULL DEFAULT 0,
    -- 1 once its result is on both players' sheets.
    scored BIGINT NOT NULL DEFAULT 0,
    -- `x`, `o`, `draw` or `aborted` once scored.
    result TEXT NOT NULL DEFAULT '',
    x_points BIGINT NOT NULL DEFAULT 0,
    o_points BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX tournament_games_tournament ON tournament_games (tournament, scored, paired_ms);
