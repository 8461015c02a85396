//! The exact solver: proves, within a number of whole turns, whether the
//! side to move wins or loses, looking at every turn (no width, no
//! evaluation: a position not decided within the depth is unknown). Used
//! where a claim must hold whatever the other side does: a puzzle's only
//! winning turn (docs/puzzles.md). Its cost grows as the number of turns
//! to the power of the depth, so it is meant for small boards (at most 36
//! cells) near the end of a game, and it gives up past a node limit.

use std::collections::HashMap;

use virus_wars_rules::{with_position, AnyPosition, Position, Side, Step};

use crate::score::{self, INFINITY};
use crate::tt::Bound;
use crate::turns::{each_turn, Walk};

/// Most positions one turn's enumeration may hold: a position with more
/// distinct part-turns than this is not solved.
const MAX_TURN_POSITIONS: usize = 200_000;

/// Most positions the solver remembers (about 40 bytes each).
const MAX_TABLE: usize = 1 << 20;

/// What is proven about a position for its side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proof {
    /// It wins, whatever the other side does, within this many turns
    /// (its own and the other side's, counted from its turn).
    Win(u32),
    /// It loses within this many turns, whatever it does.
    Loss(u32),
    /// Neither within the depth.
    Unknown,
}

impl Proof {
    fn of_score(v: i32) -> Proof {
        match score::steps_to_end(v) {
            Some(n) if n >= 0 => Proof::Win(n as u32),
            Some(n) => Proof::Loss((-n) as u32),
            None => Proof::Unknown,
        }
    }

    pub fn is_win(self) -> bool {
        matches!(self, Proof::Win(_))
    }

    pub fn is_loss(self) -> bool {
        matches!(self, Proof::Loss(_))
    }
}

/// One turn from the root and what is proven about it for the mover.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnProof {
    pub steps: Vec<Step>,
    pub proof: Proof,
}

/// Why a position was not solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Unsolved {
    #[error("the solver looked at {0} positions, its limit")]
    NodeLimit(u64),
    #[error("a position has more turns than the solver lists")]
    TooWide,
}

pub struct Solver {
    table: HashMap<(u64, u32), (i32, Bound)>,
    nodes: u64,
    node_limit: u64,
}

impl Solver {
    /// A solver that gives up after `node_limit` positions a call.
    pub fn new(node_limit: u64) -> Solver {
        Solver {
            table: HashMap::new(),
            nodes: 0,
            node_limit,
        }
    }

    /// Positions looked at by the last call.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// What is proven about `p` within `depth` turns.
    pub fn prove(&mut self, p: &AnyPosition, depth: u32) -> Result<Proof, Unsolved> {
        self.nodes = 0;
        let v = with_position!(p, q => self.negamax(q, depth, -INFINITY, INFINITY, 0))?;
        Ok(Proof::of_score(v))
    }

    /// Every distinct turn from `p` with what is proven about it for the
    /// mover within `depth` turns (the turn itself counted), in the order
    /// of the enumeration.
    pub fn turns(&mut self, p: &AnyPosition, depth: u32) -> Result<Vec<TurnProof>, Unsolved> {
        self.nodes = 0;
        with_position!(p, q => self.root(q, depth))
    }

    /// The turns from `p` that win for the mover within `depth` turns,
    /// in the order of the enumeration, at most `most` of them (the search
    /// stops at the `most`-th): each tested with a window that asks only
    /// "a proven win?", far cheaper than its value.
    pub fn winning_turns(
        &mut self,
        p: &AnyPosition,
        depth: u32,
        most: usize,
    ) -> Result<(Vec<Vec<Step>>, usize), Unsolved> {
        self.nodes = 0;
        with_position!(p, q => self.winners(q, depth, most))
    }

    fn winners<const N: usize>(
        &mut self,
        p: &Position<N>,
        depth: u32,
        most: usize,
    ) -> Result<(Vec<Vec<Step>>, usize), Unsolved> {
        let turns = list(p)?;
        let count = turns.len();
        let mut out = Vec::new();
        for t in turns {
            // The other side's value at most −PROVEN: it is proven to lose.
            let v = self.after_turn(
                p.side(),
                &t.after,
                depth.saturating_sub(1),
                score::PROVEN,
                INFINITY,
                1,
            )?;
            if v > score::PROVEN {
                out.push(t.steps);
                if out.len() >= most {
                    break;
                }
            }
        }
        Ok((out, count))
    }

    fn root<const N: usize>(
        &mut self,
        p: &Position<N>,
        depth: u32,
    ) -> Result<Vec<TurnProof>, Unsolved> {
        let mut out = Vec::new();
        for t in list(p)? {
            let v = self.after_turn(
                p.side(),
                &t.after,
                depth.saturating_sub(1),
                -INFINITY,
                INFINITY,
                1,
            )?;
            out.push(TurnProof {
                steps: t.steps,
                proof: Proof::of_score(v),
            });
        }
        Ok(out)
    }

    /// The value for `mover` of the position `after` its turn, within
    /// (`alpha`, `beta`): the game's end scored for the mover (even a turn
    /// it could not finish), else the other side's value negated.
    fn after_turn<const N: usize>(
        &mut self,
        mover: Side,
        after: &Position<N>,
        depth: u32,
        alpha: i32,
        beta: i32,
        ply: u32,
    ) -> Result<i32, Unsolved> {
        match after.outcome() {
            Some(o) => Ok(score::ended(o, mover, ply)),
            None => Ok(-self.negamax(after, depth, -beta, -alpha, ply)?),
        }
    }

    /// Negamax over whole turns with alpha-beta: a proven result scores by
    /// its distance in turns, anything else 0.
    fn negamax<const N: usize>(
        &mut self,
        p: &Position<N>,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        ply: u32,
    ) -> Result<i32, Unsolved> {
        self.nodes += 1;
        if self.nodes > self.node_limit {
            return Err(Unsolved::NodeLimit(self.node_limit));
        }
        if let Some(o) = p.outcome() {
            return Ok(score::ended(o, p.side(), ply));
        }
        if depth == 0 {
            return Ok(0);
        }
        // Stored relative to this node (distance from it), so that a hit
        // at another ply reads back right.
        let key = (p.hash(), depth);
        if let Some(&(stored, bound)) = self.table.get(&key) {
            let v = from_here(stored, ply);
            if bound.answers(v, alpha, beta) {
                return Ok(v);
            }
        }
        let children = list(p)?;
        let mut best = -INFINITY;
        let (start_alpha, start_beta) = (alpha, beta);
        for child in &children {
            let v = self.after_turn(p.side(), &child.after, depth - 1, alpha, beta, ply + 1)?;
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        let bound = Bound::of(best, start_alpha, start_beta);
        if self.table.len() >= MAX_TABLE {
            self.table.clear();
        }
        self.table.insert(key, (to_here(best, ply), bound));
        Ok(best)
    }
}

/// A score at `ply` as a distance from the node.
fn to_here(v: i32, ply: u32) -> i32 {
    match score::steps_to_end(v) {
        Some(_) if v > 0 => v + ply as i32,
        Some(_) => v - ply as i32,
        None => v,
    }
}

/// A stored distance as a score at `ply`.
fn from_here(v: i32, ply: u32) -> i32 {
    match score::steps_to_end(v) {
        Some(_) if v > 0 => v - ply as i32,
        Some(_) => v + ply as i32,
        None => v,
    }
}

/// Every distinct turn from `p`, or `TooWide`.
fn list<const N: usize>(p: &Position<N>) -> Result<Vec<crate::turns::Turn<N>>, Unsolved> {
    let mut out = Vec::new();
    match each_turn(p, MAX_TURN_POSITIONS, &mut || true, &mut |t| out.push(t)) {
        Walk::Whole => Ok(out),
        Walk::Cut => Err(Unsolved::TooWide),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::PlayerSpec;
    use crate::testing::self_play;
    use virus_wars_rules::{Game, Preset};

    #[test]
    fn the_start_is_unknown_and_every_turn_is_listed() {
        let p = *Game::new(Preset::Classic.sized(5, 5)).unwrap().position();
        let mut solver = Solver::new(1_000_000);
        assert_eq!(solver.prove(&p, 1), Ok(Proof::Unknown));
        let turns = solver.turns(&p, 1).unwrap();
        assert!(!turns.is_empty());
        assert!(turns.iter().all(|t| t.proof == Proof::Unknown));
        assert_eq!(Solver::new(3).prove(&p, 2), Err(Unsolved::NodeLimit(3)));
    }

    #[test]
    fn proofs_agree_whichever_way_they_are_asked() {
        // Positions near the end of 5×5 games between two weak players.
        let (mut player, budget) =
            PlayerSpec::parse_without_files("mcts:playouts=60,threads=1,seed=1")
                .unwrap()
                .build();
        let mut checked = [0; 3];
        for (k, preset) in [
            Preset::Classic,
            Preset::Korobkov,
            Preset::PaperTactics,
            Preset::Feup,
            Preset::Gcr,
        ]
        .into_iter()
        .enumerate()
        {
            let start = *Game::new(preset.sized(5, 5)).unwrap().position();
            for turns in 6..14 {
                let p = self_play(&mut *player, start, &budget, turns + k);
                if p.outcome().is_some() {
                    break;
                }
                let mut solver = Solver::new(5_000_000);
                let whole = solver.prove(&p, 2).unwrap();
                let listed = solver.turns(&p, 2).unwrap();
                let (winners, count) = solver.winning_turns(&p, 2, usize::MAX).unwrap();
                assert_eq!(count, listed.len());
                let listed_winners: Vec<&Vec<Step>> = listed
                    .iter()
                    .filter(|t| t.proof.is_win())
                    .map(|t| &t.steps)
                    .collect();
                assert_eq!(
                    winners.iter().collect::<Vec<_>>(),
                    listed_winners,
                    "the same winning turns"
                );
                match whole {
                    Proof::Win(n) => {
                        let fastest = listed.iter().filter_map(|t| match t.proof {
                            Proof::Win(m) => Some(m),
                            _ => None,
                        });
                        assert_eq!(fastest.min(), Some(n));
                        checked[0] += 1;
                    }
                    Proof::Loss(n) => {
                        assert!(listed.iter().all(|t| t.proof.is_loss()));
                        let slowest = listed.iter().filter_map(|t| match t.proof {
                            Proof::Loss(m) => Some(m),
                            _ => None,
                        });
                        assert_eq!(slowest.max(), Some(n));
                        checked[1] += 1;
                    }
                    Proof::Unknown => {
                        assert!(winners.is_empty());
                        assert!(!listed.iter().all(|t| t.proof.is_loss()));
                        checked[2] += 1;
                    }
                }
            }
        }
        println!("positions checked (won, lost, unknown): {checked:?}");
        assert!(
            checked.iter().sum::<i32>() >= 12,
            "positions checked: {checked:?}"
        );
        assert!(
            checked[0] >= 1 && checked[1] >= 1,
            "a proven win and a proven loss among them: {checked:?}"
        );
    }

    #[test]
    fn a_turn_the_mover_cannot_finish_loses() {
        // O's only step on e4 leaves it with steps to play and no cell to
        // step on: O loses, its side still to move (a shipped puzzle once
        // took that for a win).
        let p = virus_wars_rules::position_string::read(
            "5x5 steps=3,first=1,start=corners,end=standard XoxoO/oxxx1/ooxxx/oxxox/Xooxx o 3 16 XO 0",
        )
        .unwrap();
        let mut solver = Solver::new(1_000_000);
        let turns = solver.turns(&p, 1).unwrap();
        assert_eq!(turns.len(), 1, "{turns:?}");
        assert_eq!(turns[0].proof, Proof::Loss(1));
        assert_eq!(solver.prove(&p, 1), Ok(Proof::Loss(1)));
        assert_eq!(solver.winning_turns(&p, 3, 5).unwrap().0.len(), 0);
    }
}
