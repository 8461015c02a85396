//! `virus-wars analyse`: a saved game reviewed turn by turn, as JSON lines
//! (docs/ai.md, Reviewing a game).

use std::time::Duration;

use anyhow::{bail, Context, Result};
use clap::Args;
use serde_json::json;
use virus_wars_ai::review::review;
use virus_wars_ai::PlayerSpec;
use virus_wars_rules::record;

#[derive(Args, Debug)]
pub struct AnalyseArgs {
    /// The game record file (`.vwr`).
    #[arg(long, value_name = "FILE")]
    pub record: std::path::PathBuf,
    /// The player that judges each position (a spec, docs/ai.md); by
    /// default level 9's search on one thread, as the server judges.
    #[arg(long, value_name = "SPEC")]
    pub player: Option<String>,
    /// Thinking time for each position, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 300, value_parser = clap::value_parser!(u64).range(1..=60_000))]
    pub ms: u64,
    /// A table, a sparkline of X's chance and the accuracy (as the
    /// terminal game's `analyse` shows it) instead of JSON lines.
    #[arg(long)]
    pub table: bool,
}

pub fn run(args: AnalyseArgs) -> Result<()> {
    let bytes = std::fs::read(&args.record)
        .with_context(|| format!("cannot read {}", args.record.display()))?;
    let game = record::read_bytes(&bytes)
        .with_context(|| format!("{}", args.record.display()))?
        .game;
    if game.turns().is_empty() {
        bail!("{}: the game has no turn to review", args.record.display());
    }
    let spec = match &args.player {
        Some(text) => {
            PlayerSpec::parse_without_files(text).with_context(|| format!("--player '{text}'"))?
        }
        None => virus_wars_ai::review::judge_spec(),
    };
    let (mut player, mut budget) = spec.build();
    let per_position = Duration::from_millis(args.ms);
    budget.time = Some(budget.time.map_or(per_position, |t| t.min(per_position)));
    let r = review(&game, &mut *player, &budget);
    if args.table {
        crate::outln!("{}", crate::play::review::table(&r, true).trim_end())?;
        return Ok(());
    }
    let cells = |steps: &[virus_wars_rules::Step]| -> Vec<String> {
        steps.iter().map(|s| s.to_string()).collect()
    };
    let round = |x: f64| (x * 1000.0).round() / 1000.0;
    for t in &r.turns {
        let line = json!({
            "turn": t.turn,
            "side": t.side.to_string().to_lowercase(),
            "steps": cells(&t.steps),
            "x_win_before": round(t.x_win_before),
            "x_win_after": round(t.x_win_after),
            "best": cells(&t.best),
            "judgement": t.judgement.map(|j| j.name()),
        });
        crate::outln!("{line}")?;
    }
    let round1 = |x: f64| (x * 10.0).round() / 10.0;
    crate::outln!(
        "{}",
        json!({"accuracy": {"x": round1(r.accuracy[0]), "o": round1(r.accuracy[1])}})
    )?;
    Ok(())
}
