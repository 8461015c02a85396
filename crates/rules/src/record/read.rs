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

/// Reads a record, replaying and checking every step.
pub fn read(text: &str) -> Result<Record, RecordError> {
    let mut tag_list: Vec<(String, String, usize)> = Vec::new();
    let mut movetext_start = text.lines().count() + 1;
    for (k, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.is_empty() {
            continue;
        }
        if !trimmed.starts_with('[') {
            movetext_start = k + 1;
            break;
        }
        let indent = line.len() - line.trim_start().len() + 1;
        tag_list.push(parse_tag(trimmed, k + 1, indent)?);
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
            if p.rules() != variant.rules
                || (p.width(), p.height()) != (variant.width, variant.height)
            {
                return Err(error(
                    line,
                    1,
                    "tag Position: its size or rules differ from the variant tags",
                ));
            }
            Game::from_position(variant.clone(), p)
        }
    };
    let tokens = tokenize(text, movetext_start)?;
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
            '\\' => value.push(
                chars
                    .next()
                    .ok_or_else(|| bad("a backslash must escape \\ or \""))?,
            ),
            '"' => return Err(bad("a quote inside a value must be written \\\"")),
            _ => value.push(c),
        }
    }
    Ok((name.to_string(), value, number))
}

/// Splits the movetext into tokens, dropping `{comments}`; a move number
/// glued to its turn (`1.a1-b2`) becomes two tokens.
fn tokenize<'a>(text: &'a str, first_line: usize) -> Result<Vec<Span<'a>>, RecordError> {
    let mut out = Vec::new();
    let mut comment: Option<(usize, usize)> = None;
    for (k, line) in text.lines().enumerate().skip(first_line - 1) {
        let number = k + 1;
        let mut start: Option<(usize, usize)> = None;
        let push = |from: usize, to: usize, out: &mut Vec<Span<'a>>| {
            let piece = &line[from..to];
            let col = line[..from].chars().count() + 1;
            match piece
                .find('.')
                .filter(|&d| piece[..d].chars().all(|c| c.is_ascii_digit()) && d > 0)
            {
                Some(d) => {
                    let end = d + piece[d..].chars().take_while(|&c| c == '.').count();
                    out.push(Span {
                        text: &line[from..from + end],
                        line: number,
                        column: col,
                    });
                    if end < piece.len() {
                        out.push(Span {
                            text: &line[from + end..to],
                            line: number,
                            column: col + end,
                        });
                    }
                }
                None => out.push(Span {
                    text: piece,
                    line: number,
                    column: col,
                }),
            }
        };
        for (byte, ch) in line.char_indices() {
            if comment.is_some() {
                if ch == '}' {
                    comment = None;
                }
                continue;
            }
            if ch == '{' {
                if let Some((b, _)) = start.take() {
                    push(b, byte, &mut out);
                }
                comment = Some((number, line[..byte].chars().count() + 1));
                continue;
            }
            match (ch.is_whitespace(), start) {
                (false, None) => start = Some((byte, 0)),
                (true, Some((b, _))) => {
                    push(b, byte, &mut out);
                    start = None;
                }
                _ => {}
            }
        }
        if let Some((b, _)) = start {
            push(b, line.len(), &mut out);
        }
    }
    if let Some((line, column)) = comment {
        return Err(error(line, column, "comment is never closed with }"));
    }
    Ok(out)
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
