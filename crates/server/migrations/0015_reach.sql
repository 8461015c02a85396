-- Issue 59 (hardening): what a ban reaches, numbers that stay, caps.

-- A Swiss or round-robin player's pairing number, stored the first time a
-- round is paired with it in (0 before): whatever the player later
-- becomes (renamed by a deletion, say), it keeps its number, so the rounds
-- are paired and exported with the numbers they were played under.
ALTER TABLE tournament_players ADD COLUMN pairing_number BIGINT NOT NULL DEFAULT 0;

-- Most bots a tournament takes (its maker's choice; at most max_players).
-- Tournaments made before took bots freely: half their places now.
ALTER TABLE tournaments ADD COLUMN max_bots BIGINT NOT NULL DEFAULT 0;
UPDATE tournaments SET max_bots = CASE WHEN bots = 0 THEN 0 ELSE max_players / 2 END;

-- An account's bots, counted against the cap on bots an account keeps.
CREATE INDEX accounts_owner ON accounts (owner, kind);

-- A chat room's cap is each speaker's (what one speaker said in a room is
-- counted), so no crowd can fill a room and silence the others.
CREATE INDEX chat_lines_speaker ON chat_lines (game, account, room);

-- Sends to a push subscription that failed in a row (no answer in time, a
-- refused connection, a 5xx): dropped at 5, forgotten at a delivery.
ALTER TABLE push_subscriptions ADD COLUMN failures BIGINT NOT NULL DEFAULT 0;

-- The challenge a `challenge` notification is about ('' for the others):
-- it counts as unread only while the challenge is open.
ALTER TABLE notifications ADD COLUMN challenge TEXT NOT NULL DEFAULT '';
