//! The two players and the result of a game.

use std::fmt;
use std::ops::Not;

/// A player. X moves first and starts on a1's side; O starts opposite.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord, Default)]
pub enum Side {
    #[default]
    X = 0,
    O = 1,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::X, Side::O];

    #[inline(always)]
    pub fn index(self) -> usize {
        self as usize
    }

    /// `x` or `o` as written in position strings.
    pub fn letter(self) -> char {
        match self {
            Side::X => 'x',
            Side::O => 'o',
        }
    }
}

impl Not for Side {
    type Output = Side;
    #[inline(always)]
    fn not(self) -> Side {
        match self {
            Side::X => Side::O,
            Side::O => Side::X,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::X => "X",
            Side::O => "O",
        })
    }
}

/// How a finished game ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Outcome {
    Win(Side),
    Draw,
}

impl fmt::Display for Outcome {
    /// `X wins`, `O wins` or `draw`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win(s) => write!(f, "{s} wins"),
            Outcome::Draw => f.write_str("draw"),
        }
    }
}
