-- Chat in games, reports, and operators' actions (issue 46).

-- A line said in a game's room: `players` (its two seats) or `watchers`.
CREATE TABLE chat_lines (
    game TEXT NOT NULL,
    id TEXT NOT NULL,
    room TEXT NOT NULL,
    account TEXT NOT NULL,
    name TEXT NOT NULL,
    text TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (game, id)
);
CREATE INDEX chat_lines_room ON chat_lines (game, room, at_ms);
CREATE INDEX chat_lines_account ON chat_lines (account, at_ms);

-- Until when the account may not chat (0: it may), and when it was banned
-- (0: it is not): operators set them with `virus-wars admin`.
ALTER TABLE accounts ADD COLUMN muted_until_ms BIGINT NOT NULL DEFAULT 0;
ALTER TABLE accounts ADD COLUMN banned_ms BIGINT NOT NULL DEFAULT 0;

-- A player's report of another.
CREATE TABLE reports (
    id TEXT PRIMARY KEY,
    reporter TEXT NOT NULL,
    player TEXT NOT NULL,
    reason TEXT NOT NULL,
    game TEXT NOT NULL DEFAULT '',
    text TEXT NOT NULL DEFAULT '',
    created_ms BIGINT NOT NULL,
    -- 0 while open; when an operator closed it.
    closed_ms BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX reports_open ON reports (closed_ms, created_ms);
CREATE INDEX reports_reporter ON reports (reporter, created_ms);

-- What operators did, with who and when.
CREATE TABLE moderation (
    id TEXT PRIMARY KEY,
    at_ms BIGINT NOT NULL,
    operator TEXT NOT NULL,
    action TEXT NOT NULL,
    account TEXT NOT NULL,
    detail TEXT NOT NULL DEFAULT ''
);
CREATE INDEX moderation_account ON moderation (account, at_ms);
