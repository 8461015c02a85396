//! The one-line position string (like chess FEN), eight fields separated by
//! spaces:
//!
//! ```text
//! 10x10 steps=3,first=3,start=corner-entry,end=standard 10/10/10/10/10/10/10/10/10/10 x 3 1 - 0
//! size  rules                                            board (top rank first)       side steps-left turn entered passes
//! ```
//!
//! Board letters: `X`/`O` live viruses, `x`/`o` zombies owned by X/O, `#` a
//! neutral trench, `*` an obstacle, a number a run of empty cells; ranks from
//! the last down to 1, separated by `/`. `rules` may also start with a preset
//! name (`classic` or `gcr,end=pass`). `entered` lists who has made its first
//! step (`XO`, `X`, `O` or `-`).

use std::fmt::Write;

use crate::any_position::AnyPosition;
use crate::number::parse_in_range;
use crate::rules::{Rules, MAX_STEPS};
use crate::setup::{Content, Setup};
use crate::side::Side;
use crate::validation::SetupError;
use crate::variant::{parse_size, Preset};

/// What is wrong with a position string, and where (1-based column).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionStringError {
    #[error("column {column}: {message}")]
    Syntax { column: usize, message: String },
    /// Not a `#[source]`: the message already holds the reason, and error
    /// chains would print it twice.
    #[error("the position is not playable: {0}")]
    Setup(SetupError),
}

impl From<SetupError> for PositionStringError {
    fn from(e: SetupError) -> Self {
        PositionStringError::Setup(e)
    }
}

/// Writes the position string of a setup.
pub fn write_setup(s: &Setup) -> String {
    let mut out = format!("{}x{} {} ", s.width, s.height, write_rules(&s.rules));
    let w = s.width as usize;
    for rank in (0..s.height as usize).rev() {
        let mut empty = 0;
        for file in 0..w {
            let c = s.cells[rank * w + file];
            if c == Content::Empty {
                empty += 1;
                continue;
            }
            if empty > 0 {
                write!(out, "{empty}").unwrap();
                empty = 0;
            }
            out.push(crate::diagram::letter(c));
        }
        if empty > 0 {
            write!(out, "{empty}").unwrap();
        }
        if rank > 0 {
            out.push('/');
        }
    }
    let entered: String = Side::BOTH
        .iter()
        .filter(|s2| s.entered[s2.index()])
        .map(|s2| s2.to_string())
        .collect();
    let entered = if entered.is_empty() {
        "-".to_string()
    } else {
        entered
    };
    write!(
        out,
        " {} {} {} {} {}",
        s.side.letter(),
        s.steps_left,
        s.turn,
        entered,
        s.passes
    )
    .unwrap();
    out
}

/// Writes the position string of a position.
pub fn write(p: &AnyPosition) -> String {
    write_setup(&p.to_setup())
}

/// The rules field: `steps=3,first=3,start=corners,end=standard[,deathmatch]`.
pub fn write_rules(r: &Rules) -> String {
    let mut s = format!(
        "steps={},first={},start={},end={}",
        r.steps_per_turn, r.first_turn_steps, r.start, r.end
    );
    if r.deathmatch {
        s.push_str(",deathmatch");
    }
    s
}

/// Reads a position string and validates the position.
pub fn read(text: &str) -> Result<AnyPosition, PositionStringError> {
    Ok(AnyPosition::from_setup(&read_setup(text)?)?)
}

/// Reads a position string without validating the position.
pub fn read_setup(text: &str) -> Result<Setup, PositionStringError> {
    read_setup_with(text, false).map(|(s, _)| s)
}

/// Reads a view's position string (fog of war, `crate::fog`): `?` marks a
/// cell its side does not see (read as empty); the column of each such
/// cell's `?`, by cell (rank-major from a1). Not validated.
pub fn read_view_setup(text: &str) -> Result<(Setup, Vec<Option<usize>>), PositionStringError> {
    read_setup_with(text, true)
}

fn read_setup_with(
    text: &str,
    unknown: bool,
) -> Result<(Setup, Vec<Option<usize>>), PositionStringError> {
    let fields = split_fields(text);
    let names = [
        "size",
        "rules",
        "board",
        "side",
        "steps-left",
        "turn",
        "entered",
        "passes",
    ];
    if fields.len() != names.len() {
        let column = fields
            .get(names.len())
            .map_or(text.chars().count() + 1, |f| f.0);
        return Err(syntax(
            column,
            format!(
                "expected 8 fields ({}), found {}",
                names.join(" "),
                fields.len()
            ),
        ));
    }
    let field = |k: usize| fields[k];
    let (col, size) = field(0);
    let (width, height) = parse_size(size).map_err(|e| syntax(col, e.to_string()))?;
    let rules = read_rules(field(1).1, field(1).0)?;
    let (cells, unknown) = read_board(field(2).1, field(2).0, width, height, unknown)?;
    let (col, side) = field(3);
    let side = match side.to_ascii_lowercase().as_str() {
        "x" => Side::X,
        "o" => Side::O,
        _ => {
            return Err(syntax(
                col,
                format!("side to move must be x or o, not '{side}'"),
            ))
        }
    };
    let number = |k: usize, what: &str, min: u64, max: u64| -> Result<u64, PositionStringError> {
        let (col, t) = field(k);
        parse_in_range(what, t, min, max).map_err(|m| syntax(col, m))
    };
    let steps_left = number(4, "steps left", 1, MAX_STEPS as u64)? as u8;
    let turn = number(5, "the turn number", 1, u32::MAX as u64)? as u32;
    let (col, ent) = field(6);
    let mut entered = [false, false];
    if ent != "-" {
        for (k, ch) in ent.chars().enumerate() {
            let side = match ch.to_ascii_uppercase() {
                'X' => Side::X,
                'O' => Side::O,
                _ => {
                    return Err(syntax(
                        col + k,
                        format!("entered lists X and O (or is '-'), not '{ch}'"),
                    ))
                }
            };
            if std::mem::replace(&mut entered[side.index()], true) {
                return Err(syntax(
                    col + k,
                    format!("entered lists {side} twice: write XO, X, O or -"),
                ));
            }
        }
    }
    let passes = number(7, "passes", 0, 2)? as u8;
    let setup = Setup {
        width,
        height,
        rules,
        cells,
        side,
        steps_left,
        turn,
        entered,
        passes,
    };
    Ok((setup, unknown))
}

fn syntax(column: usize, message: String) -> PositionStringError {
    PositionStringError::Syntax { column, message }
}

/// Whitespace-separated fields with their 1-based starting columns.
fn split_fields(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (col, (byte, ch)) in text.char_indices().enumerate() {
        match (ch.is_whitespace(), start) {
            (false, None) => start = Some((col + 1, byte)),
            (true, Some((c, b))) => {
                out.push((c, &text[b..byte]));
                start = None;
            }
            _ => {}
        }
    }
    if let Some((c, b)) = start {
        out.push((c, &text[b..]));
    }
    out
}

fn read_rules(text: &str, column: usize) -> Result<Rules, PositionStringError> {
    let mut rules = Preset::Classic.variant().rules;
    let mut col = column;
    let mut seen: Vec<String> = Vec::new();
    for (k, part) in text.split(',').enumerate() {
        let here = col;
        col += part.chars().count() + 1;
        let (key, value) = match part.split_once('=') {
            Some((k2, v)) => (k2.trim().to_ascii_lowercase(), v.trim()),
            None if k == 0 && part.parse::<Preset>().is_ok() => {
                rules = part
                    .parse::<Preset>()
                    .map(|p| p.variant().rules)
                    .unwrap_or(rules);
                continue;
            }
            None => (part.trim().to_ascii_lowercase(), "yes"),
        };
        let bad = |m: String| syntax(here, m);
        if seen.contains(&key) {
            return Err(bad(format!("rules key '{key}' is given twice")));
        }
        seen.push(key.clone());
        let num = || {
            parse_in_range(&key, value, 1, MAX_STEPS as u64)
                .map(|n| n as u8)
                .map_err(bad)
        };
        match key.as_str() {
            "steps" => rules.steps_per_turn = num()?,
            "first" => rules.first_turn_steps = num()?,
            "start" => rules.start = value.parse().map_err(bad)?,
            "end" => rules.end = value.parse().map_err(bad)?,
            "deathmatch" => {
                rules.deathmatch = match value {
                    "yes" | "true" | "1" => true,
                    "no" | "false" | "0" => false,
                    _ => return Err(bad(format!("deathmatch is yes or no, not '{value}'"))),
                }
            }
            _ => {
                return Err(bad(format!(
                    "unknown rules key '{key}': expected steps, first, start, end, deathmatch or a preset name first"
                )))
            }
        }
    }
    Ok(rules)
}

/// The board's cells, and the column of each `?` (a cell not seen, when
/// `unknown` allows it; read as empty).
fn read_board(
    text: &str,
    column: usize,
    width: u8,
    height: u8,
    unknown: bool,
) -> Result<(Vec<Content>, Vec<Option<usize>>), PositionStringError> {
    let (w, h) = (width as usize, height as usize);
    let mut cells = vec![Content::Empty; w * h];
    let mut unseen = vec![None; w * h];
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != h {
        return Err(syntax(
            column,
            format!("the board has {} ranks but the size says {h}", ranks.len()),
        ));
    }
    let mut col = column;
    for (k, rank_text) in ranks.iter().enumerate() {
        let rank = h - 1 - k;
        let mut file = 0usize;
        let mut run = 0usize;
        let rank_start = col;
        for ch in rank_text.chars() {
            let content = match ch {
                '0'..='9' => {
                    run = run
                        .saturating_mul(10)
                        .saturating_add(ch as usize - '0' as usize);
                    if file.saturating_add(run) > w {
                        return Err(syntax(
                            col,
                            format!("rank {} has more than {w} cells", rank + 1),
                        ));
                    }
                    col += 1;
                    continue;
                }
                'X' => Some(Content::Virus(Side::X)),
                'O' => Some(Content::Virus(Side::O)),
                'x' => Some(Content::Zombie(Side::X)),
                'o' => Some(Content::Zombie(Side::O)),
                '#' => Some(Content::Trench),
                '*' => Some(Content::Obstacle),
                // A cell the viewer does not see (a view position only).
                '?' if unknown => None,
                _ => {
                    return Err(syntax(
                        col,
                        format!("'{ch}' is not a board letter (X O x o # * or a number)"),
                    ))
                }
            };
            file += run;
            run = 0;
            if file >= w {
                return Err(syntax(
                    col,
                    format!("rank {} has more than {w} cells", rank + 1),
                ));
            }
            match content {
                Some(content) => cells[rank * w + file] = content,
                None => unseen[rank * w + file] = Some(col),
            }
            file += 1;
            col += 1;
        }
        file += run;
        if file != w {
            return Err(syntax(
                rank_start,
                format!("rank {} has {file} cells, expected {w}", rank + 1),
            ));
        }
        col += 1;
    }
    Ok((cells, unseen))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_steps;

    #[test]
    fn classic_start() {
        let p = Preset::Classic.variant().start().unwrap();
        assert_eq!(
            write(&p),
            "10x10 steps=3,first=3,start=corner-entry,end=standard 10/10/10/10/10/10/10/10/10/10 x 3 1 - 0"
        );
    }

    #[test]
    fn round_trips_a_midgame() {
        let mut p = Preset::Gcr.variant().start().unwrap();
        for s in parse_steps("b2 j10 j11 i11 b3 a2 b4 j9 i9 i8 c3 d4").unwrap() {
            p.play(s).unwrap();
        }
        let text = write(&p);
        assert_eq!(read(&text).unwrap(), p);
        assert_eq!(write(&read(&text).unwrap()), text);
    }

    #[test]
    fn accepts_presets_and_says_where_it_is_wrong() {
        let p = read("3x3 classic 3/3/3 x 3 1 - 0").unwrap();
        assert_eq!(p.width(), 3);
        // The fourth found by fuzzing: a run of digits too long for any number.
        #[rustfmt::skip]
        let cases = [
            ("3x3 classic 3/3/2Q x 3 1 - 0", "column 18: 'Q' is not a board letter (X O x o # * or a number)"),
            ("3x3 classic 3/3/4 x 3 1 - 0", "column 17: rank 1 has more than 3 cells"),
            ("3x3 classic 3/3/1X1 x 3 1 - 0", "the position is not playable: X has pieces on the board but is marked as not entered"),
            ("3x3 classic 3/3/1x22222222222222222222222229 x 3 1 - 0", "column 19: rank 1 has more than 3 cells"),
        ];
        for (text, want) in cases {
            assert_eq!(read(text).unwrap_err().to_string(), want, "{text}");
        }
        let e = read("3x3 classic,speed=2 3/3/3 x 3 1 - 0").unwrap_err();
        assert!(
            e.to_string()
                .starts_with("column 13: unknown rules key 'speed'"),
            "{e}"
        );
        let e = read("3x3 classic 3/3/3 x 3").unwrap_err();
        assert!(e.to_string().contains("expected 8 fields"), "{e}");
        // Megabytes of input are refused in one pass.
        let huge = format!("3x3 classic {}/3/3 x 3 1 - 0", "1".repeat(3 << 20));
        assert!(read(&huge)
            .unwrap_err()
            .to_string()
            .contains("has more than 3 cells"));
        let many = format!("3x3 classic 3/3/3 x 3 1 - 0{}", " 0".repeat(1 << 20));
        assert!(read(&many)
            .unwrap_err()
            .to_string()
            .contains("expected 8 fields"));
        let e = read("3x3 classic 3/3/X2 x 3 1 - 0").unwrap_err();
        assert_eq!(
            e.to_string(),
            "the position is not playable: X has pieces on the board but is marked as not entered"
        );
    }
}
