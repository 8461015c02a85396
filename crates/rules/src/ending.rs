//! How a game ended: the outcome and the reason, naming the side it is
//! about. The board decides some endings (no legal step, annihilation, two
//! passes); players and clocks decide the others (resignation, time,
//! agreement). Front ends and records take their words from here.

use std::fmt;

use crate::any_position::AnyPosition;
use crate::rules::EndRule;
use crate::side::{Outcome, Side};

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// This side had to step and had no legal step (standard end rule).
    NoLegalStep(Side),
    /// This side had entered and lost its last live virus (pass end rule).
    Annihilation(Side),
    /// Two passes in a row (pass end rule): a draw.
    TwoPasses,
    /// This side resigned.
    Resignation(Side),
    /// This side's clock ran out.
    Time(Side),
    /// Both players agreed to a draw.
    Agreement,
}

/// A finished game's result and reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ending {
    pub outcome: Outcome,
    pub reason: EndReason,
}

impl EndReason {
    /// The API's code for this reason (docs/api.md), which front ends
    /// translate: `no_legal_step`, `annihilation`, `two_passes`,
    /// `resignation`, `time`, `agreement`.
    pub fn code(self) -> &'static str {
        match self {
            EndReason::NoLegalStep(_) => "no_legal_step",
            EndReason::Annihilation(_) => "annihilation",
            EndReason::TwoPasses => "two_passes",
            EndReason::Resignation(_) => "resignation",
            EndReason::Time(_) => "time",
            EndReason::Agreement => "agreement",
        }
    }

    /// The record's `Termination` tag for this reason.
    pub fn termination(self) -> &'static str {
        match self {
            EndReason::NoLegalStep(_) => "no legal step",
            EndReason::Annihilation(_) => "annihilation",
            EndReason::TwoPasses => "two passes",
            EndReason::Resignation(_) => "resignation",
            EndReason::Time(_) => "time forfeit",
            EndReason::Agreement => "agreement",
        }
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EndReason::NoLegalStep(s) => write!(f, "{s} has no legal step"),
            EndReason::Annihilation(s) => write!(f, "{s} has no live virus left"),
            EndReason::TwoPasses => f.write_str("both passed"),
            EndReason::Resignation(s) => write!(f, "{s} resigned"),
            EndReason::Time(s) => write!(f, "{s} ran out of time"),
            EndReason::Agreement => f.write_str("draw agreed"),
        }
    }
}

impl Ending {
    /// A side gave up or lost on time: the other side wins.
    pub fn loss_of(reason: EndReason) -> Option<Ending> {
        let loser = match reason {
            EndReason::NoLegalStep(s)
            | EndReason::Annihilation(s)
            | EndReason::Resignation(s)
            | EndReason::Time(s) => s,
            EndReason::TwoPasses | EndReason::Agreement => {
                return Some(Ending {
                    outcome: Outcome::Draw,
                    reason,
                })
            }
        };
        Some(Ending {
            outcome: Outcome::Win(!loser),
            reason,
        })
    }

    /// How the board ended the game, if it is over.
    pub fn of_position(p: &AnyPosition) -> Option<Ending> {
        let outcome = p.outcome()?;
        let reason = match (outcome, p.rules().end) {
            (Outcome::Draw, _) => EndReason::TwoPasses,
            (Outcome::Win(_), EndRule::Standard) => EndReason::NoLegalStep(p.side()),
            (Outcome::Win(w), EndRule::Pass) => EndReason::Annihilation(!w),
        };
        Some(Ending { outcome, reason })
    }

    /// The ending a record's `Result` and `Termination` tags declare, when
    /// the board did not end the game (resignation, time, agreement).
    pub fn declared(result: Outcome, termination: &str) -> Option<Ending> {
        let reason = match (termination, result) {
            ("resignation", Outcome::Win(w)) => EndReason::Resignation(!w),
            ("time forfeit", Outcome::Win(w)) => EndReason::Time(!w),
            ("agreement", Outcome::Draw) => EndReason::Agreement,
            _ => return None,
        };
        Ending::loss_of(reason)
    }
}

impl fmt::Display for Ending {
    /// `O wins (X has no legal step)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.outcome, self.reason)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_steps;
    use crate::position_string;
    use crate::step::Step;

    fn after(start: &str, steps: &str) -> AnyPosition {
        let mut p = position_string::read(start).unwrap();
        for s in parse_steps(steps).unwrap() {
            p.play(s).unwrap();
        }
        p
    }

    #[test]
    fn every_board_ending_names_the_side_it_is_about() {
        // Pass rule: X kills O's last virus in the middle of its turn.
        let p = after("4x4 classic-pass,start=corners 4/4/1O2/X3 x 3 1 XO 0", "b2");
        assert_eq!(p.side(), Side::X, "X is still in its turn");
        assert_eq!(
            Ending::of_position(&p).unwrap().to_string(),
            "X wins (O has no live virus left)"
        );
        // Standard rule: O cannot step.
        let p = after("3x3 classic 3/3/3 x 3 1 - 0", "a1 b2 c3");
        assert_eq!(
            Ending::of_position(&p).unwrap().to_string(),
            "X wins (O has no legal step)"
        );
        // Two passes.
        let mut p = position_string::read("4x4 classic-pass 4/4/4/4 x 3 1 - 0").unwrap();
        p.play(Step::Pass).unwrap();
        p.play(Step::Pass).unwrap();
        assert_eq!(
            Ending::of_position(&p).unwrap().to_string(),
            "draw (both passed)"
        );
    }

    #[test]
    fn every_reason_has_its_own_code_and_termination() {
        let all = [
            EndReason::NoLegalStep(Side::X),
            EndReason::Annihilation(Side::O),
            EndReason::TwoPasses,
            EndReason::Resignation(Side::X),
            EndReason::Time(Side::O),
            EndReason::Agreement,
        ];
        let codes: std::collections::HashSet<_> = all.iter().map(|r| r.code()).collect();
        let words: std::collections::HashSet<_> = all.iter().map(|r| r.termination()).collect();
        assert_eq!((codes.len(), words.len()), (all.len(), all.len()));
        assert!(codes
            .iter()
            .all(|c| c.chars().all(|ch| ch.is_ascii_lowercase() || ch == '_')));
    }

    #[test]
    fn declared_endings_name_the_loser() {
        let e = Ending::loss_of(EndReason::Time(Side::O)).unwrap();
        assert_eq!(e.to_string(), "X wins (O ran out of time)");
        assert_eq!(
            Ending::declared(Outcome::Win(Side::X), "time forfeit"),
            Some(e)
        );
        let r = Ending::declared(Outcome::Win(Side::O), "resignation").unwrap();
        assert_eq!(r.to_string(), "O wins (X resigned)");
        assert_eq!(r.reason.termination(), "resignation");
        assert_eq!(
            Ending::declared(Outcome::Win(Side::O), "no legal step"),
            None
        );
    }
}
