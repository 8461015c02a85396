//! Tuning the evaluation weights, two ways.
//!
//! SPSA (simultaneous perturbation stochastic approximation) tunes for
//! playing strength directly: each iteration plays the weights nudged one
//! way against the weights nudged the other way (every weight moved by ±c at
//! once), on paired random openings at a fixed alpha-beta depth, and moves
//! the weights toward the side that scored better.
//!
//! A regression on game outcomes tunes for prediction: MCTS
//! (which needs no evaluation) plays itself from paired random openings,
//! every position of those games becomes a sample (its features, and whether
//! the side to step went on to win), and a logistic regression fits the
//! weights so that the evaluation, read as a win probability, predicts the
//! results. A match between the fitted and the old weights at a fixed
//! alpha-beta depth then checks that the new weights play better.
//! Everything is seeded and runs on one thread per game, so a run is
//! reproducible.

use virus_wars_rules::{Outcome, Side, Variant};

use virus_wars_rules::with_position;

use crate::alphabeta::AlphaBeta;
use crate::arena::random_opening;
use crate::budget::Budget;
use crate::duel::play_out;
use crate::eval::{features, Weights};
use crate::mcts::{Mcts, MctsConfig};
use crate::player::Player;
use crate::score::win_probability;

/// SPSA settings.
#[derive(Clone, Copy, Debug)]
pub struct Spsa {
    pub iterations: u32,
    /// Opening pairs per iteration.
    pub pairs: u32,
    /// Perturbation as a fraction of each starting weight (at least 10 units).
    pub perturbation: f64,
    /// How far a fully one-sided iteration moves a weight, in perturbations.
    pub rate: f64,
}

/// One SPSA iteration, for progress reports.
#[derive(Clone, Debug)]
pub struct Iteration {
    pub number: u32,
    /// Points of the plus side minus the minus side, per game.
    pub difference: f64,
    pub weights: Weights,
}

/// Settings of a tuning run.
#[derive(Clone, Debug)]
pub struct TuneConfig {
    pub variant: Variant,
    /// Self-play games that make the samples.
    pub games: u32,
    /// MCTS playouts per step in those games.
    pub playouts: u64,
    /// Alpha-beta depth in steps for the checking match.
    pub depth: u32,
    pub opening_steps: u32,
    pub seed: u64,
    /// Games played at once.
    pub threads: usize,
}

/// One position of a self-play game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    pub features: [i32; 6],
    /// 1 if the side to step went on to win, 0 if it lost, ½ a draw.
    pub result: f64,
}

/// Points for `first` (1 a win, ½ a draw) over the games of `pairs` opening
/// pairs between weights `first` and `second`, colours alternating.
pub fn match_points(
    config: &TuneConfig,
    first: &Weights,
    second: &Weights,
    pairs: u32,
    seed: u64,
) -> (f64, u32) {
    let games = pairs * 2;
    let next = std::sync::atomic::AtomicU32::new(0);
    let points = std::sync::Mutex::new(0.0f64);
    std::thread::scope(|scope| {
        for _ in 0..config.threads.max(1) {
            scope.spawn(|| loop {
                let g = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if g >= games {
                    break;
                }
                let first_is_x = g % 2 == 0;
                let mut game = random_opening(&config.variant, seed, config.opening_steps, g / 2);
                let player = |w: &Weights| -> Box<dyn Player> {
                    let mut ab = AlphaBeta::new(4);
                    ab.weights = *w;
                    Box::new(ab)
                };
                let mut seats = if first_is_x {
                    [player(first), player(second)]
                } else {
                    [player(second), player(first)]
                };
                let budget = Budget::depth(config.depth);
                let first_side = if first_is_x { Side::X } else { Side::O };
                let score = match play_out(&mut game, &mut seats, [budget; 2]) {
                    Ok(()) => match game.outcome() {
                        Some(Outcome::Win(s)) if s == first_side => 1.0,
                        Some(Outcome::Draw) => 0.5,
                        _ => 0.0,
                    },
                    // A built-in player never forfeits; count it against it anyway.
                    Err(_) => 0.5,
                };
                if let Ok(mut p) = points.lock() {
                    *p += score;
                }
            });
        }
    });
    let total = points.into_inner().unwrap_or(0.0);
    (total, games)
}

/// Runs SPSA from `start` with the match settings of `config` (variant,
/// depth, openings, seed, threads); `progress` hears every iteration.
pub fn spsa(
    config: &TuneConfig,
    spsa: &Spsa,
    start: &Weights,
    mut progress: impl FnMut(&Iteration),
) -> Weights {
    let scale: Vec<f64> = start
        .as_array()
        .iter()
        .map(|&w| (w.abs() as f64).max(10.0))
        .collect();
    let mut theta: Vec<f64> = start.as_array().iter().map(|&w| w as f64).collect();
    let round = |t: &[f64]| {
        let mut a = [0i32; 6];
        for (w, x) in a.iter_mut().zip(t) {
            *w = x.round() as i32;
        }
        Weights::from_array(a)
    };
    let mut rng = virus_wars_rules::rng::SplitMix64::new(config.seed);
    let stability = spsa.iterations as f64 / 10.0;
    for k in 0..spsa.iterations {
        // Spall's gain sequences, scaled so the first iteration uses the
        // given perturbation and rate.
        let ck = spsa.perturbation / ((k + 1) as f64).powf(0.101);
        let ak = spsa.rate * ((1.0 + stability) / (k as f64 + 1.0 + stability)).powf(0.602);
        let delta: Vec<f64> = (0..6)
            .map(|_| if rng.below(2) == 0 { -1.0 } else { 1.0 })
            .collect();
        let shifted = |sign: f64| -> Vec<f64> {
            (0..6)
                .map(|i| theta[i] + sign * ck * scale[i] * delta[i])
                .collect()
        };
        let seed = config.seed ^ (k as u64 + 1).wrapping_mul(0xA24B_AED4_963E_E407);
        let (plus, minus) = (round(&shifted(1.0)), round(&shifted(-1.0)));
        let (points, games) = match_points(config, &plus, &minus, spsa.pairs, seed);
        let difference = (2.0 * points - games as f64) / games.max(1) as f64;
        for (i, t) in theta.iter_mut().enumerate() {
            *t += ak * ck * scale[i] * difference * delta[i];
        }
        progress(&Iteration {
            number: k + 1,
            difference,
            weights: round(&theta),
        });
    }
    round(&theta)
}

/// Plays `config.games` MCTS self-play games (paired random openings) and
/// returns every position before the end as a sample; `progress` hears the
/// number of games finished.
pub fn self_play_samples(config: &TuneConfig, progress: impl Fn(u32) + Sync) -> Vec<Sample> {
    let next = std::sync::atomic::AtomicU32::new(0);
    let done = std::sync::atomic::AtomicU32::new(0);
    let games = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..config.threads.max(1) {
            scope.spawn(|| loop {
                let g = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if g >= config.games {
                    break;
                }
                let samples = self_play_game(config, g);
                if let Ok(mut all) = games.lock() {
                    all.push((g, samples));
                }
                progress(done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1);
            });
        }
    });
    let mut games = games.into_inner().unwrap_or_default();
    games.sort_by_key(|(g, _)| *g);
    games.into_iter().flat_map(|(_, s)| s).collect()
}

fn self_play_game(config: &TuneConfig, g: u32) -> Vec<Sample> {
    let mut game = random_opening(&config.variant, config.seed, config.opening_steps, g / 2);
    let mcts = |k: u64| -> Box<dyn Player> {
        Box::new(Mcts::new(MctsConfig {
            threads: 1,
            seed: config.seed ^ (g as u64 * 2 + k + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15),
            ..MctsConfig::default()
        }))
    };
    let mut seats = [mcts(0), mcts(1)];
    let budget = Budget::nodes(config.playouts);
    let first = game.steps().len();
    if play_out(&mut game, &mut seats, [budget; 2]).is_err() {
        return Vec::new();
    }
    let Some(outcome) = game.outcome() else {
        return Vec::new();
    };
    (first..game.steps().len())
        .filter_map(|k| game.position_after(k))
        .filter(|p| p.outcome().is_none())
        .map(|p| {
            let result = match outcome {
                Outcome::Win(w) if w == p.side() => 1.0,
                Outcome::Win(_) => 0.0,
                Outcome::Draw => 0.5,
            };
            let features = with_position!(p, q => features(q).as_array());
            Sample { features, result }
        })
        .collect()
}

/// Mean log loss of `weights` on `samples`, the evaluation read as a win
/// probability the way the engine reports it.
pub fn log_loss(samples: &[Sample], weights: &Weights) -> f64 {
    let w = weights.as_array();
    let total: f64 = samples
        .iter()
        .map(|s| {
            let eval: i32 = s.features.iter().zip(w).map(|(f, w)| f * w).sum::<i32>() / 10;
            let p = win_probability(eval).clamp(1e-6, 1.0 - 1e-6);
            -(s.result * p.ln() + (1.0 - s.result) * (1.0 - p).ln())
        })
        .sum();
    total / samples.len().max(1) as f64
}

/// Fits the weights by logistic regression (full-batch gradient descent on
/// standardised features, a little L2) and returns them in evaluation units.
pub fn fit(samples: &[Sample], rounds: u32) -> Weights {
    let n = samples.len().max(1) as f64;
    // Evaluation = Σ w·f / 10 and probability = σ(evaluation / 300).
    const UNIT: f64 = 3000.0;
    let spread: Vec<f64> = (0..6)
        .map(|i| {
            let mean = samples.iter().map(|s| s.features[i] as f64).sum::<f64>() / n;
            let var = samples
                .iter()
                .map(|s| (s.features[i] as f64 - mean).powi(2))
                .sum::<f64>()
                / n;
            // A feature that never varies says nothing: it keeps weight 0.
            if var > 1e-12 {
                var.sqrt()
            } else {
                f64::INFINITY
            }
        })
        .collect();
    let mut v = [0.0f64; 6];
    for _ in 0..rounds {
        let mut grad = [0.0f64; 6];
        for s in samples {
            let z: f64 = (0..6)
                .map(|i| v[i] * s.features[i] as f64 / spread[i])
                .sum();
            let err = 1.0 / (1.0 + (-z).exp()) - s.result;
            for (i, g) in grad.iter_mut().enumerate() {
                *g += err * s.features[i] as f64 / spread[i];
            }
        }
        for (vi, g) in v.iter_mut().zip(grad) {
            *vi -= 0.5 * (g / n + 1e-4 * *vi);
        }
    }
    let mut w = [0i32; 6];
    for (i, wi) in w.iter_mut().enumerate() {
        *wi = (v[i] * UNIT / spread[i]).round().clamp(-1e6, 1e6) as i32;
    }
    Weights::from_array(w)
}

#[cfg(test)]
mod tests {
    use super::*;
    use virus_wars_rules::Preset;

    fn config() -> TuneConfig {
        TuneConfig {
            variant: Preset::Classic.sized(6, 6),
            games: 4,
            playouts: 50,
            depth: 1,
            opening_steps: 4,
            seed: 9,
            threads: 2,
        }
    }

    #[test]
    fn spsa_is_reproducible_and_moves_the_weights() {
        let how = Spsa {
            iterations: 2,
            pairs: 2,
            perturbation: 0.2,
            rate: 1.0,
        };
        let start = Weights::TUNED;
        let mut seen = Vec::new();
        let a = spsa(&config(), &how, &start, |i| seen.push(i.difference));
        let b = spsa(&config(), &how, &start, |_| {});
        assert_eq!(a, b, "same seed, same weights");
        assert_eq!(seen.len(), 2);
        assert!(seen.iter().all(|d| (-1.0..=1.0).contains(d)));
        assert_eq!(
            a != start,
            seen.iter().any(|d| *d != 0.0),
            "only a decisive iteration moves the weights"
        );
    }

    #[test]
    fn self_play_is_reproducible() {
        let a = self_play_samples(&config(), |_| {});
        let b = self_play_samples(&config(), |_| {});
        assert!(a.len() > 20);
        assert_eq!(a, b);
        assert!(a.iter().all(|s| [0.0, 0.5, 1.0].contains(&s.result)));
    }

    #[test]
    fn the_fit_finds_the_feature_that_decides() {
        // Made-up samples where only mobility predicts the result.
        let samples: Vec<Sample> = (0..400)
            .map(|k| {
                let m = (k % 21) - 10;
                let noise = ((k * 7919) % 13) - 6;
                Sample {
                    features: [m, noise, 0, noise / 2, 0, 3],
                    result: if m + noise / 3 > 0 { 1.0 } else { 0.0 },
                }
            })
            .collect();
        let w = fit(&samples, 500);
        assert!(w.mobility > 0, "{w:?}");
        assert!(w.mobility > 5 * w.threats.abs(), "{w:?}");
        assert!(log_loss(&samples, &w) < log_loss(&samples, &Weights::from_array([0; 6])));
    }

    #[test]
    fn equal_weights_split_every_opening_pair() {
        // The same deterministic player on both seats replays each opening's
        // game with the colours swapped: one point each, whoever wins.
        let w = Weights::TUNED;
        let (points, games) = match_points(&config(), &w, &w, 3, 1);
        assert_eq!((points, games), (3.0, 6));
        let other = Weights::from_array([0, 0, 0, -20, -30, 0]);
        let (a, _) = match_points(&config(), &w, &other, 3, 1);
        let (b, _) = match_points(&config(), &other, &w, 3, 1);
        assert_eq!(a + b, 6.0, "points are counted for the right side");
    }
}
