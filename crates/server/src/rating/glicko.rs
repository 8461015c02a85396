//! Glicko-2 as lichess runs it: start at 1500, RD 500 (also the highest),
//! volatility 0.09, τ 0.75, lowest RD 45; each rated game is a rating
//! period holding that one game, the RD first grown for the time since the
//! player's last rated game (`ratingPeriodsPerDay` 0.21436). The period's
//! arithmetic is the `skillratings` crate's.

use skillratings::glicko2::{glicko2_rating_period, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;

/// A player's rating in a category.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Glicko {
    pub rating: f64,
    /// The rating deviation: how unsure the rating is.
    pub rd: f64,
    pub volatility: f64,
}

/// A game's result for the player rated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win,
    Draw,
    Loss,
}

/// A rating is provisional (shown with a "?") while its RD is this or more.
pub const PROVISIONAL_RD: f64 = 110.0;
const MAX_RD: f64 = 500.0;
const MIN_RD: f64 = 45.0;
const TAU: f64 = 0.75;
/// Rating periods a day: the RD grows by this much volatility a day idle.
const PERIODS_PER_DAY: f64 = 0.21436;
/// The Glicko-2 scale factor (ratings and RDs over it are the μ, φ scale).
const SCALE: f64 = 173.7178;
const DAY_MS: f64 = 86_400_000.0;

impl Default for Glicko {
    /// A player never rated in the category.
    fn default() -> Self {
        Glicko {
            rating: 1500.0,
            rd: MAX_RD,
            volatility: 0.09,
        }
    }
}

impl Glicko {
    pub fn provisional(&self) -> bool {
        self.rd >= PROVISIONAL_RD
    }

    /// The RD grown for `idle_ms` without a rated game (φ² + t·σ², t in
    /// rating periods), at most the highest RD.
    pub fn aged(self, idle_ms: u64) -> Glicko {
        let periods = idle_ms as f64 / DAY_MS * PERIODS_PER_DAY;
        let phi = self.rd / SCALE;
        let grown = (phi * phi + periods * self.volatility * self.volatility).sqrt() * SCALE;
        Glicko {
            rd: grown.min(MAX_RD),
            ..self
        }
    }

    /// The rating after a rating period of `games` (each against an
    /// opponent's rating as it stood), RD kept from 45 to 500.
    pub fn after(self, games: &[(Glicko, Outcome)]) -> Glicko {
        let results: Vec<(Glicko2Rating, Outcomes)> = games
            .iter()
            .map(|(other, outcome)| {
                let outcome = match outcome {
                    Outcome::Win => Outcomes::WIN,
                    Outcome::Draw => Outcomes::DRAW,
                    Outcome::Loss => Outcomes::LOSS,
                };
                (other.skillratings(), outcome)
            })
            .collect();
        let config = Glicko2Config {
            tau: TAU,
            ..Glicko2Config::new()
        };
        let next = glicko2_rating_period(&self.skillratings(), &results, &config);
        Glicko {
            rating: next.rating,
            rd: next.deviation.clamp(MIN_RD, MAX_RD),
            volatility: next.volatility,
        }
    }

    /// One rated game between `self` (last rated `self_idle_ms` ago) and
    /// `other` (`other_idle_ms` ago), `outcome` for `self`: both players'
    /// new ratings, each period holding that one game.
    pub fn game(
        self,
        self_idle_ms: u64,
        other: Glicko,
        other_idle_ms: u64,
        outcome: Outcome,
    ) -> (Glicko, Glicko) {
        let (me, them) = (self.aged(self_idle_ms), other.aged(other_idle_ms));
        let theirs = match outcome {
            Outcome::Win => Outcome::Loss,
            Outcome::Draw => Outcome::Draw,
            Outcome::Loss => Outcome::Win,
        };
        (me.after(&[(them, outcome)]), them.after(&[(me, theirs)]))
    }

    fn skillratings(self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.rd,
            volatility: self.volatility,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Glickman, "Example of the Glicko-2 system": a 1500/200/0.06 player
    /// beats a 1400/30, loses to a 1550/100 and to a 1700/300 (τ 0.5).
    #[test]
    fn glickmans_worked_example() {
        let g = |rating, rd| Glicko {
            rating,
            rd,
            volatility: 0.06,
        };
        let games = [
            (g(1400.0, 30.0), Outcome::Win),
            (g(1550.0, 100.0), Outcome::Loss),
            (g(1700.0, 300.0), Outcome::Loss),
        ];
        let results: Vec<_> = games
            .iter()
            .map(|(o, r)| {
                let r = match r {
                    Outcome::Win => Outcomes::WIN,
                    _ => Outcomes::LOSS,
                };
                (o.skillratings(), r)
            })
            .collect();
        let config = Glicko2Config {
            tau: 0.5,
            ..Glicko2Config::new()
        };
        let next = glicko2_rating_period(&g(1500.0, 200.0).skillratings(), &results, &config);
        assert!((next.rating - 1464.06).abs() < 0.01, "{}", next.rating);
        assert!((next.deviation - 151.52).abs() < 0.01, "{}", next.deviation);
        assert!(
            (next.volatility - 0.05999).abs() < 0.00001,
            "{}",
            next.volatility
        );
        // Through this module (τ 0.75 changes the volatility only a little).
        let ours = g(1500.0, 200.0).after(&games);
        assert!((ours.rating - 1464.06).abs() < 0.1, "{}", ours.rating);
        assert!((ours.rd - 151.52).abs() < 0.1, "{}", ours.rd);
    }

    #[test]
    fn new_players_start_unsure_and_settle() {
        let new = Glicko::default();
        assert!(new.provisional());
        let (winner, loser) = new.game(0, new, 0, Outcome::Win);
        assert!(winner.rating > 1500.0 && loser.rating < 1500.0);
        assert!(
            (winner.rating - 1500.0 - (1500.0 - loser.rating)).abs() < 1e-9,
            "symmetric"
        );
        assert!(winner.rd < 500.0);
        let (a, b) = new.game(0, new, 0, Outcome::Draw);
        assert!((a.rating - 1500.0).abs() < 1e-9 && (b.rating - 1500.0).abs() < 1e-9);
        // Many games settle the RD, never under 45.
        let mut p = new;
        for k in 0..400 {
            let outcome = if k % 2 == 0 {
                Outcome::Win
            } else {
                Outcome::Loss
            };
            p = p.game(0, p, 0, outcome).0;
        }
        assert!(!p.provisional() && p.rd >= MIN_RD, "{p:?}");
    }

    #[test]
    fn the_rd_grows_with_idle_time_up_to_500() {
        let settled = Glicko {
            rating: 1800.0,
            rd: 60.0,
            volatility: 0.06,
        };
        assert!((settled.aged(0).rd - 60.0).abs() < 1e-9);
        let a_year = settled.aged(365 * 86_400_000);
        // φ² + 365·0.21436·σ²: 60 → about 110 (provisional again).
        let expected =
            ((60.0f64 / SCALE).powi(2) + 365.0 * PERIODS_PER_DAY * 0.0036).sqrt() * SCALE;
        assert!(
            (a_year.rd - expected).abs() < 1e-9 && a_year.provisional(),
            "{}",
            a_year.rd
        );
        assert_eq!(settled.aged(u64::MAX).rd, MAX_RD);
        assert_eq!(a_year.rating, 1800.0);
    }
}
