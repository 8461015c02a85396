-- Accounts hardened (issue 42): every query a request can make served by
-- an index, a player's finished games kept as they end, sessions tied to
-- the password they were made with, one quick-play seek a player.

-- Seats are claimed by their token's hash (POST /api/me/seats), where no
-- account holds them: both in the key, so that no planner prefers the
-- index of accounts (where '' stands for every anonymous seat).
CREATE INDEX games_x_token ON games (x_token, x_account);
CREATE INDEX games_o_token ON games (o_token, o_account);
-- A player's games in progress (sorted as read: a step, which moves
-- last_active_ms, then changes no entry of these).
CREATE INDEX games_x_playing ON games (x_account, finished);
CREATE INDEX games_o_playing ON games (o_account, finished);
DROP INDEX games_x_account;
DROP INDEX games_o_account;
-- A bot's games (x_player = 'bot:NAME').
CREATE INDEX games_x_player ON games (x_player, finished);
CREATE INDEX games_o_player ON games (o_player, finished);
-- The newest finished games (serve --analyse-finished, the puzzle finder):
-- finished games only, so that no step of a game in play touches it.
CREATE INDEX games_finished_newest ON games (last_active_ms) WHERE finished = 1;
-- The open games and quick play's seeks, oldest or newest first (it
-- serves what games_listed served: that one goes, one index less to keep
-- at each new game).
CREATE INDEX games_open ON games (listed, finished, created_ms);
DROP INDEX games_listed;

-- Each account's finished games, one row for each of its seats, written in
-- the transaction that ends the game (or that claims a finished game's
-- seat): the archive, the export, the counts and the streak read these,
-- newest first, through the key, never the whole games table.
CREATE TABLE player_games (
    account_id TEXT NOT NULL,
    game_id TEXT NOT NULL,
    -- When the game ended (its last change then), ms since the Unix epoch.
    ended_ms BIGINT NOT NULL,
    -- For this account: 'won', 'lost', 'drawn' or 'aborted'.
    result TEXT NOT NULL,
    family TEXT NOT NULL,
    rated BIGINT NOT NULL,
    -- The other seat's account ('' for none).
    opponent TEXT NOT NULL,
    PRIMARY KEY (account_id, game_id)
);
CREATE INDEX player_games_newest ON player_games (account_id, ended_ms, game_id);

INSERT INTO player_games (account_id, game_id, ended_ms, result, family, rated, opponent)
    SELECT x_account, id, last_active_ms,
        CASE result WHEN 'x' THEN 'won' WHEN 'o' THEN 'lost' WHEN 'draw' THEN 'drawn' ELSE 'aborted' END,
        family, rated, o_account
    FROM games WHERE finished = 1 AND x_account <> '';
INSERT INTO player_games (account_id, game_id, ended_ms, result, family, rated, opponent)
    SELECT o_account, id, last_active_ms,
        CASE result WHEN 'o' THEN 'won' WHEN 'x' THEN 'lost' WHEN 'draw' THEN 'drawn' ELSE 'aborted' END,
        family, rated, x_account
    FROM games WHERE finished = 1 AND o_account <> '' AND o_account <> x_account;

-- Counts of finished games (called-off ones left out), kept as games end.
ALTER TABLE accounts ADD COLUMN won BIGINT NOT NULL DEFAULT 0;
ALTER TABLE accounts ADD COLUMN lost BIGINT NOT NULL DEFAULT 0;
ALTER TABLE accounts ADD COLUMN drawn BIGINT NOT NULL DEFAULT 0;
UPDATE accounts SET
    won = (SELECT COUNT(*) FROM player_games p WHERE p.account_id = accounts.id AND p.result = 'won'),
    lost = (SELECT COUNT(*) FROM player_games p WHERE p.account_id = accounts.id AND p.result = 'lost'),
    drawn = (SELECT COUNT(*) FROM player_games p WHERE p.account_id = accounts.id AND p.result = 'drawn');

-- The password's generation, one more at each change: a session made with
-- an older one logs nobody in, however late it was stored.
ALTER TABLE accounts ADD COLUMN password_gen BIGINT NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN password_gen BIGINT NOT NULL DEFAULT 0;

-- Quick play: who listed a waiting game by quick play (an account id, or
-- 'address:' and a hash of an anonymous player's address); '' for games
-- made otherwise. A seeker holds one seek at a time.
ALTER TABLE games ADD COLUMN seeker TEXT NOT NULL DEFAULT '';
CREATE INDEX games_seeker ON games (seeker, finished, created_ms);

-- What each account's name looks like (names.rs, skeleton): unique, so
-- that of two look-alike names signed up at the same moment one is
-- refused. Accounts made before hold 'pending:' and their id until the
-- server, at start, gives them theirs (two that already looked alike keep
-- theirs apart, their id added).
ALTER TABLE accounts ADD COLUMN skeleton TEXT NOT NULL DEFAULT '';
UPDATE accounts SET skeleton = 'pending:' || id;
CREATE UNIQUE INDEX accounts_skeleton ON accounts (skeleton);

-- The analysis queue is fair: who asked (an account id, or 'address:' and
-- a hash of the address), and how many of theirs were waiting then. The
-- workers take the lowest share first, so one requester's backlog never
-- delays another's first analysis by more than the one running.
ALTER TABLE analyses ADD COLUMN requester TEXT NOT NULL DEFAULT '';
ALTER TABLE analyses ADD COLUMN share BIGINT NOT NULL DEFAULT 0;
CREATE INDEX analyses_requester ON analyses (requester, status);
CREATE INDEX analyses_fair ON analyses (status, share, requested_ms);

-- Each rating change's place in its player's history (the player's games
-- in the category, this one included): a rating chart is in the order the
-- changes were made, which two games ending at the same moment may not
-- give by their times. Changes made before have 0, in their time's order.
ALTER TABLE rating_changes ADD COLUMN nth BIGINT NOT NULL DEFAULT 0;
DROP INDEX rating_changes_chart;
CREATE INDEX rating_changes_chart ON rating_changes (account_id, category, nth, at_ms);

-- Whose move it is ('x' or 'o'; '' once finished, and in games stored
-- before until their next change): a player's games waiting for their move
-- are found through the account's index, however many others they play.
ALTER TABLE games ADD COLUMN to_move TEXT NOT NULL DEFAULT '';
