//! Steps and turns as text: a step is a cell (`e5`) or `pass`; a turn is its
//! steps joined by `-` (`a2-b3-c4`). Input is case-insensitive and spaces
//! inside a cell are ignored.

use crate::cell::{Cell, CellError};
use crate::step::Step;

/// Why a text is not a step.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    #[error("step {index}: {error}")]
    Cell { index: usize, error: CellError },
}

/// Parses one step: a cell or `pass`.
pub fn parse_step(text: &str) -> Result<Step, CellError> {
    let t = text.trim();
    if t.eq_ignore_ascii_case("pass") {
        return Ok(Step::Pass);
    }
    t.parse::<Cell>().map(Step::Cell)
}

/// Parses a list of steps separated by spaces, `-` or commas
/// (`"a1 b2-c3, d4"`); `index` in an error counts steps from 1.
pub fn parse_steps(text: &str) -> Result<Vec<Step>, NotationError> {
    text.split(|c: char| c.is_whitespace() || c == '-' || c == ',')
        .filter(|t| !t.is_empty())
        .enumerate()
        .map(|(i, t)| {
            parse_step(t).map_err(|error| NotationError::Cell {
                index: i + 1,
                error,
            })
        })
        .collect()
}

/// Writes a turn: its steps joined by `-`.
pub fn format_turn(steps: &[Step]) -> String {
    steps
        .iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join("-")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_lists_with_any_separator() {
        let s = parse_steps(" A1 b2-c3,  d4 PASS ").unwrap();
        assert_eq!(format_turn(&s), "a1-b2-c3-d4-pass");
        assert_eq!(parse_steps("").unwrap(), vec![]);
    }

    #[test]
    fn names_the_bad_step() {
        let e = parse_steps("a1 b2 zz").unwrap_err();
        assert_eq!(
            e.to_string(),
            "step 3: 'zz' is not a cell: it must start with a file letter a-s"
        );
    }
}
