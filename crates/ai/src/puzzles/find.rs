//! Finding puzzles in a game: at each position that starts a turn (from
//! the end back), the exact solver lists every turn; a position where
//! exactly one turn is proven to win, and every other is proven to lose
//! or judged at least [`ONLY_MOVE_MARGIN`] below it, is a puzzle. Its
//! solution goes on with the other side's best reply (the one that holds
//! out longest) while the mover again has exactly one winning turn.

use std::collections::HashSet;

use virus_wars_rules::{AnyPosition, Game, Side, Step};

use super::{canonical_hash, first_rating, Puzzle, Theme};
use crate::budget::Budget;
use crate::player::Player;
use crate::review::Judged;
use crate::search::StopFlag;
use crate::solve::Solver;

/// Playouts of the quick judge.
const QUICK_PLAYOUTS: u64 = 200;

/// The only-move rule (lichess-puzzler's): the winning turn's chance at
/// least this much above the second best's.
pub const ONLY_MOVE_MARGIN: f64 = 0.7;

/// How a finder looks.
#[derive(Clone, Debug)]
pub struct FinderConfig {
    /// Turns the solver looks ahead (the mover's first turn counted).
    pub depth: u32,
    /// Positions the solver may look at for one position.
    pub node_limit: u64,
    /// Positions that start a turn looked at, counted back from the end.
    pub last_turns: usize,
    /// Positions looked at beside each of the game's: after as many
    /// other turns of its mover, chosen at random (seeded by the position),
    /// where a slip may have left the other side one winning turn.
    pub siblings: usize,
    /// Most boards cells for the exact solver.
    pub max_cells: usize,
    /// Most turns not decided by the solver for one position (each is
    /// judged; more: the position is passed over).
    pub max_undecided: usize,
}

impl Default for FinderConfig {
    fn default() -> Self {
        FinderConfig {
            depth: 3,
            node_limit: 2_000_000,
            last_turns: 8,
            siblings: 3,
            max_cells: 36,
            max_undecided: 400,
        }
    }
}

/// Finds puzzles, remembering the positions it has given (up to symmetry).
pub struct Finder {
    pub config: FinderConfig,
    solver: Solver,
    seen: HashSet<u64>,
    /// Judges the turns the solver leaves undecided: quickly, then the
    /// best of them deeper.
    quick: Box<dyn Player>,
    quick_budget: Budget,
    judge: Box<dyn Player>,
    judge_budget: Budget,
}

impl Finder {
    pub fn new(config: FinderConfig, judge: Box<dyn Player>, judge_budget: Budget) -> Finder {
        let (quick, quick_budget) = crate::spec::PlayerSpec::Mcts {
            budget: Budget::nodes(QUICK_PLAYOUTS),
            config: crate::mcts::MctsConfig {
                threads: 1,
                ..crate::mcts::MctsConfig::default()
            },
            noise: 0.0,
        }
        .build();
        Finder {
            quick,
            quick_budget,
            solver: Solver::new(config.node_limit),
            config,
            seen: HashSet::new(),
            judge,
            judge_budget,
        }
    }

    /// Remembers a position given before (a set being extended).
    pub fn seen(&mut self, id: u64) {
        self.seen.insert(id);
    }

    /// The puzzle at `p`, if it is one and was not given before.
    pub fn puzzle_at(&mut self, p: &AnyPosition) -> Option<Puzzle> {
        if p.outcome().is_some()
            || p.width() as usize * p.height() as usize > self.config.max_cells
            || !p.at_turn_start()
        {
            return None;
        }
        let id = canonical_hash(p);
        if self.seen.contains(&id) {
            return None;
        }
        // A position the mover does not win within the depth is no puzzle:
        // the search with cut-offs says so at a fraction of listing every turn.
        if !self.solver.prove(p, self.config.depth).ok()?.is_win() {
            return None;
        }
        let (win, choices) = self.only_win(p)?;
        let mut solution = vec![win.clone()];
        let mut at = after(p, &win)?;
        // The engine's reply, then the mover's only win again.
        while at.outcome().is_none() {
            let r = self
                .judge
                .choose(&at, &self.judge_budget, &StopFlag::new(), &mut |_| {});
            let next = after(&at, &r.steps)?;
            if next.outcome().is_some() || next.side() == at.side() {
                break;
            }
            let Ok((winners, _)) = self.solver.winning_turns(&next, self.config.depth, 2) else {
                break;
            };
            if winners.len() != 1 {
                // The win is certain and no longer needs finding: stop.
                break;
            }
            solution.push(r.steps);
            solution.push(winners[0].clone());
            at = after(&next, &winners[0])?;
        }
        self.seen.insert(id);
        let mover_turns = solution.len().div_ceil(2);
        Some(Puzzle {
            id: format!("{id:016x}"),
            position: *p,
            themes: Theme::of_turn(p, &solution[0]),
            solution,
            rating: first_rating(choices, mover_turns),
        })
    }

    /// The one winning turn from `p` and how many turns there were, if
    /// exactly one is proven to win and every other is judged at least
    /// [`ONLY_MOVE_MARGIN`] worse for the mover: each quickly, the best of
    /// them again, deeper.
    fn only_win(&mut self, p: &AnyPosition) -> Option<(Vec<Step>, usize)> {
        let (winners, count) = self.solver.winning_turns(p, self.config.depth, 2).ok()?;
        if winners.len() != 1 || count < 2 || count > self.config.max_undecided {
            return None;
        }
        let win = winners[0].clone();
        let most = 1.0 - ONLY_MOVE_MARGIN;
        let mut quick: Vec<(f64, AnyPosition)> = Vec::with_capacity(count);
        let mut others = Vec::new();
        crate::turns::for_each_turn(p, &mut |steps| others.push(steps.to_vec()));
        // The same cells in another order are the same turn.
        let won = after(p, &win)?.hash();
        for steps in others {
            let q = after(p, &steps)?;
            if q.hash() == won {
                continue;
            }
            let chance = mover_chance(&mut *self.quick, &self.quick_budget, &q, p.side());
            if chance > most + QUICK_SLACK {
                return None;
            }
            quick.push((chance, q));
        }
        quick.sort_by(|a, b| b.0.total_cmp(&a.0));
        for (_, q) in quick.iter().take(DEEPER) {
            if mover_chance(&mut *self.judge, &self.judge_budget, q, p.side()) > most {
                return None;
            }
        }
        Some((win, count))
    }
}

/// What the quick judge may say above 1 − margin before the deeper judge
/// is asked (it errs).
const QUICK_SLACK: f64 = 0.1;
/// The undecided turns the quick judge likes best, judged again deeper.
const DEEPER: usize = 3;

/// `side`'s chance to win at `q` (the other side to move), by `judge`.
fn mover_chance(judge: &mut dyn Player, budget: &Budget, q: &AnyPosition, side: Side) -> f64 {
    let r = judge.choose(q, budget, &StopFlag::new(), &mut |_| {});
    let x = Judged::searched(q, r).x_win;
    if side == Side::X {
        x
    } else {
        1.0 - x
    }
}

/// The position after the turn `steps` from `p`.
fn after(p: &AnyPosition, steps: &[Step]) -> Option<AnyPosition> {
    let mut q = *p;
    for &s in steps {
        q.play(s).ok()?;
    }
    Some(q)
}

/// The puzzles in `game`: its positions that start a turn, the last
/// `finder.config.last_turns` of them, newest first, and beside each
/// the positions after `finder.config.siblings` random turns from it.
pub fn find_in_game(finder: &mut Finder, game: &Game) -> Vec<Puzzle> {
    let starts = crate::review::turn_starts(game);
    let mut out = Vec::new();
    for p in starts.iter().rev().take(finder.config.last_turns + 1) {
        out.extend(finder.puzzle_at(p));
        for k in 0..finder.config.siblings {
            if let Some(q) = random_turn(p, k as u64) {
                out.extend(finder.puzzle_at(&q));
            }
        }
    }
    out
}

/// The position after a random whole turn from `p`, its steps chosen by
/// a generator seeded with `p`'s hash and `k`.
fn random_turn(p: &AnyPosition, k: u64) -> Option<AnyPosition> {
    if p.outcome().is_some() {
        return None;
    }
    let mut state = p.hash() ^ (k + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let mut q = *p;
    let side = p.side();
    while q.outcome().is_none() && q.side() == side {
        let steps = q.legal_steps();
        if steps.is_empty() {
            return None;
        }
        // SplitMix64.
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        q.play(steps[(z % steps.len() as u64) as usize]).ok()?;
    }
    Some(q)
}
