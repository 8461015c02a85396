//! `virus-wars perft`: step-sequence counts, one line per depth.

use anyhow::{bail, Result};
use clap::Args;
use virus_wars_rules::perft::perft_any;

use crate::variant_args::{start_game, VariantArgs};

#[derive(Args, Debug)]
pub struct PerftArgs {
    #[command(flatten)]
    pub variant: VariantArgs,
    /// Steps to play from the start first, separated by spaces, '-' or commas.
    #[arg(long, value_name = "STEPS")]
    pub moves: Option<String>,
    /// Start from this position string instead of the variant's start.
    #[arg(long, value_name = "POSITION")]
    pub position: Option<String>,
    /// Count sequences up to this many steps.
    #[arg(long, value_name = "D")]
    pub depth: u32,
}

pub fn run(args: PerftArgs) -> Result<()> {
    if args.depth == 0 {
        bail!("--depth must be at least 1");
    }
    let game = start_game(
        &args.variant,
        args.position.as_deref(),
        args.moves.as_deref(),
    )?;
    for depth in 1..=args.depth {
        crate::outln!("{depth} {}", perft_any(game.position(), depth))?;
    }
    Ok(())
}
