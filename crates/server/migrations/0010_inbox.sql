-- Notifications, challenges by name, and blocks (issue 46).

-- A player's notifications, numbered from 1 for each account (`seq`, the
-- id the API shows): a challenge, its answer, a turn to play, a game over.
-- Only the newest few hundred of an account are kept.
CREATE TABLE notifications (
    account TEXT NOT NULL,
    seq BIGINT NOT NULL,
    kind TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    -- The game it is about ('' for none): one unread `your_turn` a game.
    game TEXT NOT NULL DEFAULT '',
    -- The kind's own fields, as a JSON object.
    body TEXT NOT NULL,
    PRIMARY KEY (account, seq)
);
-- The account's last notification's number, raised in the transaction
-- that inserts the next (a conditional update of the account's row, which
-- PostgreSQL serialises); and the number it has read up to.
ALTER TABLE accounts ADD COLUMN notes_seq BIGINT NOT NULL DEFAULT 0;
ALTER TABLE accounts ADD COLUMN notes_read BIGINT NOT NULL DEFAULT 0;
-- Who may challenge the account: everyone, following (those it follows),
-- nobody.
ALTER TABLE accounts ADD COLUMN challenges_from TEXT NOT NULL DEFAULT 'everyone';

-- A challenge by name: the game's settings as asked, waiting for an answer.
CREATE TABLE challenges (
    id TEXT PRIMARY KEY,
    from_account TEXT NOT NULL,
    to_account TEXT NOT NULL,
    -- The body of the request, less `to` (a JSON object, as POST /api/games takes it).
    settings TEXT NOT NULL,
    -- 1: a real-time clock (it lapses when its challenger is gone).
    real_time BIGINT NOT NULL,
    created_ms BIGINT NOT NULL,
    expires_ms BIGINT NOT NULL,
    -- open, accepted, declined, withdrawn.
    state TEXT NOT NULL,
    reason TEXT NOT NULL DEFAULT '',
    -- The game an accepted challenge made.
    game TEXT NOT NULL DEFAULT '',
    decided_ms BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX challenges_to ON challenges (to_account, state);
CREATE INDEX challenges_from ON challenges (from_account, state);

-- One row a block: `blocker` never hears from `blocked` (challenges,
-- quick play pairings, chat).
CREATE TABLE blocks (
    blocker TEXT NOT NULL,
    blocked TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    PRIMARY KEY (blocker, blocked)
);
CREATE INDEX blocks_blocked ON blocks (blocked);
