-- Players: accounts, their sessions and ratings. Anonymous play is as it
-- was: a seat held by an account names it in x_account/o_account ('' for
-- none).
CREATE TABLE accounts (
    -- A random id; a bot's account is 'bot:' and its name.
    id TEXT PRIMARY KEY,
    -- Shown as typed; name_key (its lower case) is unique.
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    -- Argon2id, as a PHC string; '' where nobody logs in (a bot, an
    -- account deleted).
    password_hash TEXT NOT NULL,
    -- 'person' or 'bot'.
    kind TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    -- When it was deleted (its games stay, under its new name); 0 while it lives.
    deleted_ms BIGINT NOT NULL DEFAULT 0,
    -- 1: quick play never pairs this person with a bot.
    no_bots BIGINT NOT NULL DEFAULT 0,
    -- A bot's account: the person's account that registered it ('' for a
    -- bot registered anonymously, which plays no rated game).
    owner TEXT NOT NULL DEFAULT ''
);

-- A logged-in browser: the SHA-256 of its cookie's token (hex).
CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    account_id TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    last_seen_ms BIGINT NOT NULL
);
CREATE INDEX sessions_account ON sessions (account_id);

-- A player's Glicko-2 rating in a category ('classic-blitz', …).
CREATE TABLE ratings (
    account_id TEXT NOT NULL,
    category TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    rd DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games BIGINT NOT NULL,
    last_rated_ms BIGINT NOT NULL,
    PRIMARY KEY (account_id, category)
);
CREATE INDEX ratings_board ON ratings (category, rating);

-- What each rated game did to each player's rating (charts, the archive).
CREATE TABLE rating_changes (
    account_id TEXT NOT NULL,
    game_id TEXT NOT NULL,
    category TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    rating_before DOUBLE PRECISION NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    rd DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (account_id, game_id)
);
CREATE INDEX rating_changes_chart ON rating_changes (account_id, category, at_ms);

-- Failed logins and sign-ups, counted where every server process sees
-- them: a subject ('login-name:…', 'login-address:…', 'signup:…'), its
-- count in the window that started at window_start_ms, and until when it
-- is refused.
CREATE TABLE throttles (
    subject TEXT PRIMARY KEY,
    count BIGINT NOT NULL,
    window_start_ms BIGINT NOT NULL,
    blocked_until_ms BIGINT NOT NULL
);

ALTER TABLE games ADD COLUMN x_account TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN o_account TEXT NOT NULL DEFAULT '';
-- 1: both seats are accounts and the result moves their ratings.
ALTER TABLE games ADD COLUMN rated BIGINT NOT NULL DEFAULT 0;
-- Once finished: 'x' or 'o' (the winner), 'draw' or 'aborted'; '' before.
ALTER TABLE games ADD COLUMN result TEXT NOT NULL DEFAULT '';
-- The variant's rating family ('classic', 'paper-tactics', 'gcr',
-- 'iggamecenter', 'korobkov', 'other'): the archive's filter.
ALTER TABLE games ADD COLUMN family TEXT NOT NULL DEFAULT 'other';
CREATE INDEX games_x_account ON games (x_account, last_active_ms);
CREATE INDEX games_o_account ON games (o_account, last_active_ms);

-- Bots registered before have accounts, and hold their seats by them.
INSERT INTO accounts (id, name, name_key, password_hash, kind, created_ms)
    SELECT 'bot:' || name, name, LOWER(name), '', 'bot', created_ms FROM bots;
UPDATE games SET x_account = x_player WHERE x_player LIKE 'bot:%' AND x_token <> '';
UPDATE games SET o_account = o_player WHERE o_player LIKE 'bot:%' AND o_token <> '';
