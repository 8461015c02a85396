-- The puzzle trainer (docs/puzzles.md, docs/api.md Puzzles). The shipped
-- set is put here at every start: a puzzle already there takes the set's
-- solution and themes and keeps its rating as play has moved it; one no
-- longer in the set is kept (old links open it) but no longer given.
CREATE TABLE puzzles (
    -- The canonical hash of the position, 16 hex digits.
    id TEXT PRIMARY KEY,
    -- The preset whose rules it is played by ('classic', 'feup', …).
    preset TEXT NOT NULL,
    -- The position string; the side to move is the one to solve it.
    position TEXT NOT NULL,
    -- Whole turns separated by spaces, each turn's steps by '-'.
    solution TEXT NOT NULL,
    -- ',cut-off-group,bunker,' (a comma each side of every theme), ',' for none.
    themes TEXT NOT NULL,
    -- Its Glicko-2 rating, moved by each account's first try.
    rating DOUBLE PRECISION NOT NULL,
    rd DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    -- First tries by accounts, and how many of them solved it.
    plays BIGINT NOT NULL DEFAULT 0,
    solved BIGINT NOT NULL DEFAULT 0,
    -- 1: in the set this server was started with (given by /next).
    shipped BIGINT NOT NULL DEFAULT 1
);
CREATE INDEX puzzles_rating ON puzzles (rating);

-- An account's first try at a puzzle, which alone moves the two ratings
-- (the account's 'puzzles' rating and the puzzle's): the primary key
-- makes it once, whichever process is asked.
CREATE TABLE puzzle_attempts (
    account_id TEXT NOT NULL,
    puzzle_id TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    -- 1: solved; 0: failed.
    solved BIGINT NOT NULL,
    PRIMARY KEY (account_id, puzzle_id)
);
