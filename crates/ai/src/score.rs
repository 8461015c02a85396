//! Scores from the point of view of the side to step: evaluation units, or
//! a proven win or loss with its distance in steps.

use virus_wars_rules::{Outcome, Side};

/// A proven win at the root scores `WIN`; each step further away costs one.
pub const WIN: i32 = 1_000_000;
/// Scores beyond this magnitude are proven results.
pub const PROVEN: i32 = WIN - 10_000;
pub const INFINITY: i32 = WIN + 1;

/// Score of a win `ply` steps from the root for the side that wins.
pub fn win_in(ply: u32) -> i32 {
    WIN - ply as i32
}

/// The score of a game that ended `ply` from the root, for `side`.
/// Whole-turn searches score a turn that ends the game for the side that
/// played it: a turn may end with the mover itself stuck (no cell to step
/// on with steps left: it loses), its side still to move.
pub fn ended(outcome: Outcome, side: Side, ply: u32) -> i32 {
    match outcome {
        Outcome::Win(s) if s == side => win_in(ply),
        Outcome::Win(_) => -win_in(ply),
        Outcome::Draw => 0,
    }
}

pub fn is_proven(score: i32) -> bool {
    score.abs() > PROVEN
}

/// Steps to the proven end (positive: the side to step wins).
pub fn steps_to_end(score: i32) -> Option<i32> {
    is_proven(score).then(|| (WIN - score.abs()) * score.signum())
}

/// Win probability for the side to step, from an evaluation score
/// (logistic; 300 units ≈ 73 %).
pub fn win_probability(score: i32) -> f64 {
    if is_proven(score) {
        return if score > 0 { 1.0 } else { 0.0 };
    }
    1.0 / (1.0 + (-(score as f64) / 300.0).exp())
}

/// The score as the engine protocol writes it: `winprob 0.734` or
/// `win 5` / `loss 5` (steps to the end).
pub fn describe(score: i32) -> String {
    match steps_to_end(score) {
        Some(n) if n >= 0 => format!("win {n}"),
        Some(n) => format!("loss {}", -n),
        None => format!("winprob {:.3}", win_probability(score)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proven_scores_read_back() {
        assert_eq!(steps_to_end(win_in(7)), Some(7));
        assert_eq!(steps_to_end(-win_in(3)), Some(-3));
        assert_eq!(steps_to_end(250), None);
        assert_eq!(describe(-win_in(4)), "loss 4");
        assert_eq!(describe(0), "winprob 0.500");
        assert!(win_probability(300) > 0.7 && win_probability(300) < 0.75);
    }
}
