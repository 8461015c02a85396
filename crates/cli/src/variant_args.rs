//! The variant flags shared by every subcommand.

use anyhow::{bail, Context, Result};
use clap::Args;
use virus_wars_rules::notation::parse_steps;
use virus_wars_rules::variant::parse_size;
use virus_wars_rules::{
    position_string, AnyPosition, Cell, EndRule, Game, Preset, StartRule, Variant,
};

#[derive(Args, Debug, Clone, Default)]
pub struct VariantArgs {
    /// Preset to start from: classic, classic-pass, paper-tactics, gcr,
    /// iggamecenter, feup, korobkov (default classic). Every flag below overrides it.
    #[arg(long, value_name = "NAME")]
    pub variant: Option<String>,
    /// Board size, files x ranks (3 to 19 each), e.g. 10x10.
    #[arg(long, value_name = "WxH")]
    pub size: Option<String>,
    /// Steps per turn.
    #[arg(long, value_name = "N")]
    pub steps: Option<u8>,
    /// Steps in the game's first turn (default: the preset's; presets whose first
    /// turn is a full turn keep it equal to --steps).
    #[arg(long = "first-turn", value_name = "N")]
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
    #[arg(long, value_name = "PERCENT")]
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
}

impl VariantArgs {
    /// Whether any flag was given.
    pub fn any_given(&self) -> bool {
        self.variant.is_some()
            || self.size.is_some()
            || self.steps.is_some()
            || self.first_turn.is_some()
            || self.start.is_some()
            || self.end.is_some()
            || self.deathmatch
            || self.trenches.is_some()
            || self.double_base
            || self.random_bases
            || self.obstacles.is_some()
            || self.seed.is_some()
    }

    /// The variant these flags describe, checked.
    pub fn build(&self) -> Result<Variant> {
        let preset: Preset = match &self.variant {
            Some(name) => name.parse()?,
            None => Preset::Classic,
        };
        let mut v = preset.variant();
        if let Some(size) = &self.size {
            (v.width, v.height) = parse_size(size).context("--size")?;
        }
        if let Some(steps) = self.steps {
            v.rules.steps_per_turn = steps;
            // A preset whose first turn equals its other turns keeps them equal.
            if preset.variant().rules.first_turn_steps == preset.variant().rules.steps_per_turn {
                v.rules.first_turn_steps = steps;
            }
        }
        if let Some(first) = self.first_turn {
            v.rules.first_turn_steps = first;
        }
        if let Some(start) = &self.start {
            v.rules.start = start
                .parse::<StartRule>()
                .map_err(anyhow::Error::msg)
                .context("--start")?;
        }
        if let Some(end) = &self.end {
            v.rules.end = end
                .parse::<EndRule>()
                .map_err(anyhow::Error::msg)
                .context("--end")?;
        }
        v.rules.deathmatch |= self.deathmatch;
        if let Some(t) = self.trenches {
            v.trench_percent = t;
        }
        v.double_base |= self.double_base;
        v.random_bases |= self.random_bases;
        if let Some(cells) = &self.obstacles {
            v.obstacles = cells
                .split(|c: char| c.is_whitespace() || c == ',')
                .filter(|s| !s.is_empty())
                .map(|s| s.parse::<Cell>())
                .collect::<Result<_, _>>()
                .context("--obstacles")?;
        }
        if let Some(seed) = self.seed {
            v.seed = seed;
        }
        v.check()?;
        Ok(v)
    }
}

/// Where a command starts: the variant's start, or a position string; then
/// the given steps, each checked.
pub fn start_game(variant: Variant, position: Option<&str>, moves: Option<&str>) -> Result<Game> {
    let mut game = match position {
        None => Game::new(variant)?,
        Some(text) => {
            let p: AnyPosition = position_string::read(text).context("--position")?;
            let v = Variant {
                width: p.width(),
                height: p.height(),
                rules: p.rules(),
                ..variant
            };
            Game::from_position(v, p)
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
