//! Every error code the server answers with, in one place: the API's
//! errors (`ApiError`), the refusals written before a request is read
//! (`listen.rs`, `connection.rs`), and the socket's error messages. The
//! OpenAPI document lists them (`ErrorBody.error.code`), docs/api.md's
//! table of errors is this table (a test compares the two), and a test
//! checks that every code the page has words for is one of them.

use serde::Serialize;
use utoipa::ToSchema;

/// An error's code: what a client branches on (`{"error":{"code":…}}`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Code {
    Malformed,
    WeakPassword,
    NoToken,
    LoginNeeded,
    WrongLogin,
    AccountNeeded,
    WrongToken,
    NotYourTurn,
    CrossOrigin,
    NotFound,
    NoAnalysis,
    MethodNotAllowed,
    Timeout,
    StaleSeq,
    NoFreeSeat,
    GameOver,
    TooLate,
    NoDraws,
    NoBerserk,
    WaitingForOpponent,
    Waiting,
    Changed,
    NotOver,
    NoOpponent,
    AlreadySeated,
    NameTaken,
    HiddenUntilEnd,
    NoTurns,
    OffTheLine,
    TooMany,
    Blocked,
    NotTaking,
    NotOpen,
    Full,
    Muted,
    Banned,
    NotYourRoom,
    TooLarge,
    IllegalStep,
    RateLimited,
    TooManyConnections,
    Internal,
    Server,
    Busy,
    SearchOverran,
    SearchFailed,
    Storage,
    Unavailable,
}

impl Code {
    /// Every code, in the order docs/api.md lists them.
    pub const ALL: [Code; 48] = [
        Code::Malformed,
        Code::WeakPassword,
        Code::NoToken,
        Code::LoginNeeded,
        Code::WrongLogin,
        Code::AccountNeeded,
        Code::WrongToken,
        Code::NotYourTurn,
        Code::CrossOrigin,
        Code::NotFound,
        Code::NoAnalysis,
        Code::MethodNotAllowed,
        Code::Timeout,
        Code::StaleSeq,
        Code::NoFreeSeat,
        Code::GameOver,
        Code::TooLate,
        Code::NoDraws,
        Code::NoBerserk,
        Code::WaitingForOpponent,
        Code::Waiting,
        Code::Changed,
        Code::NotOver,
        Code::NoOpponent,
        Code::AlreadySeated,
        Code::NameTaken,
        Code::HiddenUntilEnd,
        Code::NoTurns,
        Code::OffTheLine,
        Code::TooMany,
        Code::Blocked,
        Code::NotTaking,
        Code::NotOpen,
        Code::Full,
        Code::Muted,
        Code::Banned,
        Code::NotYourRoom,
        Code::TooLarge,
        Code::IllegalStep,
        Code::RateLimited,
        Code::TooManyConnections,
        Code::Internal,
        Code::Server,
        Code::Busy,
        Code::SearchOverran,
        Code::SearchFailed,
        Code::Storage,
        Code::Unavailable,
    ];

    /// The code as clients read it: `stale_seq`.
    pub fn name(self) -> &'static str {
        self.about().0
    }

    /// The code's name, the statuses it comes with, and when.
    pub fn about(self) -> (&'static str, &'static str, &'static str) {
        match self {
            Code::Malformed => ("malformed", "400", "not JSON, an unknown field, a wrong type, a step that is not a cell, a bad variant option, a name or setting out of its rules; also a request that is not HTTP/1.1 (a byte a request line or header may not hold)"),
            Code::WeakPassword => ("weak_password", "400", "a new password that is too easy to guess (the message says why)"),
            Code::NoToken => ("no_token", "401", "no `Authorization: Bearer` header"),
            Code::LoginNeeded => ("login_needed", "401", "a route for accounts without a valid session (also on a socket whose session ended)"),
            Code::WrongLogin => ("wrong_login", "401", "a wrong name or password (one answer for both)"),
            Code::AccountNeeded => ("account_needed", "400, 401, 403", "a rated game asked for without logging in (401), against a bot that no logged-in player registered (403), or against the computer (400)"),
            Code::WrongToken => ("wrong_token", "403", "the token holds no seat in this game (or no bot)"),
            Code::NotYourTurn => ("not_your_turn", "403", "the token's seat is not to move"),
            Code::CrossOrigin => ("cross_origin", "403", "a request with a session cookie from another site's page"),
            Code::NotFound => ("not_found", "404", "no such game, player, puzzle or route"),
            Code::NoAnalysis => ("no_analysis", "404", "a game's review asked for before one was requested"),
            Code::MethodNotAllowed => ("method_not_allowed", "405", "a route that exists, with another method"),
            Code::Timeout => ("timeout", "408", "a request's body did not arrive within 15 s (a body declared over 16 KiB is refused `413` at once)"),
            Code::StaleSeq => ("stale_seq", "409", "`seq` is not the number of steps played (a step sent twice lands here too)"),
            Code::NoFreeSeat => ("no_free_seat", "409", "joining a game whose seats are taken"),
            Code::GameOver => ("game_over", "409", "the game has ended"),
            Code::TooLate => ("too_late", "409", "aborting after both sides moved, or a Swiss's or round robin's game at all"),
            Code::NoDraws => ("no_draws", "409", "a draw offer where the end rule has no draws (only the pass rule has)"),
            Code::NoBerserk => ("no_berserk", "409", "a berserk after the seat's first step, twice, in a game that is no tournament's, or without a running clock"),
            Code::WaitingForOpponent => ("waiting_for_opponent", "409", "steps before both seats are taken"),
            Code::Waiting => ("waiting", "409", "a rematch offer or resignation while the game still waits for its second player"),
            Code::Changed => ("changed", "409", "the game changed while the request was on its way (another request, through this server process or another, came first); the game has been reloaded: look at it and try again"),
            Code::NotOver => ("not_over", "409", "a rematch, or a record to replay, of a game still being played"),
            Code::NoOpponent => ("no_opponent", "409", "a rematch of a game whose other seat nobody took"),
            Code::AlreadySeated => ("already_seated", "409", "a bot joining a game it sits in; a rated game against your own bot"),
            Code::NameTaken => ("name_taken", "409", "an account or bot name in use (or one that looks like it)"),
            Code::HiddenUntilEnd => ("hidden_until_end", "409", "a fog game's record before its end"),
            Code::NoTurns => ("no_turns", "409", "a review of a game with no whole turn to judge"),
            Code::OffTheLine => ("off_the_line", "409", "a puzzle's answer that leaves its proven line"),
            Code::TooMany => ("too_many", "409", "following a player while you follow 1,000 already; a challenge while 10 of yours are open; blocking a player while you block 1,000; a chat line by a player who said 300 in that room; a sixth bot of one account; a sixth browser's push subscription; a 21st user socket of one account on a process"),
            Code::Blocked => ("blocked", "403", "a challenge between two players one of whom blocks the other"),
            Code::NotTaking => ("not_taking", "403", "a challenge to a player who takes none from you (their setting: only from players they follow, or from nobody)"),
            Code::Muted => ("muted", "403", "a chat line from an account an operator muted (the message says until when)"),
            Code::Banned => ("banned", "403", "the right password of an account an operator banned"),
            Code::NotYourRoom => ("not_your_room", "403", "a chat line, or a room's lines, in a room not yours: the players' room is the two seats'; during a game its players neither read nor write the watchers' room"),
            Code::NotOpen => ("not_open", "409", "a challenge answered or withdrawn after it was accepted, declined, withdrawn or expired; a tournament joined or left after it ended; a round robin joined or left once it runs, a Swiss joined once its last round is paired; a TRF asked of a tournament that is no Swiss"),
            Code::Full => ("full", "409", "a tournament joined that has its most players already; a bot joining one that has its most bots, or one where a bot of the same account is in"),
            Code::TooLarge => ("too_large", "413, 414, 431", "a body or socket message over 16 KiB; a path over 4 KiB; more than 100 headers, or a request line and headers over 64 KiB"),
            Code::IllegalStep => ("illegal_step", "422", "a step the rules refuse; the message is `replay`'s: `step 5 (d3): not accessible for O`, and `detail` says it as data: `{\"step\": 5, \"cell\": \"d3\", \"reason\": \"not_accessible\", \"entry\": null}` (reasons: `not_accessible`, `not_entry` with `entry` the cells a first step may take, `no_live_group`, `own_virus`, `zombie`, `obstacle`, `off_board`, `turn_over`, `pass_not_allowed`, `pass_mid_turn`, `game_over`), so that a client says it in its own words"),
            Code::RateLimited => ("rate_limited", "429", "over a rate limit; the `Retry-After` header says how many seconds to wait"),
            Code::TooManyConnections => ("too_many_connections", "429", "the address holds `--connections-per-address` connections already (sent on the new connection, then closed)"),
            Code::Internal => ("internal", "500", "a fault of the server's own (its words stay in the log)"),
            Code::Server => ("server", "500", "an answer of the HTTP framework's for a fault of its own"),
            Code::Busy => ("busy", "503", "every analysis worker busy with a full queue, or busy for 5 s; a new game against the computer while 4 computer turns wait for a worker; the server at `--max-connections` (`Retry-After` says when to try again)"),
            Code::SearchOverran => ("search_overran", "503", "a search did not stop within 0.5 s of its time (it is stopped; nothing changed)"),
            Code::SearchFailed => ("search_failed", "500", "a search failed (nothing changed)"),
            Code::Storage => ("storage", "503", "the database refused the write; nothing changed"),
            Code::Unavailable => ("unavailable", "503", "the database cannot be reached (for a moment, or until an operator brings it back): nothing changed; `Retry-After` says when to try again, and `/healthz` answers 503 meanwhile"),
        }
    }

    /// docs/api.md's table of errors, as this table says it.
    pub fn table() -> String {
        let mut t = String::from("| status | code | when |\n| --- | --- | --- |\n");
        for code in Code::ALL {
            let (name, statuses, when) = code.about();
            t.push_str(&format!("| {statuses} | `{name}` | {when} |\n"));
        }
        t
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::Code;

    #[test]
    fn every_code_is_listed_once_and_named_as_serde_names_it() {
        let mut names = std::collections::HashSet::new();
        for code in Code::ALL {
            assert!(names.insert(code.name()), "{code:?} twice");
            assert_eq!(
                serde_json::to_value(code).unwrap(),
                serde_json::json!(code.name())
            );
        }
    }

    /// docs/api.md's table of errors is this table, between its markers.
    #[test]
    fn the_api_docs_table_is_the_codes_table() {
        let docs = include_str!("../../../docs/api.md");
        let start = docs
            .find("<!-- codes -->\n")
            .expect("docs/api.md marks its table")
            + 15;
        let end = docs.find("<!-- /codes -->").expect("and its end");
        assert_eq!(
            &docs[start..end],
            Code::table(),
            "docs/api.md's error table: paste Code::table() there"
        );
    }

    /// Every code the page has words for (web/js/i18n.js, `REFUSED`) is
    /// one the server answers with.
    #[test]
    fn the_pages_words_are_for_codes_that_exist() {
        let page = include_str!("../../../web/js/i18n.js");
        let start = page
            .find("export const REFUSED = {")
            .expect("i18n.js has REFUSED");
        let block = &page[start..];
        let block = &block[..block.find("};").expect("REFUSED ends")];
        let keys: Vec<&str> = block
            .lines()
            .skip(1)
            .filter_map(|l| l.trim().split_once(':').map(|(k, _)| k.trim()))
            .collect();
        assert!(!keys.is_empty());
        for key in keys {
            assert!(
                Code::ALL.iter().any(|c| c.name() == key),
                "i18n.js has words for '{key}', a code the server never answers"
            );
        }
    }
}
