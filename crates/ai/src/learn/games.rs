//! Self-play games on disk (the replay buffer), and the training examples
//! drawn from them. A text file per generation:
//!
//! ```text
//! virus-wars self-play 1
//! game korobkov x
//! b2 b2:41 c3:7 pass:1
//! …
//! end
//! ```
//!
//! `game PRESET RESULT` (`x`, `o`, `draw`, or `none` for a game cut short;
//! `game PRESET RESULT fog` for a game under fog of war, whose positions
//! are learnt as the mover's views), then one line a step: the step played and the search's visits of each
//! step. Files are written to a temporary name and renamed, so a stopped run
//! never leaves half a file.

use std::path::Path;

use virus_wars_net::planes::{encode, encode_view, index};
use virus_wars_net::train::Example;
use virus_wars_rules::fog::{Sight, ViewPosition};
use virus_wars_rules::notation::parse_step;
use virus_wars_rules::rng::SplitMix64;
use virus_wars_rules::{AnyPosition, Outcome, Preset, Side, Step, Symmetry};

use super::LearnError;

const HEADER: &str = "virus-wars self-play 1";

/// One self-play game: its steps, the visits behind each, and its result.
#[derive(Clone, Debug, PartialEq)]
pub struct SelfPlayGame {
    pub preset: Preset,
    /// Played under fog of war.
    pub fog: bool,
    pub steps: Vec<Step>,
    /// For each step, how often the search visited each step it could make.
    pub visits: Vec<Vec<(Step, u32)>>,
    /// None: the game was cut short (counted as a draw).
    pub outcome: Option<Outcome>,
}

fn result_token(o: Option<Outcome>) -> &'static str {
    match o {
        Some(Outcome::Win(Side::X)) => "x",
        Some(Outcome::Win(Side::O)) => "o",
        Some(Outcome::Draw) => "draw",
        None => "none",
    }
}

/// The games as text.
pub fn to_text(games: &[SelfPlayGame]) -> String {
    let mut out = format!("{HEADER}\n");
    for g in games {
        let fog = if g.fog { " fog" } else { "" };
        out.push_str(&format!(
            "game {} {}{fog}\n",
            g.preset,
            result_token(g.outcome)
        ));
        for (step, visits) in g.steps.iter().zip(&g.visits) {
            out.push_str(&step.to_string());
            for (s, n) in visits {
                out.push_str(&format!(" {s}:{n}"));
            }
            out.push('\n');
        }
        out.push_str("end\n");
    }
    out
}

/// Writes `bytes` to `path` through a temporary file and a rename.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), LearnError> {
    let tmp = path.with_extension("partial");
    let io = |error| LearnError::Io {
        path: path.display().to_string(),
        error,
    };
    let mut file = std::fs::File::create(&tmp).map_err(io)?;
    std::io::Write::write_all(&mut file, bytes).map_err(io)?;
    // On the disk before the rename: a renamed but empty file would stop a
    // resumed run after a power cut.
    file.sync_all().map_err(io)?;
    drop(file);
    std::fs::rename(&tmp, path).map_err(io)
}

/// Reads a games file written by [`to_text`], checking every step.
pub fn read_games(path: &Path) -> Result<Vec<SelfPlayGame>, LearnError> {
    let bytes = std::fs::read(path).map_err(|error| LearnError::Io {
        path: path.display().to_string(),
        error,
    })?;
    let text = String::from_utf8(bytes).map_err(|e| LearnError::Format {
        path: path.display().to_string(),
        line: 0,
        message: format!("not UTF-8 text ({e})"),
    })?;
    parse_games(&text).map_err(|(line, message)| LearnError::Format {
        path: path.display().to_string(),
        line,
        message,
    })
}

/// Games from text; an error names its line (1-based).
pub fn parse_games(text: &str) -> Result<Vec<SelfPlayGame>, (usize, String)> {
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l.trim()));
    match lines.next() {
        Some((_, HEADER)) => {}
        _ => return Err((1, format!("the first line must be '{HEADER}'"))),
    }
    let mut games = Vec::new();
    let mut current: Option<(SelfPlayGame, AnyPosition)> = None;
    for (n, line) in lines {
        if line.is_empty() {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        match (words[0], current.as_mut()) {
            ("game", None) => {
                let (preset, result, fog) =
                    match words[..] {
                        [_, preset, result] => (preset, result, false),
                        [_, preset, result, "fog"] => (preset, result, true),
                        _ => return Err((
                            n,
                            "expected 'game PRESET RESULT', then 'fog' for a game under fog of war"
                                .into(),
                        )),
                    };
                let preset: Preset = preset.parse().map_err(|e| (n, format!("{e}")))?;
                let outcome = match result {
                    "x" => Some(Outcome::Win(Side::X)),
                    "o" => Some(Outcome::Win(Side::O)),
                    "draw" => Some(Outcome::Draw),
                    "none" => None,
                    other => return Err((n, format!("unknown result '{other}'"))),
                };
                let start = preset.variant().start().map_err(|e| (n, e.to_string()))?;
                let game = SelfPlayGame {
                    preset,
                    fog,
                    steps: Vec::new(),
                    visits: Vec::new(),
                    outcome,
                };
                current = Some((game, start));
            }
            ("end", Some((game, pos))) => {
                if words.len() > 1 {
                    return Err((n, "expected 'end' alone on its line".into()));
                }
                // The result must be what the steps give: a wrong one would
                // turn every value target around.
                let played = pos.outcome();
                if game.outcome.is_some() && played != game.outcome {
                    return Err((
                        n,
                        format!(
                            "the game's steps give {}, not the result '{}' it names",
                            played.map_or("no result".to_string(), |o| o.to_string()),
                            result_token(game.outcome)
                        ),
                    ));
                }
                if game.outcome.is_none() && played.is_some() {
                    return Err((n, "the game is over, but its result is 'none'".into()));
                }
                if let Some((game, _)) = current.take() {
                    games.push(game);
                }
            }
            (_, None) => return Err((n, format!("expected 'game', not '{}'", words[0]))),
            ("game", Some(_)) => return Err((n, "a game begins before the last one ended".into())),
            (step, Some((game, pos))) => {
                let step = parse_step(step).map_err(|e| (n, e.to_string()))?;
                let legal = pos.legal_steps();
                let mut visits = Vec::new();
                let mut total = 0u64;
                for w in &words[1..] {
                    let (s, v) = w
                        .rsplit_once(':')
                        .ok_or_else(|| (n, format!("expected STEP:VISITS, not '{w}'")))?;
                    let s = parse_step(s).map_err(|e| (n, e.to_string()))?;
                    let v: u32 = v
                        .parse()
                        .map_err(|_| (n, format!("visits must be a count, not '{v}'")))?;
                    if !legal.contains(&s) {
                        return Err((n, format!("visits of {s}, which is not a legal step here")));
                    }
                    total += v as u64;
                    visits.push((s, v));
                }
                if total > u32::MAX as u64 {
                    return Err((
                        n,
                        format!("{total} visits in all: more than a search makes"),
                    ));
                }
                pos.play(step)
                    .map_err(|e| (n, format!("step {step}: {e}")))?;
                game.steps.push(step);
                game.visits.push(visits);
            }
        }
    }
    if current.is_some() {
        return Err((text.lines().count(), "the last game has no 'end'".into()));
    }
    Ok(games)
}

/// A position to learn from: what the search preferred there, and how the
/// game ended for the side to step.
#[derive(Clone, Debug)]
pub struct Sample {
    pub position: AnyPosition,
    /// Visits of each legal cell (passes are not the net's to choose).
    pub visits: Vec<(virus_wars_rules::Cell, u32)>,
    /// 1 the side to step won, −1 lost, 0 a draw.
    pub value: f32,
    /// Under fog, what the side to step saw: the net learns from it.
    pub view: Option<ViewPosition>,
}

/// The positions of `game` with cell visits, replayed.
pub fn samples(game: &SelfPlayGame) -> Vec<Sample> {
    let Ok(mut pos) = game.preset.variant().start() else {
        return Vec::new();
    };
    let mut sight = game.fog.then(|| Sight::start(&pos));
    let mut out = Vec::new();
    for (step, visits) in game.steps.iter().zip(&game.visits) {
        let cells: Vec<_> = visits
            .iter()
            .filter_map(|(s, v)| match s {
                Step::Cell(c) if *v > 0 => Some((*c, *v)),
                _ => None,
            })
            .collect();
        if !cells.is_empty() {
            let value = match game.outcome {
                Some(Outcome::Win(w)) if w == pos.side() => 1.0,
                Some(Outcome::Win(_)) => -1.0,
                _ => 0.0,
            };
            out.push(Sample {
                position: pos,
                visits: cells,
                value,
                view: sight
                    .as_ref()
                    .map(|s| ViewPosition::of(&pos, &s.view(&pos, pos.side()))),
            });
        }
        if pos.play(*step).is_err() {
            break;
        }
        if let Some(s) = sight.as_mut() {
            s.look(&pos);
        }
    }
    out
}

/// The training example of `s` seen through a random symmetry of its board.
pub fn example(s: &Sample, rng: &mut SplitMix64) -> Example {
    let (w, h) = virus_wars_rules::with_position!(&s.position, q => (q.geometry().width(), q.geometry().height()));
    let fitting: Vec<Symmetry> = Symmetry::ALL.into_iter().filter(|y| y.fits(w, h)).collect();
    let sym = fitting[rng.below(fitting.len() as u32) as usize];
    let input = match &s.view {
        Some(view) => encode_view(view, sym),
        None => encode(&s.position, sym),
    };
    let mut policy = vec![0.0f32; input.cells()];
    let total: u64 = s.visits.iter().map(|&(_, v)| v as u64).sum();
    for &(c, v) in &s.visits {
        policy[index(sym.apply(c, w, h), w)] = v as f32 / total as f32;
    }
    Example {
        input,
        policy,
        value: s.value,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn a_game() -> SelfPlayGame {
        let preset = Preset::Korobkov;
        let mut p = preset.variant().start().unwrap();
        let mut game = SelfPlayGame {
            preset,
            fog: false,
            steps: Vec::new(),
            visits: Vec::new(),
            outcome: None,
        };
        let mut k = 0usize;
        while p.outcome().is_none() {
            let steps = p.legal_steps();
            let step = steps[(k * 7) % steps.len()];
            game.visits.push(
                steps
                    .iter()
                    .map(|s| (*s, (s == &step) as u32 * 9 + 1))
                    .collect(),
            );
            game.steps.push(step);
            p.play(step).unwrap();
            k += 1;
        }
        game.outcome = p.outcome();
        game
    }

    #[test]
    fn games_survive_the_file_format() {
        let games = vec![a_game(), a_game()];
        let text = to_text(&games);
        assert_eq!(parse_games(&text).unwrap(), games);
    }

    #[test]
    fn bad_files_are_refused_with_their_line() {
        let good = to_text(&[a_game()]);
        // Two legal first steps of korobkov, for lines that must pass the
        // step check and fail later.
        let start = Preset::Korobkov.variant().start().unwrap();
        let legal = start.legal_steps();
        let (s, t) = (legal[0].to_string(), legal[1].to_string());
        let head = "virus-wars self-play 1\ngame korobkov";
        let cases = [
            ("".to_string(), 1),
            ("virus-wars self-play 1\ngame nowhere x\n".into(), 2),
            (format!("{head} x\nz99 z99:1\nend\n"), 3),
            (format!("{head} x\n{s} {s}:x\nend\n"), 3),
            ("virus-wars self-play 1\nb2\n".into(), 2),
            // Visits off the board, of a step that is not legal, too many.
            (format!("{head} none\n{s} k1:5\nend\n"), 3),
            (format!("{head} none\n{s} {s}:1 h8:5\nend\n"), 3),
            (format!("{head} none\n{s} {s}:4294967295 {t}:1\nend\n"), 3),
            // A result the steps do not give; junk after 'end'.
            (format!("{head} x\n{s} {s}:1\nend\n"), 4),
            (format!("{head} none\n{s} {s}:1\nend of it\n"), 4),
        ];
        for (text, line) in cases {
            let err = parse_games(&text).unwrap_err();
            assert_eq!(err.0, line, "{text:?}: {err:?}");
        }
        let cut = &good[..good.len() - 4];
        assert!(parse_games(cut).unwrap_err().1.contains("no 'end'"));
        let flipped = if good.contains("game korobkov x\n") {
            good.replacen("game korobkov x\n", "game korobkov o\n", 1)
        } else {
            good.replacen("game korobkov o\n", "game korobkov x\n", 1)
        };
        assert_ne!(flipped, good);
        let err = parse_games(&flipped).unwrap_err();
        assert!(err.1.contains("not the result"), "{err:?}");
    }

    #[test]
    fn examples_hold_the_visit_shares_and_the_result() {
        let game = a_game();
        let winner = match game.outcome {
            Some(Outcome::Win(w)) => w,
            _ => panic!("the test game ends in a win"),
        };
        let samples = samples(&game);
        assert!(!samples.is_empty());
        let mut rng = SplitMix64::new(3);
        for s in &samples {
            let e = example(s, &mut rng);
            assert!((e.policy.iter().sum::<f32>() - 1.0).abs() < 1e-5);
            let expected = if s.position.side() == winner {
                1.0
            } else {
                -1.0
            };
            assert_eq!(e.value, expected);
            // Each share sits on a legal cell (plane 4 of the input).
            let n = e.input.cells();
            for (k, share) in e.policy.iter().enumerate() {
                if *share > 0.0 {
                    assert_eq!(e.input.data[4 * n + k], 1.0);
                }
            }
        }
    }
}
