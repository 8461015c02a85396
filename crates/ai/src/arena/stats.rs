//! Match statistics: score, Elo difference with a 95 % interval, and a
//! sequential probability ratio test (SPRT) for tuning.

/// Wins, losses and draws from one contender's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
}

impl Tally {
    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// Points per game (win 1, draw ½).
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (self.wins as f64 + 0.5 * self.draws as f64) / n as f64)
    }

    /// Variance of one game's points around the mean score.
    fn variance(&self, s: f64) -> f64 {
        let n = self.games() as f64;
        (self.wins as f64 * (1.0 - s).powi(2)
            + self.losses as f64 * s.powi(2)
            + self.draws as f64 * (0.5 - s).powi(2))
            / n
    }

    /// Elo difference and its 95 % interval (low, estimate, high).
    pub fn elo(&self) -> Option<(f64, f64, f64)> {
        let s = self.score()?;
        let n = self.games() as f64;
        let margin = 1.959964 * (self.variance(s) / n).sqrt();
        Some((elo_of(s - margin), elo_of(s), elo_of(s + margin)))
    }

    /// The SPRT log-likelihood ratio of H1 (`elo1`) against H0 (`elo0`),
    /// by the normal approximation of the score. The variance is floored at
    /// [`MIN_VARIANCE`]: a short run of equal results has a measured
    /// variance of 0, which would make one game decide the test.
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        let Some(s) = self.score() else { return 0.0 };
        let var = self.variance(s).max(MIN_VARIANCE);
        let (s0, s1) = (score_of(elo0), score_of(elo1));
        self.games() as f64 * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
    }
}

/// The smallest variance of one game's points the SPRT assumes (a real
/// match between close players has about 0.2).
pub const MIN_VARIANCE: f64 = 0.01;

/// Games an SPRT needs before it may decide.
pub const MIN_SPRT_GAMES: u32 = 16;

/// Elo difference for a score (clamped away from 0 and 1).
pub fn elo_of(score: f64) -> f64 {
    let s = score.clamp(1e-4, 1.0 - 1e-4);
    -400.0 * (1.0 / s - 1.0).log10()
}

pub fn score_of(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// SPRT decision bounds for error rates `alpha` and `beta`.
pub fn sprt_bounds(alpha: f64, beta: f64) -> (f64, f64) {
    ((beta / (1.0 - alpha)).ln(), ((1.0 - beta) / alpha).ln())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_and_interval() {
        let t = Tally {
            wins: 60,
            losses: 30,
            draws: 10,
        };
        let (lo, e, hi) = t.elo().unwrap();
        assert!((e - elo_of(0.65)).abs() < 1e-9);
        assert!(lo < e && e < hi && hi - lo > 100.0, "{lo} {e} {hi}");
        assert!((elo_of(0.5)).abs() < 1e-9);
        assert!((score_of(elo_of(0.8)) - 0.8).abs() < 1e-9);
    }

    #[test]
    fn sprt_moves_the_right_way() {
        let strong = Tally {
            wins: 700,
            losses: 300,
            draws: 0,
        };
        let weak = Tally {
            wins: 450,
            losses: 550,
            draws: 0,
        };
        let (lower, upper) = sprt_bounds(0.05, 0.05);
        assert!(strong.llr(0.0, 10.0) > upper);
        assert!(weak.llr(0.0, 10.0) < lower);
    }

    #[test]
    fn a_few_equal_results_decide_nothing() {
        // Found by a hostile review: one loss used to accept H0 at once.
        let (lower, upper) = sprt_bounds(0.05, 0.05);
        for t in [
            Tally {
                wins: 0,
                losses: 1,
                draws: 0,
            },
            Tally {
                wins: 1,
                losses: 0,
                draws: 0,
            },
            Tally {
                wins: 0,
                losses: 0,
                draws: 5,
            },
        ] {
            let llr = t.llr(0.0, 5.0);
            assert!(lower < llr && llr < upper, "{t:?}: {llr}");
        }
    }
}
