//! Reading a record: tags, then numbered turns, every step checked.

use super::{parse_result_token, result_token, tags, Record, RecordError};
use crate::game::Game;
use crate::notation::parse_step;
use crate::position_string;
use crate::side::Side;

/// A piece of text and where it starts (1-based).
#[derive(Clone, Copy)]
struct Span<'a> {
    text: &'a str,
    line: usize,
    column: usize,
}

fn error(line: usize, column: usize, message: impl Into<String>) -> RecordError {
    RecordError {
        line,
        column,
        message: message.into(),
    }
}

/// Reads a record from bytes (a file, a request body): they must be UTF-8;
/// a leading byte-order mark is skipped.
pub fn read_bytes(bytes: &[u8]) -> Result<Record, RecordError> {
    match std::str::from_utf8(bytes) {
        Ok(text) => read(text),
        Err(e) => {
            let good = &bytes[..e.valid_up_to()];
            let line = good.iter().filter(|&&b| b == b'\n').count() + 1;
            let start = good.iter().rposition(|&b| b == b'\n').map_or(0, |k| k + 1);
            // Valid up to here, so this slice decodes.
            let column = std::str::from_utf8(&good[start..]).map_or(1, |t| t.chars().count() + 1);
            Err(error(
                line,
                column,
                format!(
                    "the record is not UTF-8 text (byte 0x{:02x})",
                    bytes[e.valid_up_to()]
                ),
            ))
        }
    }
}

/// Reads a record, replaying and checking every step. A leading byte-order
/// mark is skipped. Time and memory are linear in the text's length.
pub fn read(text: &str) -> Result<Record, RecordError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.trim().is_empty() {
        return Err(error(
            1,
            1,
            "the record is empty: a record has tag lines, a blank line, the turns and the result",
        ));
    }
    let mut tag_list: Vec<(String, String, usize)> = Vec::new();
    let mut tag_lines: std::collections::HashMap<String, usize> = Default::default();
    let mut movetext_start = None;
    for (k, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.is_empty() {
            continue;
        }
        if !trimmed.starts_with('[') {
            movetext_start = Some(k + 1);
            break;
        }
        let indent = line.len() - line.trim_start().len() + 1;
        let tag = parse_tag(trimmed, k + 1, indent)?;
        if let Some(first) = tag_lines.insert(tag.0.clone(), k + 1) {
            return Err(error(
                k + 1,
                indent,
                format!(
                    "tag {} appears twice (lines {first} and {}): keep one",
                    tag.0,
                    k + 1
                ),
            ));
        }
        tag_list.push(tag);
    }
    let find = |name: &str| tag_list.iter().find(|t| t.0 == name);
    let mut variant = match find("Variant") {
        Some((_, v, line)) => tags::base(v).map_err(|m| error(*line, 1, m))?,
        None => tags::base("classic").expect("classic is a preset"),
    };
    let mut record_tags: Vec<(String, String)> = Vec::new();
    let mut fields = Record::new(Game::new(variant.clone()).expect("presets are valid"));
    let mut start_position = None;
    let mut result_tag = None;
    for (name, value, line) in &tag_list {
        let at = |m: String| error(*line, 1, format!("tag {name}: {m}"));
        match name.as_str() {
            "Variant" => {}
            n if tags::VARIANT_TAGS.contains(&n) => {
                tags::apply(&mut variant, n, value).map_err(at)?
            }
            "Event" => fields.event = value.clone(),
            "Site" => fields.site = value.clone(),
            "Date" => fields.date = value.clone(),
            "X" => fields.x_player = value.clone(),
            "O" => fields.o_player = value.clone(),
            "Termination" => fields.termination = value.clone(),
            "TimeControl" => fields.time_control = value.clone(),
            "Result" => {
                result_tag = Some(parse_result_token(value).ok_or_else(|| {
                    at(format!(
                        "'{value}' is not a result: use 1-0, 0-1, 1/2-1/2 or *"
                    ))
                })?)
            }
            "Position" => start_position = Some((value.clone(), *line)),
            _ => record_tags.push((name.clone(), value.clone())),
        }
    }
    variant
        .check()
        .map_err(|e| error(1, 1, format!("the variant is not playable: {e}")))?;
    let mut game = match start_position {
        None => Game::new(variant.clone()).expect("variant was checked"),
        Some((pos, line)) => {
            let p = position_string::read(&pos)
                .map_err(|e| error(line, 1, format!("tag Position: {e}")))?;
            Game::from_position(variant.clone(), p)
                .map_err(|e| error(line, 1, format!("tag Position: {e}")))?
        }
    };
    let tokens = match movetext_start {
        Some(first_line) => tokenize(text, first_line)?,
        None => Vec::new(),
    };
    let mut result_token_seen = None;
    for (k, tok) in tokens.iter().enumerate() {
        if let Some(r) = parse_result_token(tok.text) {
            if k + 1 != tokens.len() {
                return Err(error(
                    tok.line,
                    tok.column,
                    "the result must be the last thing in the record",
                ));
            }
            result_token_seen = Some((r, *tok));
            continue;
        }
        if let Some(number) = move_number(tok.text) {
            check_move_number(&game, number, *tok)?;
            continue;
        }
        play_turn(
            &mut game,
            *tok,
            tokens
                .get(k + 1)
                .is_some_and(|t| parse_result_token(t.text).is_none()),
        )?;
    }
    let result = match (result_tag, result_token_seen) {
        (Some(t), Some((m, tok))) if t != m => {
            return Err(error(
                tok.line,
                tok.column,
                format!(
                    "the result {} differs from the Result tag {}",
                    result_token(m),
                    result_token(t)
                ),
            ))
        }
        (Some(t), _) => t,
        (None, Some((m, _))) => m,
        (None, None) => None,
    };
    if let Some(o) = game.outcome() {
        if result != Some(o) {
            let line = tokens.last().map_or(1, |t| t.line);
            return Err(error(
                line,
                1,
                format!(
                    "the game is over ({o}) but the record says {}",
                    result_token(result)
                ),
            ));
        }
    }
    fields.result = result;
    fields.extra_tags = record_tags;
    fields.game = game;
    Ok(fields)
}

fn parse_tag(
    line: &str,
    number: usize,
    column: usize,
) -> Result<(String, String, usize), RecordError> {
    let bad = |m: &str| {
        error(
            number,
            column,
            format!("{m}: a tag looks like [Name \"value\"]"),
        )
    };
    let inner = line
        .strip_prefix('[')
        .and_then(|l| l.strip_suffix(']'))
        .ok_or_else(|| bad("unclosed tag"))?;
    let (name, rest) = inner
        .split_once(char::is_whitespace)
        .ok_or_else(|| bad("tag without a value"))?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(bad("bad tag name"));
    }
    let quoted = rest.trim();
    let body = quoted
        .strip_prefix('"')
        .and_then(|q| q.strip_suffix('"'))
        .ok_or_else(|| bad("the value must be in double quotes"))?;
    let mut value = String::new();
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => value.push(match chars.next() {
                Some('\\') => '\\',
                Some('"') => '"',
                Some('n') => '\n',
                Some('r') => '\r',
                Some('t') => '\t',
                Some(other) => {
                    return Err(bad(&format!(
                        "unknown escape '\\{other}' (a value may use \\\\, \\\", \\n, \\r and \\t)"
                    )))
                }
                None => return Err(bad("a value cannot end with a lone backslash")),
            }),
            '"' => return Err(bad("a quote inside a value must be written \\\"")),
            _ => value.push(c),
        }
    }
    Ok((name.to_string(), value, number))
}

/// Splits the movetext into tokens, dropping `{comments}`; a move number
/// glued to its turn (`1.a1-b2`) becomes two tokens. One pass over the
/// text: columns are counted as it goes, never from the line's start.
fn tokenize<'a>(text: &'a str, first_line: usize) -> Result<Vec<Span<'a>>, RecordError> {
    let mut out = Vec::new();
    let mut comment: Option<(usize, usize)> = None;
    for (k, line) in text.lines().enumerate().skip(first_line - 1) {
        let number = k + 1;
        // The token being read: its first byte and its column.
        let mut start: Option<(usize, usize)> = None;
        let mut column = 0;
        for (byte, ch) in line.char_indices() {
            column += 1;
            if comment.is_some() {
                if ch == '}' {
                    comment = None;
                }
                continue;
            }
            if ch == '{' {
                if let Some((b, c)) = start.take() {
                    push_token(&line[b..byte], number, c, &mut out);
                }
                comment = Some((number, column));
                continue;
            }
            match (ch.is_whitespace(), start) {
                (false, None) => start = Some((byte, column)),
                (true, Some((b, c))) => {
                    push_token(&line[b..byte], number, c, &mut out);
                    start = None;
                }
                _ => {}
            }
        }
        if let Some((b, c)) = start {
            push_token(&line[b..], number, c, &mut out);
        }
    }
    if let Some((line, column)) = comment {
        return Err(error(line, column, "comment is never closed with }"));
    }
    Ok(out)
}

/// Adds a token, splitting a move number off its turn (`1.a1` → `1.`, `a1`).
fn push_token<'a>(piece: &'a str, line: usize, column: usize, out: &mut Vec<Span<'a>>) {
    let digits = piece.bytes().take_while(u8::is_ascii_digit).count();
    let dots = piece[digits..].bytes().take_while(|&b| b == b'.').count();
    if digits > 0 && dots > 0 && digits + dots < piece.len() {
        let end = digits + dots;
        out.push(Span {
            text: &piece[..end],
            line,
            column,
        });
        out.push(Span {
            text: &piece[end..],
            line,
            column: column + end,
        });
    } else {
        out.push(Span {
            text: piece,
            line,
            column,
        });
    }
}

/// `12.` or `12...` → (12, whether O's turn follows).
fn move_number(t: &str) -> Option<(u32, bool)> {
    let digits = t.trim_end_matches('.');
    let dots = t.len() - digits.len();
    if dots == 0 || !digits.chars().all(|c| c.is_ascii_digit()) || (dots != 1 && dots != 3) {
        return None;
    }
    digits.parse().ok().map(|n| (n, dots == 3))
}

fn check_move_number(
    game: &Game,
    (number, black): (u32, bool),
    tok: Span<'_>,
) -> Result<(), RecordError> {
    let p = game.position();
    let want = p.turn().div_ceil(2);
    let side = if black { Side::O } else { Side::X };
    if number != want || side != p.side() {
        let expect = if p.side() == Side::X {
            format!("{want}.")
        } else {
            format!("{want}...")
        };
        return Err(error(
            tok.line,
            tok.column,
            format!("move number '{}' out of place: expected {expect}", tok.text),
        ));
    }
    Ok(())
}

/// Plays one turn token; unless it is the record's last turn it must fill its turn.
fn play_turn(game: &mut Game, tok: Span<'_>, more_follow: bool) -> Result<(), RecordError> {
    let side = game.position().side();
    let turn = game.position().turn();
    let mut column = tok.column;
    for part in tok.text.split('-') {
        let here = column;
        column += part.chars().count() + 1;
        let step = parse_step(part).map_err(|e| error(tok.line, here, e.to_string()))?;
        if game.position().turn() != turn {
            return Err(error(
                tok.line,
                here,
                format!("{step} is one step too many: {side}'s turn ended before it"),
            ));
        }
        let number = game.steps().len() + 1;
        game.play(step)
            .map_err(|e| error(tok.line, here, format!("step {number} ({step}): {e}")))?;
    }
    let p = game.position();
    if more_follow && p.turn() == turn && p.outcome().is_none() {
        return Err(error(
            tok.line,
            tok.column,
            format!(
                "turn '{}' is unfinished: {side} still has {} step(s) to play",
                tok.text,
                p.steps_left()
            ),
        ));
    }
    Ok(())
}
