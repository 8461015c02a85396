//! Writing the protocol's commands, each as the one line [`super::parse`]
//! reads back.

use std::fmt::{self, Display, Formatter, Write};
use std::time::Duration;

use virus_wars_rules::Variant;

use super::{Command, Go, Start};

impl Display for Command {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Command::Hello => f.write_str("vwe"),
            Command::IsReady => f.write_str("isready"),
            Command::NewGame => f.write_str("newgame"),
            Command::Stop => f.write_str("stop"),
            Command::PonderHit => f.write_str("ponderhit"),
            Command::Show => f.write_str("show"),
            Command::Legal => f.write_str("legal"),
            Command::Quit => f.write_str("quit"),
            Command::SetOption { name, value } => write!(f, "setoption name {name} value {value}"),
            Command::Variant { preset, overrides } => {
                f.write_str("variant ")?;
                f.write_str(preset)?;
                for (key, value) in overrides {
                    write!(f, " {key}={value}")?;
                }
                Ok(())
            }
            Command::Position { start, moves } => {
                match start {
                    Start::StartPos => f.write_str("position startpos")?,
                    Start::Set(text) => write!(f, "position set {text}")?,
                    Start::View { text, hidden } => {
                        return write!(f, "position view {text} hidden {hidden}")
                    }
                }
                if !moves.is_empty() {
                    f.write_str(" moves")?;
                    for m in moves {
                        write!(f, " {m}")?;
                    }
                }
                Ok(())
            }
            Command::Go(go) => write!(f, "go{go}"),
        }
    }
}

impl Display for Go {
    /// The limits, each after a space (none for a bare `go`).
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let ms = |d: Duration| d.as_millis();
        let mut out = String::new();
        if let Some(t) = self.budget.time {
            let _ = write!(out, " movetime {}", ms(t));
        }
        if let Some(n) = self.budget.nodes {
            let _ = write!(out, " nodes {n}");
        }
        if let Some(d) = self.budget.depth {
            let _ = write!(out, " depth {d}");
        }
        for (name, value) in [
            ("xtime", self.xclock.0),
            ("xinc", self.xclock.1),
            ("otime", self.oclock.0),
            ("oinc", self.oclock.1),
        ] {
            if let Some(v) = value {
                let _ = write!(out, " {name} {}", ms(v));
            }
        }
        if self.infinite {
            out.push_str(" infinite");
        }
        if self.ponder {
            out.push_str(" ponder");
        }
        f.write_str(&out)
    }
}

/// The `variant` command that tells an engine `v`: every option, as
/// `custom` overrides. A fog game is told without fog (the engine is given
/// each position as the side to move sees it), and without the seed where
/// its layout is hidden: with it, the engine could lay out every trench
/// and base it does not see (docs/rules.md §8).
pub fn variant_command(v: &Variant) -> Command {
    let overrides = v
        .option_values()
        .into_iter()
        .filter(|(key, _, _)| *key != "fog" && !(*key == "seed" && v.hides_layout()))
        .map(|(key, _, value)| {
            // One word: the obstacles' cells joined by commas.
            let value = if key == "obstacles" {
                value.split_whitespace().collect::<Vec<_>>().join(",")
            } else {
                value
            };
            (key.to_string(), value)
        })
        .collect();
    Command::Variant {
        preset: "custom".into(),
        overrides,
    }
}

#[cfg(test)]
mod tests {
    use super::super::parse;
    use super::*;
    use virus_wars_rules::notation::parse_steps;
    use virus_wars_rules::rng::SplitMix64;
    use virus_wars_rules::variant::VariantOptions;

    /// Every kind of command, written and read back, is itself.
    #[test]
    fn every_command_reads_back_as_written() {
        let go = |f: &dyn Fn(&mut Go)| {
            let mut g = Go::default();
            f(&mut g);
            Command::Go(g)
        };
        let commands = vec![
            Command::Hello,
            Command::IsReady,
            Command::NewGame,
            Command::Stop,
            Command::PonderHit,
            Command::Show,
            Command::Legal,
            Command::Quit,
            Command::SetOption {
                name: "Player".into(),
                value: "mcts:time=1s".into(),
            },
            Command::Variant {
                preset: "classic".into(),
                overrides: vec![("size".into(), "11x11".into())],
            },
            Command::Position {
                start: Start::StartPos,
                moves: parse_steps("a1 b2 c3 pass").unwrap(),
            },
            Command::Position {
                start: Start::Set("3x3 x s3 3/3/3".into()),
                moves: Vec::new(),
            },
            Command::Position {
                start: Start::View {
                    text: "3x3 x s3 ?2/3/3".into(),
                    hidden: 4,
                },
                moves: Vec::new(),
            },
            go(&|_| {}),
            go(&|g| g.budget.time = Some(Duration::from_millis(1500))),
            go(&|g| {
                g.budget.nodes = Some(5000);
                g.budget.depth = Some(7);
                g.xclock = (Some(Duration::from_secs(60)), Some(Duration::from_secs(1)));
                g.oclock = (Some(Duration::from_secs(59)), None);
                g.ponder = true;
            }),
            go(&|g| g.infinite = true),
        ];
        for c in commands {
            let line = c.to_string();
            assert_eq!(parse(&line), Ok(Some(c)), "{line}");
        }
    }

    /// Every variant option reaches the engine: random variants, each
    /// written as a `variant` command, read back and built as the engine
    /// builds it, are the same variant (less fog, and the seed a fog game
    /// hides).
    #[test]
    fn every_variant_option_round_trips() {
        let mut rng = SplitMix64::new(43);
        let pick =
            |rng: &mut SplitMix64, xs: &[&str]| xs[rng.below(xs.len() as u32) as usize].to_string();
        let mut told = 0;
        for _ in 0..300 {
            let mut o = VariantOptions::default();
            let size = 5 + rng.below(8);
            let fields = [
                ("size", format!("{size}x{}", 5 + rng.below(8))),
                ("steps", (1 + rng.below(5)).to_string()),
                ("first", (1 + rng.below(3)).to_string()),
                ("start", pick(&mut rng, &["corners", "free", "center"])),
                (
                    "end",
                    pick(&mut rng, &["no-legal-step", "two-passes", "annihilation"]),
                ),
                ("deathmatch", pick(&mut rng, &["yes", "no"])),
                ("trenches", rng.below(30).to_string()),
                ("double-base", pick(&mut rng, &["yes", "no"])),
                ("random-bases", pick(&mut rng, &["yes", "no"])),
                ("obstacles", pick(&mut rng, &["-", "c3", "c3 d4"])),
                ("seed", rng.next_u64().to_string()),
                ("fog", pick(&mut rng, &["yes", "no"])),
            ];
            for (key, value) in &fields {
                // Options that do not fit together are skipped below.
                let _ = o.set(key, value);
            }
            let Ok(v) = o.build() else { continue };
            let line = variant_command(&v).to_string();
            let Ok(Some(Command::Variant { preset, overrides })) = parse(&line) else {
                panic!("{line} does not read back")
            };
            let mut back = VariantOptions::default();
            assert_eq!(preset, "custom");
            for (k, value) in &overrides {
                back.set(k, value).unwrap_or_else(|e| panic!("{line}: {e}"));
            }
            let mut expected = v.clone();
            expected.fog = false;
            if v.hides_layout() {
                assert!(!line.contains("seed="), "{line}");
                back.seed = Some(v.seed);
            }
            let built = back.build().unwrap_or_else(|e| panic!("{line}: {e}"));
            assert_eq!(built, expected, "{line}");
            told += 1;
        }
        assert!(told > 100, "only {told} variants were built");
    }
}
