-- Arena results: one row a match, one row a game.
CREATE TABLE IF NOT EXISTS matches (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    started_at    TEXT    NOT NULL,
    a             TEXT    NOT NULL,
    b             TEXT    NOT NULL,
    variant       TEXT    NOT NULL,
    time_per_turn_ms INTEGER,
    games_planned INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS games (
    match_id    INTEGER NOT NULL REFERENCES matches(id),
    idx         INTEGER NOT NULL,
    a_is_x      INTEGER NOT NULL,
    a_points    REAL    NOT NULL,
    termination TEXT    NOT NULL,
    record      TEXT    NOT NULL,
    PRIMARY KEY (match_id, idx)
);
