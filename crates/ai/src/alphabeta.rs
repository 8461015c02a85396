//! Alpha-beta (negamax) over steps: iterative deepening under the budget, a
//! transposition table on the Zobrist hash, step ordering (table step, kills,
//! history), win/loss scores adjusted by distance, and a stop at a proven
//! result. Every step is searched (no beam), so proven results are sound.
//!
//! A turn has several steps by the same side, so the sign flips only when
//! the side to step changes.

use std::time::Instant;

use virus_wars_rules::{with_position, AnyPosition, Position, Step};

use crate::budget::Budget;
use crate::eval::{evaluate, Weights};
use crate::player::Player;
use crate::score::{self, INFINITY};
use crate::search::{SearchInfo, SearchResult, Spent, StopFlag};
use crate::tt::{Bound, TranspositionTable, PASS};

/// Deepest iteration ever started.
const MAX_DEPTH: u32 = 64;

pub struct AlphaBeta {
    pub weights: Weights,
    table: TranspositionTable,
    /// Cut-off counts per side and cell: quiet steps that refuted before are tried first.
    history: Vec<[u32; 2]>,
}

impl AlphaBeta {
    pub fn new(table_megabytes: usize) -> AlphaBeta {
        AlphaBeta {
            weights: Weights::TUNED,
            table: TranspositionTable::with_megabytes(table_megabytes),
            history: vec![[0; 2]; 384],
        }
    }
}

/// State of one search call.
struct Run<'a> {
    weights: Weights,
    table: &'a mut TranspositionTable,
    history: &'a mut [[u32; 2]],
    spent: Spent<'a>,
}

impl Run<'_> {
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
            return evaluate(p, &self.weights);
        }
        let key = p.hash();
        let mut table_step = None;
        if let Some(e) = self.table.probe(key, ply) {
            table_step = e.step();
            if e.depth as u32 >= depth && ply > 0 {
                match e.bound {
                    Bound::Exact => return e.score,
                    Bound::Lower if e.score >= beta => return e.score,
                    Bound::Upper if e.score <= alpha => return e.score,
                    _ => {}
                }
            }
        }
        let steps = self.ordered_steps(p, table_step);
        let alpha_start = alpha;
        let mut best = (-INFINITY, steps[0]);
        for &code in &steps {
            let mut q = *p;
            if code == PASS {
                q.pass_unchecked();
            } else {
                q.play_unchecked(code as usize);
            }
            let score = if q.side() == p.side() {
                self.negamax(&q, depth - 1, alpha, beta, ply + 1)
            } else {
                -self.negamax(&q, depth - 1, -beta, -alpha, ply + 1)
            };
            if self.spent.stopped {
                return 0;
            }
            if score > best.0 {
                best = (score, code);
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        if code != PASS {
                            let h = &mut self.history[code as usize][p.side().index()];
                            *h = h.saturating_add(depth * depth);
                        }
                        break;
                    }
                }
            }
        }
        let bound = if best.0 >= beta {
            Bound::Lower
        } else if best.0 > alpha_start {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.table
            .store(key, ply, depth, best.0, bound, Some(best.1));
        best.0
    }

    /// Legal steps as codes: the table's step, then kills, then by history.
    fn ordered_steps<const N: usize>(&self, p: &Position<N>, first: Option<u16>) -> Vec<u16> {
        let side = p.side().index();
        let kills = p.legal_cells() & p.viruses(!p.side());
        let mut keyed: Vec<(u32, u16)> = p
            .legal_cells()
            .iter()
            .map(|i| {
                let rank = if Some(i as u16) == first {
                    u32::MAX
                } else if kills.contains(i) {
                    u32::MAX - 1
                } else {
                    self.history[i][side].min(u32::MAX - 2)
                };
                (rank, i as u16)
            })
            .collect();
        if p.can_pass() {
            keyed.push((if first == Some(PASS) { u32::MAX } else { 0 }, PASS));
        }
        keyed.sort_unstable_by(|a, b| b.cmp(a));
        keyed.into_iter().map(|(_, c)| c).collect()
    }
}

fn decode<const N: usize>(p: &Position<N>, code: u16) -> Step {
    if code == PASS {
        Step::Pass
    } else {
        Step::Cell(p.geometry().cell(code as usize))
    }
}

/// The line the table holds from `p`, up to `len` steps.
fn principal_variation<const N: usize>(
    table: &TranspositionTable,
    p: &Position<N>,
    len: u32,
) -> Vec<Step> {
    let mut line = Vec::new();
    let mut q = *p;
    while (line.len() as u32) < len && q.outcome().is_none() {
        let Some(code) = table.probe(q.hash(), 0).and_then(|e| e.step()) else {
            break;
        };
        let step = decode(&q, code);
        if q.check_step(step).is_err() {
            break;
        }
        q.play(step).expect("checked");
        line.push(step);
    }
    line
}

impl AlphaBeta {
    /// Iterative deepening from `p`; reports each finished iteration.
    fn search<const N: usize>(
        &mut self,
        p: &Position<N>,
        budget: &Budget,
        start: Instant,
        nodes_used: u64,
        stop: &StopFlag,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> Option<SearchInfo> {
        let mut run = Run {
            weights: self.weights,
            table: &mut self.table,
            history: &mut self.history,
            spent: Spent::new(budget, start, nodes_used, stop, 1024),
        };
        let max_depth = budget.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let mut last: Option<SearchInfo> = None;
        for depth in 1..=max_depth {
            let score = run.negamax(p, depth, -INFINITY, INFINITY, 0);
            if run.spent.stopped && last.is_some() {
                break;
            }
            let report = SearchInfo {
                depth,
                score,
                nodes: run.spent.nodes,
                elapsed: start.elapsed(),
                pv: principal_variation(run.table, p, depth),
            };
            info(&report);
            let proven = score::is_proven(score);
            last = Some(report);
            if run.spent.stopped || proven {
                break;
            }
            // Do not start an iteration after half the time is gone: it would
            // rarely finish. One that runs out is cut off and its partial
            // result dropped.
            if let Some(d) = run.spent.deadline {
                if Instant::now() >= start + (d - start) / 2 {
                    break;
                }
            }
        }
        last
    }
}

impl Player for AlphaBeta {
    fn name(&self) -> String {
        "alphabeta".into()
    }

    fn choose(
        &mut self,
        p: &AnyPosition,
        budget: &Budget,
        stop: &StopFlag,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let start = Instant::now();
        let mut pos = *p;
        let (side, turn) = (p.side(), p.turn());
        let mut steps = Vec::new();
        let mut last_info = None;
        // One search usually yields the whole turn; if it ends early (small
        // budget), search again from where its line stops.
        while pos.outcome().is_none() && pos.side() == side && pos.turn() == turn {
            let used = last_info.as_ref().map_or(0, |i: &SearchInfo| i.nodes);
            let report = with_position!(&pos, q => self.search(q, budget, start, used, stop, info));
            let Some(report) = report else { break };
            let mut played = 0;
            for &step in &report.pv {
                if pos.side() != side || pos.turn() != turn || pos.play(step).is_err() {
                    break;
                }
                steps.push(step);
                played += 1;
            }
            if played == 0 {
                // No line (the search was stopped at once): any legal step.
                let Some(&step) = pos.legal_steps().first() else {
                    break;
                };
                pos.play(step).expect("legal");
                steps.push(step);
            }
            last_info = Some(report);
        }
        SearchResult {
            steps,
            info: last_info,
        }
    }

    fn new_game(&mut self) {
        self.table.clear();
        self.history.iter_mut().for_each(|h| *h = [0; 2]);
    }
}
