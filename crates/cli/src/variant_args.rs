//! The variant flags shared by every subcommand.

use anyhow::{bail, Context, Result};
use clap::Args;
use virus_wars_rules::notation::parse_steps;
use virus_wars_rules::variant::Mismatch;
use virus_wars_rules::{position_string, AnyPosition, Game, Preset, Variant, VariantOptions};

#[derive(Args, Debug, Clone, Default)]
pub struct VariantArgs {
    /// Preset to start from: classic, classic-pass, paper-tactics, gcr,
    /// iggamecenter, feup, korobkov (default classic). Every flag below overrides it.
    #[arg(long, value_name = "NAME")]
    pub variant: Option<String>,
    /// Board size, files x ranks (3 to 19 each), e.g. 10x10.
    #[arg(long, value_name = "WxH")]
    pub size: Option<String>,
    /// Steps per turn (1 to 99).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(1..=99))]
    pub steps: Option<u8>,
    /// Steps in the game's first turn (default: the preset's; presets whose first
    /// turn is a full turn keep it equal to --steps).
    #[arg(long = "first-turn", value_name = "N", value_parser = clap::value_parser!(u8).range(1..=99))]
    pub first_turn: Option<u8>,
    /// How players enter: corners, corner-entry, edge-entry.
    #[arg(long, value_name = "RULE")]
    pub start: Option<String>,
    /// How the game ends: standard (no legal step loses) or pass.
    #[arg(long, value_name = "RULE")]
    pub end: Option<String>,
    /// Steps per turn grow by one every round.
    #[arg(long)]
    pub deathmatch: bool,
    /// Neutral trench density in percent (0-100), placed symmetrically from --seed.
    #[arg(long, value_name = "PERCENT", value_parser = clap::value_parser!(u8).range(0..=100))]
    pub trenches: Option<u8>,
    /// Two bases per side (corners start).
    #[arg(long = "double-base")]
    pub double_base: bool,
    /// Bases on random ranks of their edge files, from --seed (corners start).
    #[arg(long = "random-bases")]
    pub random_bases: bool,
    /// Impassable cells, e.g. "e5 f6".
    #[arg(long, value_name = "CELLS")]
    pub obstacles: Option<String>,
    /// Seed for trenches and random bases.
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// Fog of war (docs/rules.md §8): each side sees only the cells near
    /// its own live groups and the enemy pieces it has seen.
    #[arg(long)]
    pub fog: bool,
}

impl VariantArgs {
    /// Whether any flag was given.
    pub fn any_given(&self) -> bool {
        !self.options().is_ok_and(|o| o.is_empty())
    }

    /// The flags as variant options (each checked on its own).
    pub fn options(&self) -> Result<VariantOptions> {
        let mut o = VariantOptions::default();
        if let Some(name) = &self.variant {
            o.preset = Some(name.parse::<Preset>()?);
        }
        let text =
            |key: &str, flag: &str, value: &Option<String>, o: &mut VariantOptions| match value {
                Some(v) => o
                    .set(key, v)
                    .map_err(anyhow::Error::msg)
                    .context(flag.to_string()),
                None => Ok(()),
            };
        text("size", "--size", &self.size, &mut o)?;
        text("start", "--start", &self.start, &mut o)?;
        text("end", "--end", &self.end, &mut o)?;
        text("obstacles", "--obstacles", &self.obstacles, &mut o)?;
        o.steps = self.steps;
        o.first = self.first_turn;
        o.deathmatch = self.deathmatch.then_some(true);
        o.trenches = self.trenches;
        o.double_base = self.double_base.then_some(true);
        o.random_bases = self.random_bases.then_some(true);
        o.seed = self.seed;
        o.fog = self.fog.then_some(true);
        Ok(o)
    }

    /// The variant these flags describe, checked.
    pub fn build(&self) -> Result<Variant> {
        Ok(self.options()?.build()?)
    }
}

/// The flag that sets a variant option.
fn flag_of(option: &str, o: &VariantOptions) -> String {
    let given = match option {
        "size" => o.size.is_some(),
        "steps" => o.steps.is_some(),
        "first" => o.first.is_some(),
        "start" => o.start.is_some(),
        "end" => o.end.is_some(),
        "deathmatch" => o.deathmatch.is_some(),
        _ => true,
    };
    match (given, option) {
        (false, _) => "--variant".to_string(),
        (true, "first") => "--first-turn".to_string(),
        (true, name) => format!("--{name}"),
    }
}

/// Where a command starts: the variant's start, or a position string (with
/// which every variant flag given must agree); then the given steps, each checked.
pub fn start_game(
    flags: &VariantArgs,
    position: Option<&str>,
    moves: Option<&str>,
) -> Result<Game> {
    let mut game = match position {
        None => Game::new(flags.build()?)?,
        Some(text) => {
            let p: AnyPosition = position_string::read(text).context("--position")?;
            let options = flags.options()?;
            let wrong: Vec<String> = options
                .mismatches(&p)
                .iter()
                .map(|m| {
                    let option = match m {
                        Mismatch::Differs { option, .. } | Mismatch::NotHeld { option, .. } => {
                            option
                        }
                    };
                    format!("{}: {m}", flag_of(option, &options))
                })
                .collect();
            if !wrong.is_empty() {
                bail!(
                    "the variant flags do not fit --position: {}",
                    wrong.join("; ")
                );
            }
            Game::from_position(Variant::of_position(&p), p)?
        }
    };
    if let Some(moves) = moves {
        for (k, step) in parse_steps(moves)
            .context("--moves")?
            .into_iter()
            .enumerate()
        {
            if let Err(e) = game.play(step) {
                bail!("step {} ({step}): {e}", k + 1);
            }
        }
    }
    Ok(game)
}
