-- Games and their steps. Written for both SQLite and PostgreSQL: only
-- TEXT and BIGINT columns.
CREATE TABLE games (
    id TEXT PRIMARY KEY,
    -- The variant as the position string of its start, plus its options.
    variant TEXT NOT NULL,
    start_position TEXT NOT NULL,
    -- 'human' or a player spec such as 'level:3', for X and O.
    x_player TEXT NOT NULL,
    o_player TEXT NOT NULL,
    -- SHA-256 of each seat's secret token, hex; '' while the seat is free.
    x_token TEXT NOT NULL,
    o_token TEXT NOT NULL,
    -- Fischer clock: base and increment in ms (-1: no clock), time left at
    -- the start of the current turn.
    clock_base_ms BIGINT NOT NULL,
    clock_inc_ms BIGINT NOT NULL,
    x_left_ms BIGINT NOT NULL,
    o_left_ms BIGINT NOT NULL,
    -- A declared ending ('' if none): the record's Termination words and
    -- the losing side ('x', 'o' or '' for a draw); 'aborted' for an abort.
    declared TEXT NOT NULL,
    declared_side TEXT NOT NULL,
    finished BIGINT NOT NULL,
    created_ms BIGINT NOT NULL
);

-- One row per step: (game, seq) is unique, so a step is never stored twice.
CREATE TABLE steps (
    game_id TEXT NOT NULL,
    seq BIGINT NOT NULL,
    step TEXT NOT NULL,
    played_ms BIGINT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
