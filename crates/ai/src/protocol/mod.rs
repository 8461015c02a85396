//! The engine protocol's commands (docs/engine-protocol.md), read and
//! written in this one module: the engine (`crates/engine`) reads them, the
//! arena's external engines and `virus-wars bot` are sent them
//! (`write.rs`); a test writes every kind and reads it back.

mod write;

pub use write::variant_command;

use std::time::Duration;

use crate::budget::parse_duration;
use crate::spec::MAX_DEPTH;
use crate::{Budget, Clock};
use virus_wars_rules::notation::parse_steps;
use virus_wars_rules::number::parse_in_range;
use virus_wars_rules::Step;

/// One line of input.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    Hello,
    IsReady,
    SetOption {
        name: String,
        value: String,
    },
    /// A preset name (or `custom`) and `key=value` overrides.
    Variant {
        preset: String,
        overrides: Vec<(String, String)>,
    },
    NewGame,
    Position {
        start: Start,
        moves: Vec<Step>,
    },
    Go(Go),
    Stop,
    PonderHit,
    Show,
    Legal,
    Quit,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Start {
    /// The variant's start.
    StartPos,
    /// A position string.
    Set(String),
    /// A fog game as the side to move sees it: a view position and how
    /// many enemy pieces stand on its hidden cells.
    View { text: String, hidden: u64 },
}

/// Limits of `go`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Go {
    pub budget: Budget,
    pub infinite: bool,
    pub ponder: bool,
    pub xclock: (Option<Duration>, Option<Duration>),
    pub oclock: (Option<Duration>, Option<Duration>),
}

impl Go {
    /// The budget for the side to step (its clock, if one was given).
    pub fn budget_for(&self, side_is_x: bool) -> Budget {
        let (remaining, increment) = if side_is_x { self.xclock } else { self.oclock };
        let mut b = self.budget;
        if let Some(remaining) = remaining {
            b.clock = Some(Clock {
                remaining,
                increment: increment.unwrap_or_default(),
            });
        }
        b
    }
}

/// Parses one line; `Ok(None)` for a blank line.
pub fn parse(line: &str) -> Result<Option<Command>, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some((&head, rest)) = words.split_first() else {
        return Ok(None);
    };
    let none_after = |c: Command| {
        if rest.is_empty() {
            Ok(Some(c))
        } else {
            Err(format!("'{head}' takes no arguments"))
        }
    };
    match head {
        "vwe" | "hello" => none_after(Command::Hello),
        "isready" => none_after(Command::IsReady),
        "newgame" => none_after(Command::NewGame),
        "stop" => none_after(Command::Stop),
        "ponderhit" => none_after(Command::PonderHit),
        "show" | "d" => none_after(Command::Show),
        "legal" => none_after(Command::Legal),
        "quit" => none_after(Command::Quit),
        "setoption" => parse_setoption(rest),
        "variant" => parse_variant(rest),
        "position" => parse_position(rest),
        "go" => parse_go(rest).map(|g| Some(Command::Go(g))),
        _ => Err(format!(
            "unknown command '{head}': expected vwe, isready, setoption, variant, newgame, position, go, stop, ponderhit, show, legal or quit"
        )),
    }
}

fn parse_setoption(rest: &[&str]) -> Result<Option<Command>, String> {
    let usage = "usage: setoption name <Name> value <value>";
    if rest.first() != Some(&"name") {
        return Err(usage.into());
    }
    let v = rest.iter().position(|w| *w == "value").ok_or(usage)?;
    let name = rest[1..v].join(" ");
    if name.is_empty() {
        return Err(usage.into());
    }
    Ok(Some(Command::SetOption {
        name,
        value: rest[v + 1..].join(" "),
    }))
}

fn parse_variant(rest: &[&str]) -> Result<Option<Command>, String> {
    let (&preset, overrides) = rest
        .split_first()
        .ok_or("usage: variant <preset|custom> [key=value ...]")?;
    let overrides = overrides
        .iter()
        .map(|kv| {
            kv.split_once('=')
                .map(|(k, v)| (k.to_ascii_lowercase(), v.to_string()))
                .ok_or_else(|| format!("'{kv}' should be key=value, like size=11x11"))
        })
        .collect::<Result<_, _>>()?;
    Ok(Some(Command::Variant {
        preset: preset.to_string(),
        overrides,
    }))
}

fn parse_position(rest: &[&str]) -> Result<Option<Command>, String> {
    let usage = "usage: position startpos [moves STEPS] | position set <position string> [moves STEPS] | position view <view position> hidden N";
    if let Some((&"view", fields)) = rest.split_first() {
        let k = fields.iter().position(|w| *w == "hidden").ok_or(
            "position view: give the view, then 'hidden N' (the enemy pieces on its '?' cells)",
        )?;
        if k == 0 || k + 2 != fields.len() {
            return Err(usage.into());
        }
        let hidden = parse_in_range("hidden", fields[k + 1], 0, 10_000)?;
        return Ok(Some(Command::Position {
            start: Start::View {
                text: fields[..k].join(" "),
                hidden,
            },
            moves: Vec::new(),
        }));
    }
    let moves_at = rest.iter().position(|w| *w == "moves");
    let (head, moves) = match moves_at {
        Some(k) => (&rest[..k], rest[k + 1..].join(" ")),
        None => (rest, String::new()),
    };
    let start = match head.split_first() {
        Some((&"startpos", [])) => Start::StartPos,
        Some((&"set", fields)) if !fields.is_empty() => Start::Set(fields.join(" ")),
        _ => return Err(usage.into()),
    };
    let moves = parse_steps(&moves).map_err(|e| format!("moves: {e}"))?;
    Ok(Some(Command::Position { start, moves }))
}

/// The longest time a `go` limit may give, in milliseconds (as
/// [`parse_duration`]'s limit: about 115 days).
pub const MAX_MILLIS: u64 = 10_000_000_000;

fn parse_go(rest: &[&str]) -> Result<Go, String> {
    let mut go = Go::default();
    let mut it = rest.iter();
    let mut seen: Vec<&str> = Vec::new();
    while let Some(&word) = it.next() {
        if seen.contains(&word) {
            return Err(format!("'{word}' is given twice"));
        }
        seen.push(word);
        let mut value = || it.next().copied().ok_or(format!("'{word}' needs a value"));
        let ms = |v: &str| -> Result<Duration, String> {
            parse_in_range(&format!("{word} (milliseconds)"), v, 0, MAX_MILLIS)
                .map(Duration::from_millis)
        };
        match word {
            "infinite" => go.infinite = true,
            "ponder" => go.ponder = true,
            "time" | "movetime" if seen.contains(&"time") && seen.contains(&"movetime") => {
                return Err("time and movetime are the same limit: give one".into())
            }
            "time" => go.budget.time = Some(parse_duration(value()?)?),
            "movetime" => go.budget.time = Some(ms(value()?)?),
            "nodes" | "playouts" if seen.contains(&"nodes") && seen.contains(&"playouts") => {
                return Err("nodes and playouts are the same limit: give one".into())
            }
            "nodes" | "playouts" => {
                go.budget.nodes = Some(parse_in_range(word, value()?, 1, u64::MAX)?);
            }
            "depth" => {
                go.budget.depth =
                    Some(parse_in_range("depth", value()?, 1, MAX_DEPTH.into())? as u32);
            }
            "xtime" => go.xclock.0 = Some(ms(value()?)?),
            "xinc" => go.xclock.1 = Some(ms(value()?)?),
            "otime" => go.oclock.0 = Some(ms(value()?)?),
            "oinc" => go.oclock.1 = Some(ms(value()?)?),
            _ => return Err(format!("unknown go limit '{word}': expected time, movetime, nodes, depth, xtime, xinc, otime, oinc, infinite or ponder")),
        }
    }
    if go.ponder && go.infinite {
        return Err("go ponder and go infinite do not mix: give one".into());
    }
    Ok(go)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_main_commands() {
        assert_eq!(parse("  ").unwrap(), None);
        assert_eq!(parse("vwe").unwrap(), Some(Command::Hello));
        let Some(Command::Position { start, moves }) =
            parse("position startpos moves a1 b2-c3").unwrap()
        else {
            panic!()
        };
        assert_eq!((start, moves.len()), (Start::StartPos, 3));
        let Some(Command::Go(g)) = parse("go depth 4 xtime 60000 xinc 1000").unwrap() else {
            panic!()
        };
        assert_eq!(g.budget.depth, Some(4));
        assert_eq!(
            g.budget_for(true).clock.unwrap().remaining,
            Duration::from_secs(60)
        );
        assert_eq!(g.budget_for(false).clock, None);
        assert_eq!(
            parse("setoption name Player value level:3").unwrap(),
            Some(Command::SetOption {
                name: "Player".into(),
                value: "level:3".into()
            })
        );
    }

    #[test]
    fn says_what_is_wrong() {
        #[rustfmt::skip]
        let exact = [
            ("go depth", "'depth' needs a value"),
            ("go xtime soon", "xtime (milliseconds) must be a whole number between 0 and 10000000000, not 'soon'"),
            ("go depth 99999999999", "depth must be between 1 and 64, not 99999999999"),
            ("go depth 3 depth 4", "'depth' is given twice"),
            ("go nodes 0", "nodes must be between 1 and 18446744073709551615, not 0"),
            ("quit now", "'quit' takes no arguments"),
        ];
        for (line, want) in exact {
            assert_eq!(parse(line).unwrap_err(), want, "{line}");
        }
        let e = |line| parse(line).unwrap_err();
        assert!(e("fly").starts_with("unknown command 'fly'"));
        assert!(e("go time 1e3").contains("'1e3' is not a duration"));
        assert!(e("position middle").starts_with("usage: position"));
        assert!(e("position startpos moves a1 zz").contains("'zz' is not a cell"));
    }
}
