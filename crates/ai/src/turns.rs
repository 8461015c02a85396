//! Whole-turn search: the sparring partner modelled on the strongest public
//! bot for small boards (korobkov's 8×8). Its nodes are whole turns, not
//! steps: every unordered set of cells the mover can take this turn (the
//! same cells in another order give the same position, so each set is
//! searched once), ordered by a quick evaluation, only the `width` best
//! searched further; iterative-deepening negamax with alpha-beta and a
//! transposition table on the Zobrist hash; and as the evaluation the
//! difference in active cells (the cells each side could step on).
//!
//! Spec: `turns:time=3s,width=30,hash=64`.

use std::collections::{HashMap, HashSet};
use std::time::Instant;

use virus_wars_rules::{with_position, AnyPosition, Outcome, Position, Side, Step};

use crate::budget::Budget;
use crate::player::Player;
use crate::score::{self, INFINITY};
use crate::search::{SearchInfo, SearchResult, Spent, StopFlag};
use crate::tt::Bound;

/// Deepest iteration, in turns.
const MAX_DEPTH: u32 = 32;
/// Bytes a table entry takes, roughly (key, entry, the map's overhead).
const ENTRY_BYTES: usize = 64;

/// One turn: its steps in an order that plays, and the position after it.
pub(crate) struct Turn<const N: usize> {
    pub steps: Vec<Step>,
    pub after: Position<N>,
}

#[derive(Clone, Copy)]
struct Entry {
    depth: u32,
    score: i32,
    bound: Bound,
    /// The hash of the position after the best turn found here.
    best: u64,
}

pub struct TurnSearch {
    /// Turns searched further at each node, after the quick evaluation.
    pub width: usize,
    table: HashMap<u64, Entry>,
    capacity: usize,
}

impl TurnSearch {
    pub fn new(width: usize, hash_mb: usize) -> TurnSearch {
        TurnSearch {
            width: width.max(1),
            table: HashMap::new(),
            capacity: (hash_mb.max(1) << 20) / ENTRY_BYTES,
        }
    }
}

/// A walk through the positions part-way through a turn: a frame is a
/// position and the steps from it still to try (taken from the end).
struct Frame<const N: usize> {
    at: Position<N>,
    next: Vec<Step>,
}

/// How an enumeration of turns ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Walk {
    /// Every turn was handed over.
    Whole,
    /// Stopped early: `go_on` said so, or `max_positions` were reached.
    Cut,
}

/// Hands every distinct turn from `p` (the rest of the current turn when
/// it has begun) to `visit`: each set of cells once, a pass as a turn of
/// its own. The walk is depth first and keeps one frame a step of the
/// turn, so its memory is the turn's length times the board, plus the
/// set of positions seen (at most `max_positions`). Every 64 positions
/// expanded, once a turn has been found, it asks `go_on` whether to go
/// on (a deadline, a stop flag).
pub(crate) fn each_turn<const N: usize>(
    p: &Position<N>,
    max_positions: usize,
    go_on: &mut dyn FnMut() -> bool,
    visit: &mut dyn FnMut(Turn<N>),
) -> Walk {
    let (side, turn) = (p.side(), p.turn());
    // Positions reached part-way through the turn, and at its end: a set
    // of cells reached in another order is the same position.
    let mut seen = HashSet::new();
    let expand = |q: &Position<N>, seen: &mut HashSet<u64>| Frame {
        at: *q,
        next: q
            .legal_steps()
            .into_iter()
            .filter(|&step| {
                let mut next = *q;
                next.play(step).is_ok() && seen.insert(next.hash())
            })
            .collect(),
    };
    let mut stack = vec![expand(p, &mut seen)];
    let mut path: Vec<Step> = Vec::new();
    let (mut expanded, mut found) = (0u64, false);
    while let Some(frame) = stack.last_mut() {
        let Some(step) = frame.next.pop() else {
            stack.pop();
            path.pop();
            continue;
        };
        let mut q = frame.at;
        if q.play(step).is_err() {
            continue;
        }
        path.push(step);
        let over = q.outcome().is_some() || q.side() != side || q.turn() != turn;
        if over {
            visit(Turn {
                steps: path.clone(),
                after: q,
            });
            found = true;
            path.pop();
            continue;
        }
        expanded += 1;
        if found && (seen.len() >= max_positions || (expanded % 64 == 0 && !go_on())) {
            return Walk::Cut;
        }
        stack.push(expand(&q, &mut seen));
    }
    Walk::Whole
}

/// Hands the steps of every distinct turn from `p` to `visit`.
pub(crate) fn for_each_turn(p: &AnyPosition, visit: &mut dyn FnMut(&[Step])) {
    with_position!(p, q => {
        each_turn(q, usize::MAX, &mut || true, &mut |t| visit(&t.steps));
    });
}

/// Every distinct turn from `p`, in the walk's order.
#[cfg(test)]
fn turns<const N: usize>(p: &Position<N>) -> Vec<Turn<N>> {
    let mut out = Vec::new();
    each_turn(p, usize::MAX, &mut || true, &mut |t| out.push(t));
    out
}

/// Active cells: those the side to move could step on, less the other
/// side's, from the point of view of the side to move.
fn evaluate<const N: usize>(p: &Position<N>) -> i32 {
    let me = p.side();
    p.reach(me).count() as i32 - p.reach(!me).count() as i32
}

/// State of one search call.
struct Run<'a> {
    width: usize,
    table: &'a mut HashMap<u64, Entry>,
    capacity: usize,
    spent: Spent<'a>,
}

impl Run<'_> {
    /// The value for `mover` of the position `after` its turn: a turn
    /// hands the move to the other side (its value negated), or ends the
    /// game, scored for the mover (who may have lost, stuck mid-turn).
    fn after_turn<const N: usize>(
        &mut self,
        mover: Side,
        after: &Position<N>,
        depth: u32,
        alpha: i32,
        beta: i32,
        ply: u32,
    ) -> i32 {
        match after.outcome() {
            Some(o) => score::ended(o, mover, ply),
            None => -self.negamax(after, depth, -beta, -alpha, ply),
        }
    }

    /// The value of `p` for its side to move, `depth` turns deep; `ply`
    /// counts turns from the root (a nearer win scores higher).
    fn negamax<const N: usize>(
        &mut self,
        p: &Position<N>,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        ply: u32,
    ) -> i32 {
        if let Some(v) = self.spent.enter(p, ply) {
            return v;
        }
        if depth == 0 {
            return evaluate(p);
        }
        let key = p.hash();
        let hint = self.table.get(&key).copied();
        if let Some(e) = hint {
            if e.depth >= depth && e.bound.answers(e.score, alpha, beta) {
                return e.score;
            }
        }
        let children = self.ordered(p, hint.map(|e| e.best));
        if self.spent.stopped {
            // The walk was cut: what it found is not every turn.
            return 0;
        }
        let start_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_hash = 0;
        for child in &children {
            let v = self.after_turn(p.side(), &child.after, depth - 1, alpha, beta, ply + 1);
            if self.spent.stopped {
                return best.max(v);
            }
            if v > best {
                best = v;
                best_hash = child.after.hash();
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        let bound = Bound::of(best, start_alpha, beta);
        if self.table.len() >= self.capacity {
            self.table.clear();
        }
        self.table.insert(
            key,
            Entry {
                depth,
                score: best,
                bound,
                best: best_hash,
            },
        );
        best
    }

    /// The turns from `p` worth searching: the table's best first, then
    /// by the quick evaluation, at most `width` of them (in the order of a
    /// stable sort of every turn, ties in the walk's order). Holds at most
    /// twice `width` turns at a time; a walk cut by the clock or the stop
    /// flag leaves `spent.stopped` set.
    fn ordered<const N: usize>(&mut self, p: &Position<N>, best: Option<u64>) -> Vec<Turn<N>> {
        let width = self.width;
        let mut kept: Vec<(i32, Turn<N>)> = Vec::new();
        let keep_best = |kept: &mut Vec<(i32, Turn<N>)>| {
            kept.sort_by_key(|a| std::cmp::Reverse(a.0));
            kept.truncate(width);
        };
        let spent = &mut self.spent;
        each_turn(
            p,
            self.capacity,
            &mut || !spent.clock_says_stop(),
            &mut |t| {
                let quick = match t.after.outcome() {
                    Some(Outcome::Win(s)) if s == p.side() => INFINITY,
                    Some(Outcome::Win(_)) => -INFINITY,
                    Some(Outcome::Draw) => 0,
                    None => -evaluate(&t.after),
                };
                let first = best.is_some_and(|h| h == t.after.hash());
                kept.push((if first { INFINITY + 1 } else { quick }, t));
                if kept.len() >= 2 * width.max(16) {
                    keep_best(&mut kept);
                }
            },
        );
        keep_best(&mut kept);
        kept.into_iter().map(|(_, t)| t).collect()
    }
}

impl TurnSearch {
    fn search<const N: usize>(
        &mut self,
        p: &Position<N>,
        budget: &Budget,
        stop: &StopFlag,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> (Vec<Step>, Option<SearchInfo>) {
        let start = Instant::now();
        let mut run = Run {
            width: self.width,
            table: &mut self.table,
            capacity: self.capacity,
            spent: Spent::new(budget, start, 0, stop, 64),
        };
        let root = run.ordered(p, None);
        let Some(first) = root.first() else {
            return (Vec::new(), None);
        };
        let mut chosen = first.steps.clone();
        let mut last = None;
        let max_depth = budget.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        for depth in 1..=max_depth {
            let mut alpha = -INFINITY;
            let mut best: Option<(i32, &Turn<N>)> = None;
            // The last iteration's choice first.
            let mut order: Vec<&Turn<N>> = root.iter().collect();
            if let Some(k) = order.iter().position(|t| t.steps == chosen) {
                let t = order.remove(k);
                order.insert(0, t);
            }
            for t in order {
                let v = run.after_turn(p.side(), &t.after, depth - 1, alpha, INFINITY, 1);
                if run.spent.stopped {
                    break;
                }
                if best.is_none_or(|(b, _)| v > b) {
                    best = Some((v, t));
                }
                alpha = alpha.max(v);
            }
            // A stopped iteration counts only when its first (the last
            // iteration's best) turn was searched whole.
            let Some((score, turn)) = best else { break };
            chosen = turn.steps.clone();
            let report = SearchInfo {
                depth,
                score,
                nodes: run.spent.nodes,
                elapsed: start.elapsed(),
                pv: chosen.clone(),
            };
            info(&report);
            last = Some(report);
            if run.spent.stopped || score::is_proven(score) {
                break;
            }
            if let Some(d) = run.spent.deadline {
                // An iteration takes several times the last: do not start
                // one after half the time is gone.
                if Instant::now() + (d - start) / 2 >= d {
                    break;
                }
            }
        }
        (chosen, last)
    }
}

impl Player for TurnSearch {
    fn name(&self) -> String {
        "turns".into()
    }

    fn choose(
        &mut self,
        p: &AnyPosition,
        budget: &Budget,
        stop: &StopFlag,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let (steps, info) = with_position!(p, q => self.search(q, budget, stop, info));
        SearchResult { steps, info }
    }

    fn new_game(&mut self) {
        self.table.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::self_play;
    use virus_wars_rules::{position_string, Preset};

    fn start(preset: Preset) -> AnyPosition {
        preset.variant().start().unwrap()
    }

    #[test]
    fn each_set_of_cells_is_one_turn() {
        // X's first turn on korobkov's board: every turn is a distinct
        // position, and each plays from the start to the same position.
        let p = start(Preset::Korobkov);
        with_position!(&p, q => {
            let all = turns(q);
            assert!(all.len() > 1);
            let mut hashes = HashSet::new();
            for t in &all {
                assert!(hashes.insert(t.after.hash()), "{:?} twice", t.steps);
                let mut r = *q;
                for &s in &t.steps {
                    r.play(s).unwrap();
                }
                assert_eq!(r.hash(), t.after.hash());
                assert_ne!(r.side(), q.side(), "a whole turn hands the move over");
            }
        });
    }

    #[test]
    fn a_walk_stops_at_its_cap_and_when_told() {
        // 19×19 with 10 steps a turn: far more turns than anyone can list.
        let mut o = virus_wars_rules::VariantOptions::default();
        for (k, v) in [("size", "19x19"), ("steps", "10"), ("first", "10")] {
            o.set(k, v).unwrap();
        }
        let p = o.build().unwrap().start().unwrap();
        with_position!(&p, q => {
            let mut found = 0;
            let walk = each_turn(q, 5_000, &mut || true, &mut |_| found += 1);
            assert_eq!(walk, Walk::Cut);
            assert!(found > 0, "at least one turn before it stops");
            let mut asked = 0;
            let mut found = 0;
            let walk = each_turn(q, usize::MAX, &mut || { asked += 1; asked < 3 }, &mut |_| found += 1);
            assert_eq!((walk, asked), (Walk::Cut, 3));
            assert!(found > 0);
        });
    }

    #[test]
    fn the_kept_turns_are_those_of_a_sort_of_all() {
        // Bounded keeping gives the order of a stable sort of every turn.
        let p = start(Preset::Korobkov);
        with_position!(&p, q => {
            let all = turns(q);
            let mut scored: Vec<(i32, u64)> = all
                .iter()
                .map(|t| (-evaluate(&t.after), t.after.hash()))
                .collect();
            scored.sort_by_key(|s| std::cmp::Reverse(s.0));
            for width in [1, 3, 17, 40, all.len() + 5] {
                let stop = StopFlag::new();
                let mut table = HashMap::new();
                let mut run = Run {
                    width,
                    table: &mut table,
                    capacity: 1 << 20,
                    spent: Spent::new(&Budget::default(), Instant::now(), 0, &stop, 64),
                };
                let kept: Vec<u64> = run.ordered(q, None).iter().map(|t| t.after.hash()).collect();
                let want: Vec<u64> = scored.iter().take(width).map(|s| s.1).collect();
                assert_eq!(kept, want, "width {width}");
            }
        });
    }

    #[test]
    fn plays_whole_legal_turns_to_the_end_of_a_game() {
        let mut player = TurnSearch::new(8, 4);
        let p = self_play(&mut player, start(Preset::Korobkov), &Budget::depth(2), 200);
        assert!(p.outcome().is_some(), "the game ends");
    }

    #[test]
    fn takes_a_win_in_one_turn() {
        // O has one live virus left, two steps from X's zombie chain: X
        // reaches it, kills it and wins.
        let p = position_string::read(
            "5x5 steps=3,first=3,start=corner-entry,end=standard oo2O/o4/2x2/1x3/X4 x 3 5 XO 0",
        )
        .unwrap();
        let mut player = TurnSearch::new(30, 4);
        let r = player.choose(&p, &Budget::depth(3), &StopFlag::new(), &mut |_| {});
        let q = r
            .steps
            .iter()
            .fold(p, |mut q, s| q.play(*s).map(|_| q).unwrap());
        assert_eq!(
            q.outcome(),
            Some(Outcome::Win(virus_wars_rules::Side::X)),
            "{:?}",
            r.steps
        );
    }
}
