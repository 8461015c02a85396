-- The engine's analyses of finished games (docs/api.md, Analysis of a
-- game). One row a game: queued, then running under one process's lease,
-- then done. `judged` holds what is judged so far, as JSON: one entry for
-- each position that starts a turn (X's win chance and the best turn),
-- so an analysis cut short by a restart goes on where it stopped.
CREATE TABLE analyses (
    game_id TEXT PRIMARY KEY,
    status TEXT NOT NULL,
    judged TEXT NOT NULL DEFAULT '[]',
    -- The process that runs it, and until when its lease holds.
    runner TEXT NOT NULL DEFAULT '',
    runner_until_ms BIGINT NOT NULL DEFAULT 0,
    requested_ms BIGINT NOT NULL,
    done_ms BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX analyses_queue ON analyses (status, requested_ms);
