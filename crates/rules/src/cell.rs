//! A cell of the board, named by file letter and rank number (`a1` is X's corner).

use std::fmt;
use std::str::FromStr;

/// Largest number of files or ranks a board may have.
pub const MAX_SIDE: u8 = 19;
/// Smallest number of files or ranks a board may have.
pub const MIN_SIDE: u8 = 3;

/// A cell: `file` 0 = `a`, `rank` 0 = `1`. Whether it lies on a given board is
/// the board's question ([`crate::Geometry::contains`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Cell {
    pub file: u8,
    pub rank: u8,
}

impl Cell {
    pub const fn new(file: u8, rank: u8) -> Self {
        Cell { file, rank }
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file) as char, self.rank as u32 + 1)
    }
}

/// Why a text is not a cell.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CellError {
    #[error("empty cell name: expected a file letter and a rank, like e5")]
    Empty,
    #[error("'{0}' is not a cell: it must start with a file letter a-s")]
    BadFile(String),
    #[error("'{0}' is not a cell: the file letter must be followed by a rank number 1-19")]
    BadRank(String),
}

impl FromStr for Cell {
    type Err = CellError;

    /// Parses `e5`, `E5`, ` e 5 `: case-insensitive, spaces ignored.
    fn from_str(text: &str) -> Result<Self, CellError> {
        let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        // An error shows at most 24 characters of what it was given.
        let compact = if compact.chars().count() > 24 {
            compact.chars().take(24).chain(['…']).collect()
        } else {
            compact
        };
        let mut chars = compact.chars();
        let letter = chars.next().ok_or(CellError::Empty)?.to_ascii_lowercase();
        if !('a'..='s').contains(&letter) {
            return Err(CellError::BadFile(compact));
        }
        let digits = chars.as_str();
        let rank: u32 = match digits.parse() {
            Ok(r) if digits.chars().all(|c| c.is_ascii_digit()) => r,
            _ => return Err(CellError::BadRank(compact)),
        };
        if !(1..=MAX_SIDE as u32).contains(&rank) {
            return Err(CellError::BadRank(compact));
        }
        Ok(Cell::new(letter as u8 - b'a', (rank - 1) as u8))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints() {
        let c: Cell = " E 10 ".parse().unwrap();
        assert_eq!(c, Cell::new(4, 9));
        assert_eq!(c.to_string(), "e10");
        assert_eq!("a1".parse::<Cell>().unwrap(), Cell::new(0, 0));
        assert_eq!("s19".parse::<Cell>().unwrap(), Cell::new(18, 18));
    }

    #[test]
    fn rejects_junk() {
        assert_eq!("".parse::<Cell>(), Err(CellError::Empty));
        assert!(matches!("t1".parse::<Cell>(), Err(CellError::BadFile(_))));
        assert!(matches!("a0".parse::<Cell>(), Err(CellError::BadRank(_))));
        assert!(matches!("a20".parse::<Cell>(), Err(CellError::BadRank(_))));
        assert!(matches!("a+1".parse::<Cell>(), Err(CellError::BadRank(_))));
        assert!(matches!("5e".parse::<Cell>(), Err(CellError::BadFile(_))));
    }
}
