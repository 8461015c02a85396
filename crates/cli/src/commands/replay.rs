//! `virus-wars replay`: check a game step by step and show where it ended.

use anyhow::{bail, Context, Result};
use clap::Args;
use virus_wars_rules::diagram::{diagram, view_diagram};
use virus_wars_rules::fog::{Known, Viewer};
use virus_wars_rules::{position_string, record, Cell, Game, Side};

use crate::variant_args::{start_game, VariantArgs};

#[derive(Args, Debug)]
pub struct ReplayArgs {
    #[command(flatten)]
    pub variant: VariantArgs,
    /// Steps separated by spaces, '-' or commas, e.g. "a1 b2 c3 j10".
    #[arg(long, value_name = "STEPS", conflicts_with = "record")]
    pub moves: Option<String>,
    /// A game record file (its tags give the variant).
    #[arg(long, value_name = "FILE")]
    pub record: Option<std::path::PathBuf>,
    /// Fog of war (docs/rules.md §8): after every turn, the board as this
    /// side sees it (`x`, `o`, or `watchers`: what both see), `?` where it
    /// does not; the last lines are as without it.
    #[arg(long, value_name = "SIDE")]
    pub view: Option<String>,
}

pub fn run(args: ReplayArgs) -> Result<()> {
    let game: Game = match (&args.moves, &args.record) {
        (Some(moves), None) => start_game(&args.variant, None, Some(moves))?,
        (None, Some(path)) => {
            if args.variant.any_given() {
                bail!("variant flags cannot be combined with --record: the record's tags give its variant");
            }
            let bytes =
                std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
            record::read_bytes(&bytes)
                .with_context(|| format!("{}", path.display()))?
                .game
        }
        _ => bail!("give the game with --moves \"a1 b2 ...\" or --record FILE"),
    };
    if let Some(who) = &args.view {
        let viewer = match who.to_ascii_lowercase().as_str() {
            "x" => Viewer::Player(Side::X),
            "o" => Viewer::Player(Side::O),
            "watchers" => Viewer::Watcher,
            _ => bail!("--view is x, o or watchers, not '{who}'"),
        };
        show_views(&game, viewer)?;
    }
    let p = game.position();
    crate::out!("{}", diagram(p))?;
    crate::outln!("position: {}", position_string::write(p))?;
    match p.outcome() {
        Some(o) => {
            crate::outln!(
                "game over after {} steps in {} turns",
                game.steps().len(),
                game.turns().len()
            )?;
            crate::outln!("{o}")?;
        }
        None => {
            crate::outln!("turn {}, {} step(s) left", p.turn(), p.steps_left())?;
            crate::outln!("{} to move", p.side())?;
        }
    }
    Ok(())
}

/// After every turn of `game`, the board as `viewer` saw it then, and the
/// turn with the steps it did not see as `?`.
fn show_views(game: &Game, viewer: Viewer) -> Result<()> {
    let known = Known::of_game(game);
    let mut played = game.clone();
    let mut k = game.steps().len();
    let turns = game.turns();
    // The turns from the last, each taken back to see what stood before.
    let mut ends = Vec::new();
    for t in turns.iter().rev() {
        ends.push(k);
        k -= t.steps.len();
    }
    ends.reverse();
    let mut first = 0;
    for (n, (t, end)) in turns.iter().zip(&ends).enumerate() {
        while played.steps().len() > *end {
            played.undo_step();
        }
        let at = Known::of_game(&played);
        let p = played.position();
        let shown: Vec<String> = (first..*end)
            .map(|i| {
                if known.step_seen(viewer, i) {
                    game.steps()[i].to_string()
                } else {
                    "?".into()
                }
            })
            .collect();
        first = *end;
        let cells = if p.outcome().is_some() {
            (0..p.width() as usize * p.height() as usize)
                .map(|i| {
                    Some(p.content(Cell::new(
                        (i % p.width() as usize) as u8,
                        (i / p.width() as usize) as u8,
                    )))
                })
                .collect()
        } else {
            at.cells(p, viewer)
        };
        crate::outln!("{}. {} {}", n + 1, t.side, shown.join("-"))?;
        crate::out!("{}", view_diagram(&cells, p.width(), p.height()))?;
        played = game.clone();
    }
    Ok(())
}
