//! The puzzle set shipped with the program (`crates/ai/puzzles/set.tsv`,
//! made by `virus-wars puzzles generate`; docs/puzzles.md) and its text
//! form: one puzzle a line, tab-separated: id, position string, solution
//! (whole turns separated by spaces, each turn's steps by `-`), themes
//! (comma-separated, `-` for none), rating. Lines starting with `#` say
//! how the set was made.

use virus_wars_rules::notation::{format_turn, parse_steps};
use virus_wars_rules::position_string;

use super::{canonical_hash, Puzzle, Theme};

/// The shipped set's text.
const SHIPPED: &str = include_str!("../../puzzles/set.tsv");

/// Why a line of a puzzle set does not read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetError {
    #[error("line {line}: {what}")]
    Line { line: usize, what: String },
}

/// A puzzle as one line of the set.
pub fn write_line(p: &Puzzle) -> String {
    let solution: Vec<String> = p.solution.iter().map(|t| format_turn(t)).collect();
    let themes: Vec<&str> = p.themes.iter().map(|t| t.name()).collect();
    format!(
        "{}\t{}\t{}\t{}\t{:.0}",
        p.id,
        position_string::write(&p.position),
        solution.join(" "),
        if themes.is_empty() {
            "-".to_string()
        } else {
            themes.join(",")
        },
        p.rating
    )
}

/// Reads line number `line` of a set (not a comment). Each turn of the
/// solution must be whole and legal, and the id must be the position's.
pub fn parse_line(text: &str, line: usize) -> Result<Puzzle, SetError> {
    let bad = |what: String| SetError::Line { line, what };
    let fields: Vec<&str> = text.split('\t').collect();
    let [id, position, solution, themes, rating] = fields[..] else {
        return Err(bad(format!(
            "expected 5 tab-separated fields, found {}",
            fields.len()
        )));
    };
    let position = position_string::read(position).map_err(|e| bad(format!("position: {e}")))?;
    let solution: Vec<Vec<_>> = solution
        .split(' ')
        .map(|t| parse_steps(&t.replace('-', " ")))
        .collect::<Result<_, _>>()
        .map_err(|e| bad(format!("solution: {e}")))?;
    let mut at = position;
    for (k, turn) in solution.iter().enumerate() {
        let side = at.side();
        for &s in turn {
            at.play(s)
                .map_err(|e| bad(format!("solution turn {}: {s}: {e}", k + 1)))?;
        }
        if at.outcome().is_none() && at.side() == side {
            return Err(bad(format!("solution turn {} is not a whole turn", k + 1)));
        }
    }
    if solution.is_empty() || solution.len() % 2 == 0 {
        return Err(bad("the solution must end with the mover's turn".into()));
    }
    let themes = if themes == "-" {
        Vec::new()
    } else {
        themes
            .split(',')
            .map(|t| Theme::from_name(t).ok_or_else(|| bad(format!("unknown theme '{t}'"))))
            .collect::<Result<_, _>>()?
    };
    let rating: f64 = rating
        .parse()
        .map_err(|_| bad(format!("rating '{rating}' is not a number")))?;
    let canonical = format!("{:016x}", canonical_hash(&position));
    if id != canonical {
        return Err(bad(format!("id {id} is not the position's ({canonical})")));
    }
    Ok(Puzzle {
        id: id.to_string(),
        position,
        solution,
        themes,
        rating,
    })
}

/// Reads a whole set.
pub fn read_set(text: &str) -> Result<Vec<Puzzle>, SetError> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(k, l)| parse_line(l, k + 1))
        .collect()
}

/// The shipped set.
pub fn shipped() -> Result<Vec<Puzzle>, SetError> {
    read_set(SHIPPED)
}
