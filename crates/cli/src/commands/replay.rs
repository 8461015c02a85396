//! `virus-wars replay`: check a game step by step and show where it ended.

use anyhow::{bail, Context, Result};
use clap::Args;
use virus_wars_rules::diagram::diagram;
use virus_wars_rules::{position_string, record, Game};

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
