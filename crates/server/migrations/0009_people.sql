-- People find each other (issue 46): who follows whom, and who is online.

-- One row a follow: account `follower` follows account `followed`.
CREATE TABLE follows (
    follower TEXT NOT NULL,
    followed TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    PRIMARY KEY (follower, followed)
);
-- Who follows a player (counted on their page).
CREATE INDEX follows_followed ON follows (followed);

-- When the account was last seen, ms since the Unix epoch: a request with
-- its session, or a socket it holds open (written at most once a minute an
-- account). Online: seen within the last few minutes.
ALTER TABLE accounts ADD COLUMN seen_ms BIGINT NOT NULL DEFAULT 0;
-- 1: the account is never shown online (it is still counted).
ALTER TABLE accounts ADD COLUMN hide_online BIGINT NOT NULL DEFAULT 0;
-- How many the account follows, kept with its rows of `follows` in one
-- transaction: the cap is a conditional update of this row, which
-- PostgreSQL serialises (a count in the inserting statement is not: two
-- inserts at once each counted the other's row as missing).
ALTER TABLE accounts ADD COLUMN following BIGINT NOT NULL DEFAULT 0;
-- Those online, newest first, without reading every account.
CREATE INDEX accounts_seen ON accounts (seen_ms);
