//! A finished game reviewed turn by turn (docs/ai.md, Reviewing a game):
//! X's chance to win before and after each turn, the best whole turn from
//! the position before it, and a judgement of what the mover lost, as
//! lichess judges a move; and each side's accuracy.

use std::time::Duration;

use virus_wars_rules::{AnyPosition, Game, Outcome, Side, Step};

use crate::budget::Budget;
use crate::mcts::MctsConfig;
use crate::neural::NetChoice;
use crate::player::Player;
use crate::score;
use crate::search::{SearchResult, StopFlag};
use crate::spec::PlayerSpec;

/// What a turn cost its mover.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Judgement {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Judgement {
    /// The judgement of a loss of win chance (0…1): at least 0.05 an
    /// inaccuracy, 0.10 a mistake, 0.15 a blunder (lichess's 0.1 / 0.2 /
    /// 0.3 on its −1…1 scale, put on 0…1).
    pub fn of_loss(loss: f64) -> Option<Judgement> {
        if loss >= 0.15 {
            Some(Judgement::Blunder)
        } else if loss >= 0.10 {
            Some(Judgement::Mistake)
        } else if loss >= 0.05 {
            Some(Judgement::Inaccuracy)
        } else {
            None
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "inaccuracy",
            Judgement::Mistake => "mistake",
            Judgement::Blunder => "blunder",
        }
    }
}

/// A turn's accuracy, 0 to 100, from the mover's loss of win chance
/// (0…1): lichess's per-move formula, 103.1668 · e^(−0.04354 · L) − 3.1669
/// with L the loss in percentage points, kept within 0 and 100.
pub fn turn_accuracy(loss: f64) -> f64 {
    let points = loss.max(0.0) * 100.0;
    (103.1668 * (-0.04354 * points).exp() - 3.1669).clamp(0.0, 100.0)
}

/// One turn of a reviewed game.
#[derive(Clone, Debug, PartialEq)]
pub struct TurnReview {
    /// Counted over both sides (1 = X's first turn).
    pub turn: u32,
    pub side: Side,
    pub steps: Vec<Step>,
    /// X's chance to win before and after the turn (the result, 1, 0 or
    /// ½, once the game is over).
    pub x_win_before: f64,
    pub x_win_after: f64,
    /// The best whole turn from the position before it.
    pub best: Vec<Step>,
    pub judgement: Option<Judgement>,
}

impl TurnReview {
    /// What the turn cost its mover in win chance (0 or more).
    pub fn loss(&self) -> f64 {
        let change = self.x_win_after - self.x_win_before;
        match self.side {
            Side::X => -change,
            Side::O => change,
        }
        .max(0.0)
    }
}

/// A game reviewed.
#[derive(Clone, Debug, PartialEq)]
pub struct Review {
    pub turns: Vec<TurnReview>,
    /// Each side's accuracy (X, O): the mean of its turns' accuracies
    /// (100 for a side that played no turn).
    pub accuracy: [f64; 2],
}

/// How long the judge searches each position that starts a turn, unless
/// told otherwise (docs/ai.md, Reviewing a game).
pub const JUDGE_TIME: Duration = Duration::from_millis(300);

/// The player that judges a game: level 9's search (MCTS guided by the
/// built-in net, its value blended with the playouts') on one thread,
/// [`JUDGE_TIME`] a position.
pub fn judge_spec() -> PlayerSpec {
    PlayerSpec::Net {
        budget: Budget::time(JUDGE_TIME),
        config: MctsConfig {
            threads: 1,
            ..MctsConfig::default()
        },
        net: NetChoice::builtin(),
        mix: crate::levels::LEVEL9_MIX,
        after: crate::levels::LEVEL9_AFTER,
        batch: 1,
        view: None,
    }
}

/// What the judge made of one position that starts a turn: X's chance to
/// win there, and the best whole turn from it (none once the game is over).
#[derive(Clone, Debug, PartialEq)]
pub struct Judged {
    pub x_win: f64,
    pub best: Vec<Step>,
}

impl Judged {
    /// The result, if the game is over at `p`: X's chance is 1, 0 or ½.
    pub fn over(p: &AnyPosition) -> Option<Judged> {
        let x_win = match p.outcome()? {
            Outcome::Win(Side::X) => 1.0,
            Outcome::Win(Side::O) => 0.0,
            Outcome::Draw => 0.5,
        };
        Some(Judged {
            x_win,
            best: Vec::new(),
        })
    }

    /// The judge's search `r` of `p`: its score for the side to move as a
    /// probability (a proven win or loss 1 or 0), turned to X's side.
    pub fn searched(p: &AnyPosition, r: SearchResult) -> Judged {
        let mover = r
            .info
            .as_ref()
            .map_or(0.5, |i| score::win_probability(i.score));
        Judged {
            x_win: if p.side() == Side::X {
                mover
            } else {
                1.0 - mover
            },
            best: r.steps,
        }
    }
}

/// The positions that start each turn of `game`, and the one after its
/// last turn: what the judge searches, one turn's "after" being the next
/// turn's "before".
pub fn turn_starts(game: &Game) -> Vec<AnyPosition> {
    let mut at = 0;
    let mut starts = Vec::with_capacity(game.turns().len() + 1);
    starts.extend(game.position_after(0).copied());
    for t in game.turns() {
        at += t.steps.len();
        starts.extend(game.position_after(at).copied());
    }
    starts
}

/// The review of `game` from the judged positions of [`turn_starts`] so
/// far: the turns both of whose ends are judged, and each side's accuracy
/// over them.
pub fn assemble(game: &Game, judged: &[Judged]) -> Review {
    let reviewed: Vec<TurnReview> = game
        .turns()
        .iter()
        .zip(judged.windows(2))
        .map(|(t, pair)| {
            let mut r = TurnReview {
                turn: t.turn,
                side: t.side,
                steps: t.steps.clone(),
                x_win_before: pair[0].x_win,
                x_win_after: pair[1].x_win,
                best: pair[0].best.clone(),
                judgement: None,
            };
            r.judgement = Judgement::of_loss(r.loss());
            r
        })
        .collect();
    let accuracy = Side::BOTH.map(|side| {
        let mine: Vec<f64> = reviewed
            .iter()
            .filter(|r| r.side == side)
            .map(|r| turn_accuracy(r.loss()))
            .collect();
        if mine.is_empty() {
            100.0
        } else {
            mine.iter().sum::<f64>() / mine.len() as f64
        }
    });
    Review {
        turns: reviewed,
        accuracy,
    }
}

/// Reviews `game` with `player` searching each position that starts a
/// turn within `budget` (one search a position).
pub fn review(game: &Game, player: &mut dyn Player, budget: &Budget) -> Review {
    let judged: Vec<Judged> = turn_starts(game)
        .iter()
        .map(|p| {
            Judged::over(p).unwrap_or_else(|| {
                Judged::searched(p, player.choose(p, budget, &StopFlag::new(), &mut |_| {}))
            })
        })
        .collect();
    assemble(game, &judged)
}

#[cfg(test)]
mod tests {
    use super::*;
    use virus_wars_rules::Preset;

    #[test]
    fn judgements_and_accuracy_follow_the_documented_thresholds() {
        assert_eq!(Judgement::of_loss(0.049), None);
        assert_eq!(Judgement::of_loss(0.05), Some(Judgement::Inaccuracy));
        assert_eq!(Judgement::of_loss(0.10), Some(Judgement::Mistake));
        assert_eq!(Judgement::of_loss(0.15), Some(Judgement::Blunder));
        assert!((turn_accuracy(0.0) - 99.9999).abs() < 0.001);
        assert!((turn_accuracy(0.10) - (103.1668 * (-0.4354f64).exp() - 3.1669)).abs() < 1e-9);
        assert_eq!(turn_accuracy(1.0), 0.0, "clamped");
    }

    #[test]
    fn a_finished_game_is_reviewed_turn_by_turn() {
        // A short game played to its end by a weak player against a strong one.
        let mut game = Game::new(Preset::Classic.sized(5, 5)).unwrap();
        let (mut strong, budget) = PlayerSpec::parse_without_files("alphabeta:depth=2")
            .unwrap()
            .build();
        let (mut weak, _) = PlayerSpec::parse_without_files("random:seed=3")
            .unwrap()
            .build();
        while game.outcome().is_none() {
            let p = *game.position();
            let mover: &mut dyn Player = if p.side() == Side::X {
                &mut *weak
            } else {
                &mut *strong
            };
            let r = mover.choose(&p, &budget, &StopFlag::new(), &mut |_| {});
            for step in r.steps {
                game.play(step).unwrap();
            }
        }
        let (mut judge, budget) = PlayerSpec::parse_without_files("alphabeta:depth=1")
            .unwrap()
            .build();
        let review = review(&game, &mut *judge, &budget);
        assert_eq!(review.turns.len(), game.turns().len());
        let last = review.turns.last().unwrap();
        let result = match game.outcome().unwrap() {
            Outcome::Win(Side::X) => 1.0,
            Outcome::Win(Side::O) => 0.0,
            Outcome::Draw => 0.5,
        };
        assert_eq!(last.x_win_after, result, "the last turn ends in the result");
        for pair in review.turns.windows(2) {
            assert_eq!(
                pair[0].x_win_after, pair[1].x_win_before,
                "one search a position"
            );
        }
        for t in &review.turns {
            assert!((0.0..=1.0).contains(&t.x_win_before));
            assert_eq!(t.judgement, Judgement::of_loss(t.loss()));
            assert!(!t.best.is_empty(), "a best turn before every turn");
        }
        assert!(review.accuracy.iter().all(|a| (0.0..=100.0).contains(a)));
    }
}
