//! `virus-wars puzzles check`: the shipped puzzles' quality, measured
//! (docs/puzzles.md): for a sample, the solver proves again that the first
//! turn is the only win; the solution, played on by the mover's proven
//! winning turns, beats a strong defender (level 9 by default) every time;
//! and how often a weaker player (level 4) finds the first turn.

use anyhow::{Context, Result};
use clap::Args;
use serde_json::json;
use virus_wars_ai::puzzles::{self, Puzzle};
use virus_wars_ai::solve::Solver;
use virus_wars_ai::{Player, PlayerSpec, StopFlag};
use virus_wars_rules::{AnyPosition, Outcome, Step};

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// Puzzles checked, spread evenly over the set.
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub sample: u64,
    /// The defender the solution must beat.
    #[arg(long, value_name = "SPEC", default_value = "level:9")]
    pub defender: String,
    /// The player asked to find each first turn.
    #[arg(long, value_name = "SPEC", default_value = "level:4")]
    pub finder: String,
    /// Check these puzzles (by id, comma-separated) instead of a sample.
    #[arg(long, value_delimiter = ',')]
    pub id: Vec<String>,
}

fn spec(text: &str, flag: &str) -> Result<PlayerSpec> {
    PlayerSpec::parse_without_files(text).with_context(|| format!("{flag} '{text}'"))
}

/// `steps` played from `p`.
fn after(p: &AnyPosition, steps: &[Step]) -> Result<AnyPosition> {
    let mut q = *p;
    for &s in steps {
        q.play(s)
            .with_context(|| format!("{s} from {}", virus_wars_rules::position_string::write(p)))?;
    }
    Ok(q)
}

/// The mover of `puzzle` plays its solution's first turn, then, against
/// `defender`, the solution's turns while the defender replies as the
/// solution says, and a proven winning turn otherwise; whether it won.
fn beats(
    puzzle: &Puzzle,
    defender: &mut dyn Player,
    budget: &virus_wars_ai::Budget,
) -> Result<bool> {
    let me = puzzle.position.side();
    let mut at = after(&puzzle.position, &puzzle.solution[0])?;
    let mut k = 1;
    let mut solver = Solver::new(20_000_000);
    for _ in 0..20 {
        if let Some(o) = at.outcome() {
            return Ok(o == Outcome::Win(me));
        }
        let reply = defender
            .choose(&at, budget, &StopFlag::new(), &mut |_| {})
            .steps;
        let next = after(&at, &reply)?;
        if let Some(o) = next.outcome() {
            return Ok(o == Outcome::Win(me));
        }
        // On the solution's line, its next turn; off it, a proven win.
        let on_line = puzzle
            .solution
            .get(k)
            .is_some_and(|r| after(&at, r).ok().map(|q| q.hash()) == Some(next.hash()));
        let mine = match puzzle.solution.get(k + 1) {
            Some(t) if on_line => t.clone(),
            _ => match solver.winning_turns(&next, 3, 1) {
                Ok((w, _)) if !w.is_empty() => w[0].clone(),
                _ => return Ok(false),
            },
        };
        k += 2;
        at = after(&next, &mine)?;
    }
    Ok(false)
}

pub fn run(args: CheckArgs) -> Result<()> {
    let set = puzzles::shipped().context("the shipped puzzle set")?;
    let (mut defender, defender_budget) = spec(&args.defender, "--defender")?.build();
    let (mut finder, finder_budget) = spec(&args.finder, "--finder")?.build();
    let every = (set.len() as u64 / args.sample).max(1) as usize;
    let (mut proven, mut won, mut found, mut ended, mut n) = (0, 0, 0, 0, 0);
    let chosen: Vec<&Puzzle> = if args.id.is_empty() {
        set.iter()
            .step_by(every)
            .take(args.sample as usize)
            .collect()
    } else {
        args.id
            .iter()
            .map(|id| {
                set.iter()
                    .find(|p| p.id == *id)
                    .with_context(|| format!("--id: no shipped puzzle {id}"))
            })
            .collect::<Result<_>>()?
    };
    for p in chosen {
        n += 1;
        let only = Solver::new(20_000_000)
            .winning_turns(&p.position, 3, 2)
            .ok()
            .filter(|(w, _)| w.len() == 1)
            .and_then(|(w, _)| Some(after(&p.position, &w[0]).ok()?.hash()))
            == Some(after(&p.position, &p.solution[0])?.hash());
        defender.new_game();
        let beat = beats(p, &mut *defender, &defender_budget)?;
        finder.new_game();
        let tried = finder
            .choose(&p.position, &finder_budget, &StopFlag::new(), &mut |_| {})
            .steps;
        let first =
            after(&p.position, &tried)?.hash() == after(&p.position, &p.solution[0])?.hash();
        // The first turn ends the game at once (the other side is left no step).
        let at_once = after(&p.position, &p.solution[0])?.outcome().is_some();
        ended += at_once as u32;
        proven += only as u32;
        won += beat as u32;
        found += first as u32;
        crate::outln!(
            "{}",
            json!({"id": p.id, "turns_to_find": p.mover_turns(), "ends_at_once": at_once,
                   "only_win_proven": only, "beats_defender": beat, "finder_found_first_turn": first})
        )?;
    }
    crate::outln!(
        "{}",
        json!({"checked": n, "ends_at_once": ended, "only_win_proven": proven, "beats_defender": won, "finder_found_first_turn": found,
               "defender": args.defender, "finder": args.finder})
    )?;
    Ok(())
}
