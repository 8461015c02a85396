//! The game record (like PGN): tags for the players, the date, the result
//! and every parameter of the variant, then the numbered turns.
//!
//! ```text
//! [Event "Casual game"]
//! [Site "?"]
//! [Date "2026.11.22"]
//! [X "Alice"]
//! [O "Bob"]
//! [Result "1-0"]
//! [Termination "no legal step"]
//! [TimeControl "-"]
//! [Variant "classic"]
//! [Size "10x10"]
//! ...
//!
//! 1. a1-b2-c3 j10-i9-h8
//! 2. d4-c5-b6 g7-f6-e5
//! 1-0
//! ```

use std::fmt::Write;

use crate::ending::Ending;
use crate::game::Game;
use crate::notation::format_turn;
use crate::position_string;
use crate::side::{Outcome, Side};

mod read;
mod tags;

pub use read::{read, read_bytes};

/// A game with the facts around it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Record {
    pub event: String,
    pub site: String,
    /// `YYYY.MM.DD`, `?` for parts not known.
    pub date: String,
    pub x_player: String,
    pub o_player: String,
    /// The result as declared: set by the rules when the game ended on the
    /// board, or by resignation, time or agreement.
    pub result: Option<Outcome>,
    /// Why it ended (`no legal step`, `resignation`, `time forfeit`, …); empty if not over.
    pub termination: String,
    /// As in PGN: `-` for none, `300+2` for 300 s plus 2 s a turn, `2/turn`, …
    pub time_control: String,
    /// Tags this format does not define, kept in order.
    pub extra_tags: Vec<(String, String)>,
    pub game: Game,
}

/// A record that cannot be read, and where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {message}")]
pub struct RecordError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl Record {
    /// A record of `game` with unknown players, event and date.
    pub fn new(game: Game) -> Record {
        let ending = Ending::of_position(game.position());
        let result = ending.map(|e| e.outcome);
        let termination = ending.map_or(String::new(), |e| e.reason.termination().to_string());
        Record {
            event: "?".into(),
            site: "?".into(),
            date: "????.??.??".into(),
            x_player: "?".into(),
            o_player: "?".into(),
            result,
            termination,
            time_control: "-".into(),
            extra_tags: Vec::new(),
            game,
        }
    }

    /// How the game ended: on the board, or as the tags declare
    /// (resignation, time forfeit, agreement).
    pub fn ending(&self) -> Option<Ending> {
        Ending::of_position(self.game.position())
            .or_else(|| Ending::declared(self.result?, &self.termination))
    }

    /// Records an ending the board did not decide.
    pub fn declare(&mut self, ending: Ending) {
        self.result = Some(ending.outcome);
        self.termination = ending.reason.termination().to_string();
    }

    /// The record as text; [`read`] gives back an equal record.
    pub fn write(&self) -> String {
        let mut out = String::new();
        let v = self.game.variant();
        let mut tag = |name: &str, value: &str| {
            writeln!(out, "[{name} \"{}\"]", tags::escape(value)).unwrap();
        };
        tag("Event", &self.event);
        tag("Site", &self.site);
        tag("Date", &self.date);
        tag("X", &self.x_player);
        tag("O", &self.o_player);
        tag("Result", result_token(self.result));
        if !self.termination.is_empty() {
            tag("Termination", &self.termination);
        }
        tag("TimeControl", &self.time_control);
        for (name, value) in tags::variant_tags(v) {
            tag(name, &value);
        }
        if !self.game.starts_from_variant_start().unwrap_or(false) {
            tag("Position", &position_string::write(self.game.start()));
        }
        for (name, value) in &self.extra_tags {
            tag(name, value);
        }
        out.push('\n');
        let mut line = String::new();
        for t in self.game.turns() {
            let round = t.turn.div_ceil(2);
            if t.side == Side::X {
                if !line.is_empty() {
                    writeln!(out, "{line}").unwrap();
                }
                line = format!("{round}. {}", format_turn(&t.steps));
            } else if line.is_empty() {
                line = format!("{round}... {}", format_turn(&t.steps));
            } else {
                write!(line, " {}", format_turn(&t.steps)).unwrap();
            }
        }
        if !line.is_empty() {
            writeln!(out, "{line}").unwrap();
        }
        writeln!(out, "{}", result_token(self.result)).unwrap();
        out
    }
}

/// `1-0` (X won), `0-1` (O won), `1/2-1/2` (draw) or `*` (not over).
pub fn result_token(r: Option<Outcome>) -> &'static str {
    match r {
        Some(Outcome::Win(Side::X)) => "1-0",
        Some(Outcome::Win(Side::O)) => "0-1",
        Some(Outcome::Draw) => "1/2-1/2",
        None => "*",
    }
}

fn parse_result_token(t: &str) -> Option<Option<Outcome>> {
    match t {
        "1-0" => Some(Some(Outcome::Win(Side::X))),
        "0-1" => Some(Some(Outcome::Win(Side::O))),
        "1/2-1/2" => Some(Some(Outcome::Draw)),
        "*" => Some(None),
        _ => None,
    }
}
