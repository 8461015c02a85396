//! Self-play: the search plays both sides and keeps, for every step, how
//! often it visited each step (the policy target). Dirichlet noise at the
//! root and a temperature of 1 for the first steps (a step drawn in
//! proportion to its visits) vary the games; later steps take the most
//! visited. Games run on every core, one search thread each, and each game
//! has its own seed, so the same settings give the same games.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Mutex;

use virus_wars_rules::contest::Contest;
use virus_wars_rules::fog::{Seen, Sight};
use virus_wars_rules::rng::SplitMix64;
use virus_wars_rules::{Game, Preset, Step};

use super::games::SelfPlayGame;
use crate::fog;
use crate::mcts::{Guide, Mcts, MctsConfig};
use crate::search::StopFlag;

/// How self-play games are played.
#[derive(Clone, Debug)]
pub struct SelfPlay {
    pub presets: Vec<Preset>,
    /// Simulations a step.
    pub playouts: u64,
    /// Steps played in proportion to their visits before the best is taken.
    pub temperature_steps: u32,
    /// Dirichlet noise at the root: (alpha, weight).
    pub noise: (f64, f64),
    /// The net guiding the search (None: the hand-made priors alone).
    pub guide: Option<Guide>,
    /// A game this long is cut short (and counts as a draw).
    pub max_steps: u32,
    /// Games under fog of war: each step searched by determinization
    /// ([`fog_visits`]).
    pub fog: bool,
}

/// One game from the start of `preset`.
pub fn play_game(sp: &SelfPlay, preset: Preset, seed: u64, stop: &StopFlag) -> SelfPlayGame {
    let mut mcts = Mcts::new(MctsConfig {
        threads: 1,
        seed: seed.max(1),
        tree_mb: 64,
        ..MctsConfig::default()
    });
    if let Some(g) = &sp.guide {
        mcts = mcts.with_guide(g.clone());
    }
    mcts.root_noise = Some(sp.noise);
    let mut rng = SplitMix64::new(seed ^ 0x5e1f_91a7);
    let mut game = SelfPlayGame {
        preset,
        fog: sp.fog,
        steps: Vec::new(),
        visits: Vec::new(),
        outcome: None,
    };
    let mut variant = preset.variant();
    variant.fog = sp.fog;
    // Every step goes through the referee, as in every other game.
    let Ok(start) = Game::new(variant) else {
        return game;
    };
    let mut sight = Sight::start(start.position());
    let mut contest = Contest::new(start, None);
    while !contest.finished() && game.steps.len() < sp.max_steps as usize {
        if stop.is_stopped() {
            break;
        }
        let visits = match sp.fog {
            true => fog_visits(&mut mcts, &contest.game, &sight, sp.playouts, &mut rng),
            false => mcts.search_visits(contest.game.position(), sp.playouts),
        };
        let Some(step) = choose(
            &visits,
            game.steps.len() < sp.temperature_steps as usize,
            &mut rng,
        ) else {
            break;
        };
        let (side, seq) = (contest.side_to_move(), contest.seq());
        if contest.play(side, seq, &[step], 0).is_err() {
            break;
        }
        sight.look(contest.game.position());
        game.steps.push(step);
        game.visits.push(visits);
    }
    game.outcome = contest.ending().map(|e| e.outcome);
    game
}

/// The visits of the side to move's steps at the end of `game` under fog
/// (`sight`: the game's memory), searched as the fog player searches
/// (docs/ai.md, Fog of war): [`fog::SAMPLES`] positions drawn to agree
/// with its view, `playouts` shared among them, each draw's visits as
/// shares added up (the draws' root priors from the guide's view net, if
/// it has one), scaled back to `playouts`.
fn fog_visits(
    mcts: &mut Mcts,
    game: &Game,
    sight: &Sight,
    playouts: u64,
    rng: &mut SplitMix64,
) -> Vec<(Step, u32)> {
    let seen = Seen::with_sight(game, sight);
    // Each draw searched at least once: fewer draws when playouts are few.
    let draws = (fog::SAMPLES as u64).min(playouts).max(1);
    let per = (playouts / draws).max(1);
    let mut shares: Vec<(Step, f64)> = Vec::new();
    let mut searched = 0;
    for _ in 0..draws {
        let Some(p) = fog::sample(&seen, rng) else {
            continue;
        };
        let visits = mcts.search_visits_seen(&p, Some(&seen.view), per);
        let total: u64 = visits.iter().map(|&(_, v)| u64::from(v)).sum();
        if total == 0 {
            continue;
        }
        searched += 1;
        for (s, v) in visits {
            let w = f64::from(v) / total as f64;
            match shares.iter_mut().find(|(t, _)| *t == s) {
                Some((_, sum)) => *sum += w,
                None => shares.push((s, w)),
            }
        }
    }
    if searched == 0 {
        // No draw agreed with the view: its hidden cells read as empty
        // (its legal steps are the true ones).
        return mcts.search_visits(&seen.view.as_if_empty(), playouts);
    }
    let scale = playouts as f64 / f64::from(searched);
    let mut visits: Vec<(Step, u32)> = shares
        .iter()
        .map(|&(s, w)| (s, (w * scale).round() as u32))
        .collect();
    // Shares too thin to round to a visit: the most shared keeps one.
    if visits.iter().all(|&(_, v)| v == 0) {
        let best = (0..shares.len()).max_by(|&a, &b| shares[a].1.total_cmp(&shares[b].1));
        if let Some(k) = best {
            visits[k].1 = 1;
        }
    }
    visits
}

/// A step in proportion to its visits, or the most visited.
fn choose(visits: &[(Step, u32)], explore: bool, rng: &mut SplitMix64) -> Option<Step> {
    let total: u64 = visits.iter().map(|&(_, v)| v as u64).sum();
    if explore && total > 0 {
        let mut pick = rng.next_u64() % total;
        for &(s, v) in visits {
            if pick < v as u64 {
                return Some(s);
            }
            pick -= v as u64;
        }
    }
    visits.iter().max_by_key(|&&(_, v)| v).map(|&(s, _)| s)
}

/// `count` games on `threads` threads (presets in turn), in game order;
/// `progress` hears each game as it ends. Stopped: the games so far.
pub fn play_games(
    sp: &SelfPlay,
    count: u32,
    threads: usize,
    seed: u64,
    stop: &StopFlag,
    progress: &(dyn Fn() + Sync),
) -> Vec<SelfPlayGame> {
    let next = AtomicU32::new(0);
    let done = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                if k >= count || stop.is_stopped() {
                    break;
                }
                let preset = sp.presets[k as usize % sp.presets.len()];
                let game_seed = seed ^ (k as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
                let game = play_game(sp, preset, game_seed, stop);
                if stop.is_stopped() {
                    break;
                }
                if let Ok(mut d) = done.lock() {
                    d.push((k, game));
                }
                progress();
            });
        }
    });
    let mut games = done.into_inner().unwrap_or_else(|e| e.into_inner());
    games.sort_by_key(|(k, _)| *k);
    games.into_iter().map(|(_, g)| g).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn self_play_is_legal_and_reproducible() {
        let sp = SelfPlay {
            presets: vec![Preset::Korobkov],
            playouts: 30,
            temperature_steps: 8,
            noise: (0.3, 0.25),
            guide: None,
            max_steps: 400,
            fog: false,
        };
        let stop = StopFlag::new();
        let a = play_games(&sp, 2, 2, 9, &stop, &|| {});
        let b = play_games(&sp, 2, 1, 9, &stop, &|| {});
        assert_eq!(
            a, b,
            "the same seed gives the same games, whatever the threads"
        );
        for g in &a {
            assert!(g.outcome.is_some(), "korobkov games end");
            for (step, visits) in g.steps.iter().zip(&g.visits) {
                assert!(
                    visits.iter().any(|(s, _)| s == step),
                    "the step was searched"
                );
            }
        }
        assert_ne!(a[0].steps, a[1].steps, "games differ");
    }

    #[test]
    fn fog_self_play_is_legal_and_reproducible_and_learns_from_views() {
        let sp = SelfPlay {
            presets: vec![Preset::Korobkov],
            playouts: 36,
            temperature_steps: 8,
            noise: (0.3, 0.25),
            guide: None,
            max_steps: 400,
            fog: true,
        };
        let stop = StopFlag::new();
        let a = play_games(&sp, 2, 2, 9, &stop, &|| {});
        assert_eq!(a, play_games(&sp, 2, 1, 9, &stop, &|| {}));
        let mut hidden = 0;
        for g in &a {
            assert!(g.fog && g.outcome.is_some(), "fog games that end");
            for (step, visits) in g.steps.iter().zip(&g.visits) {
                assert!(visits.iter().any(|(s, v)| s == step && *v > 0));
                let total: u32 = visits.iter().map(|(_, v)| v).sum();
                // Shares of 36 playouts, each rounded.
                assert!(total >= 1 && total as usize <= 36 + visits.len(), "{total}");
            }
            let one = std::slice::from_ref(g);
            let back =
                crate::learn::games::parse_games(&crate::learn::games::to_text(one)).unwrap();
            assert_eq!(back, one, "the file keeps the fog");
            for s in crate::learn::games::samples(g) {
                let view = s.view.expect("each position learnt as a view");
                assert_eq!(view.setup.side, s.position.side());
                hidden += view.unknown.iter().filter(|&&u| u).count();
            }
        }
        assert!(hidden > 0, "the views hide cells");
    }
}
