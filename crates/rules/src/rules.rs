//! The turn structure of a variant: steps per turn, how players enter, how a game ends.

use std::fmt;
use std::str::FromStr;

/// How the first viruses come onto the board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum StartRule {
    /// X's virus stands on a1 and O's on the opposite corner before the first step.
    Corners,
    /// Empty board; a player that has not stepped yet may step only on its own corner.
    CornerEntry,
    /// Empty board; a player that has not stepped yet may step on any empty cell
    /// of its own edge (X: file a, O: the last file).
    EdgeEntry,
}

/// When the game is over.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum EndRule {
    /// A player that must step and has no legal step loses (also mid-turn).
    Standard,
    /// A player may pass a whole turn before its first step; a turn that cannot
    /// be completed ends early; a player that has entered and has no live virus
    /// left loses; two passes in a row are a draw.
    Pass,
}

/// Most steps a turn may have (deathmatch turns grow up to this).
pub const MAX_STEPS: u8 = 99;

/// The parameters that decide which steps are legal after the board is set up.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Rules {
    pub steps_per_turn: u8,
    pub first_turn_steps: u8,
    pub start: StartRule,
    pub end: EndRule,
    /// Every full round (an X turn and an O turn) adds one step to the turns after it.
    pub deathmatch: bool,
}

impl Rules {
    /// Steps of the game's `turn`-th turn (1 = X's first turn, 2 = O's first, …).
    #[inline]
    pub fn steps_in_turn(&self, turn: u32) -> u8 {
        let base = if turn <= 1 {
            self.first_turn_steps
        } else {
            self.steps_per_turn
        };
        if self.deathmatch {
            let extra = (turn.saturating_sub(1) / 2).min(MAX_STEPS as u32) as u8;
            base.saturating_add(extra).min(MAX_STEPS)
        } else {
            base
        }
    }
}

macro_rules! keyword_enum {
    ($ty:ident, $what:literal, $($variant:ident = $word:literal),+) => {
        impl $ty {
            pub fn name(self) -> &'static str {
                match self { $($ty::$variant => $word),+ }
            }
            pub const NAMES: &'static [&'static str] = &[$($word),+];
        }
        impl fmt::Display for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }
        impl FromStr for $ty {
            type Err = String;
            fn from_str(s: &str) -> Result<Self, String> {
                match s.trim().to_ascii_lowercase().as_str() {
                    $($word => Ok($ty::$variant),)+
                    other => Err(format!(
                        "unknown {} '{}': expected one of {}",
                        $what, other, Self::NAMES.join(", ")
                    )),
                }
            }
        }
    };
}

keyword_enum!(
    StartRule,
    "start rule",
    Corners = "corners",
    CornerEntry = "corner-entry",
    EdgeEntry = "edge-entry"
);
keyword_enum!(EndRule, "end rule", Standard = "standard", Pass = "pass");

/// Cells where `side` may make its first step under `start` (before it has
/// entered) on a `width`×`height` board; none for [`StartRule::Corners`],
/// where both sides start on the board.
pub fn entry_cells(start: StartRule, width: u8, height: u8, side: crate::Side) -> Vec<crate::Cell> {
    use crate::{Cell, Side};
    let far = (width - 1, height - 1);
    match (start, side) {
        (StartRule::Corners, _) => Vec::new(),
        (StartRule::CornerEntry, Side::X) => vec![Cell::new(0, 0)],
        (StartRule::CornerEntry, Side::O) => vec![Cell::new(far.0, far.1)],
        (StartRule::EdgeEntry, Side::X) => (0..height).map(|r| Cell::new(0, r)).collect(),
        (StartRule::EdgeEntry, Side::O) => (0..height).map(|r| Cell::new(far.0, r)).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deathmatch_grows_every_round() {
        let r = Rules {
            steps_per_turn: 3,
            first_turn_steps: 1,
            start: StartRule::Corners,
            end: EndRule::Standard,
            deathmatch: true,
        };
        let got: Vec<u8> = (1..=6).map(|t| r.steps_in_turn(t)).collect();
        assert_eq!(got, vec![1, 3, 4, 4, 5, 5]);
        let plain = Rules {
            deathmatch: false,
            ..r
        };
        assert_eq!(plain.steps_in_turn(1), 1);
        assert_eq!(plain.steps_in_turn(7), 3);
    }

    #[test]
    fn keywords_round_trip() {
        for s in StartRule::NAMES {
            assert_eq!(s.parse::<StartRule>().unwrap().to_string(), *s);
        }
        assert_eq!(" PASS ".parse::<EndRule>(), Ok(EndRule::Pass));
        let e = "corner".parse::<StartRule>().unwrap_err();
        assert!(e.contains("corners, corner-entry, edge-entry"), "{e}");
    }
}
