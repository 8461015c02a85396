//! One Dutch round, bracket by bracket (C.04.3 B–D). A bracket is a score
//! group with the players moved down to it (MDPs). Its candidates come in
//! the order of section D: the MDPs paired first (the highest first,
//! against the residents in the order of S2's transpositions), then the
//! remaining residents as a homogeneous bracket (S1 the first MaxPairs
//! players; S2's transpositions, then the exchanges between S1 and S2 in
//! D.2's order, each with its transpositions). Each candidate is measured
//! by the quality criteria (C5–C19, [`Quality`]); the first of the best
//! that leaves everyone below pairable (C4) is taken. The search stops
//! at a candidate nothing after it can beat, or after [`MOST_CANDIDATES`].

use super::ahead;
use super::colour::{self, Colour, Strength};
use super::{Float, Pairing, Round};

/// Whole candidates measured in one bracket, at most.
const MOST_CANDIDATES: usize = 40_000;
/// Candidates measured for one way of pairing the MDPs, at most: the
/// remainder's search gives way to the MDPs' next pairing (a remainder
/// with colour preferences no pairing meets is never unbeatable, and
/// would use up the bracket's whole budget on the MDPs' first pairing;
/// a smaller share left a 15-player remainder short of the candidate
/// that met every colour preference).
const MOST_FOR_ONE_MDP_PAIRING: usize = 12_000;
/// Steps of one search for S2's transpositions, at most.
const MOST_STEPS: usize = 2_000_000;
/// Steps of all those searches in one bracket, at most.
const MOST_STEPS_IN_ALL: usize = 20_000_000;
/// Exchanges of one size listed in one bracket, at most.
const MOST_EXCHANGES: usize = 20_000;

/// The whole round, or `None` where a bracket finds no candidate.
pub(super) fn pair_all(r: &Round, initial: Colour) -> Option<Pairing> {
    let n = r.by_rank.len();
    if !r.completable(&(0..n).collect::<Vec<_>>()) {
        return None;
    }
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for i in 0..n {
        match groups.last_mut() {
            Some(g) if r.by_rank[g[0]].score == r.by_rank[i].score => g.push(i),
            _ => groups.push(vec![i]),
        }
    }
    let mut pairs = Vec::new();
    let mut moved: Vec<usize> = Vec::new();
    for g in 0..groups.len() {
        let rest: Vec<usize> = groups[g + 1..].concat();
        let bracket = Bracket {
            r,
            mdps: &moved,
            residents: &groups[g],
            rest: &rest,
            next: groups.get(g + 1).map_or(&[], |n| n.as_slice()),
        };
        let best = bracket.pair()?;
        pairs.extend(best.pairs);
        moved = best.down;
    }
    let bye = match moved.as_slice() {
        [] => None,
        [b] => Some(r.by_rank[*b].tpn),
        _ => return None,
    };
    let mut pairs: Vec<(u32, u32)> = pairs
        .into_iter()
        .map(|(i, j)| colour::allocate(r.by_rank[i], r.by_rank[j], initial))
        .collect();
    pairs.sort_by_key(|&(w, b)| w.min(b));
    Some(Pairing { pairs, bye })
}

/// How good a candidate is, best first when compared (the criteria of B
/// in their order; lower is better in each).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Quality {
    /// C5: the most pairs (pairs missing from all the players paired).
    unpaired: usize,
    /// C6: the score differences of the pairs and of the players moved
    /// down (A.8), largest first.
    psd: Vec<u32>,
    /// C7: pairs missing in the following bracket (the players moved down
    /// with its residents), unless that bracket is the last.
    next_unpaired: usize,
    /// C7: then the PSD there.
    next_psd: Vec<u32>,
    /// C9: the games the bye's player did not play.
    bye_unplayed: u32,
    /// C8: topscorers (or their opponents) left beyond ±2 in colours.
    wide: u32,
    /// C9: topscorers (or their opponents) given a colour three times
    /// in a row.
    thrice: u32,
    /// C10: colour preferences not met.
    missed: u32,
    /// C11: strong colour preferences not met.
    strong_missed: u32,
    /// C12–C19: floats the same as one and two rounds before: how many,
    /// then their scores.
    floats: [u32; 8],
}

impl Quality {
    /// Nothing after this candidate in the bracket's order can beat it.
    fn unbeatable(&self) -> bool {
        self.next_unpaired == 0
            && self.bye_unplayed == 0
            && self.wide == 0
            && self.thrice == 0
            && self.missed == 0
            && self.strong_missed == 0
            && self.floats == [0; 8]
    }
}

struct Chosen {
    quality: Quality,
    pairs: Vec<(usize, usize)>,
    down: Vec<usize>,
}

struct Bracket<'r, 'a> {
    r: &'r Round<'a>,
    mdps: &'r [usize],
    residents: &'r [usize],
    /// The players of the brackets below.
    rest: &'r [usize],
    /// The residents of the next one (the first of `rest`).
    next: &'r [usize],
}

/// The search's state in one bracket.
struct Search {
    best: Option<Chosen>,
    candidates: usize,
    /// Candidates measured since the MDPs' pairing last changed, and
    /// how many each of their pairings may have (no limit without MDPs).
    for_this_mdp_pairing: usize,
    mdp_share: usize,
    /// The most pairs the bracket's players can make at all: a candidate
    /// with fewer may yet be beaten (C5) by one the order reaches later.
    most_pairs: usize,
    /// What is left of C7's budget for exact weighing.
    ahead_work: usize,
    /// C7 is weighed roughly in this bracket (the exact weighing's
    /// budget ran out, or its following bracket is too large).
    ahead_rough: bool,
    /// C7 for each set of players moved down, once measured.
    next_bracket: std::collections::HashMap<Vec<usize>, (usize, Vec<u32>)>,
    steps: usize,
    done: bool,
}

impl Search {
    /// The remainder has had its share, and a candidate is in hand.
    fn enough_for_this_mdp_pairing(&self) -> bool {
        self.for_this_mdp_pairing >= self.mdp_share && self.best.is_some()
    }
}

impl Bracket<'_, '_> {
    fn last(&self) -> bool {
        self.rest.is_empty()
    }

    fn pair(&self) -> Option<Chosen> {
        let mut s = Search {
            best: None,
            candidates: 0,
            for_this_mdp_pairing: 0,
            mdp_share: if self.mdps.is_empty() {
                usize::MAX
            } else {
                MOST_FOR_ONE_MDP_PAIRING
            },
            next_bracket: Default::default(),
            ahead_work: ahead::MOST_WORK,
            ahead_rough: false,
            most_pairs: {
                let mut all = self.mdps.to_vec();
                all.extend_from_slice(self.residents);
                self.r.most_pairs(&all)
            },
            steps: 0,
            done: false,
        };
        let most_mdps = self.r.most_across(self.mdps, self.residents);
        for m1 in (0..=most_mdps).rev() {
            let bound = m1 + (self.residents.len() - m1) / 2;
            if s.done || s.best.as_ref().is_some_and(|b| b.pairs.len() > bound) {
                break;
            }
            for s1 in combinations(self.mdps, m1) {
                let limbo: Vec<usize> = self
                    .mdps
                    .iter()
                    .copied()
                    .filter(|p| !s1.contains(p))
                    .collect();
                let mut steps = 0;
                transpositions(self.r, &s1, self.residents, &mut steps, &mut |sel| {
                    let remainder: Vec<usize> = self
                        .residents
                        .iter()
                        .copied()
                        .filter(|p| !sel.contains(p))
                        .collect();
                    let fixed: Vec<(usize, usize)> =
                        s1.iter().copied().zip(sel.iter().copied()).collect();
                    self.homogeneous(&mut s, &fixed, &limbo, &remainder);
                    !s.done
                });
                s.steps += steps;
                if s.done {
                    break;
                }
            }
        }
        s.best
    }

    /// The remainder's candidates, each with the MDPs' pairs `fixed` and
    /// the MDPs left in `limbo`.
    fn homogeneous(
        &self,
        s: &mut Search,
        fixed: &[(usize, usize)],
        limbo: &[usize],
        players: &[usize],
    ) {
        s.for_this_mdp_pairing = 0;
        let most = self.r.most_pairs(players);
        for n1 in (0..=most).rev() {
            if s.done
                || s.best
                    .as_ref()
                    .is_some_and(|b| b.pairs.len() > fixed.len() + n1)
            {
                return;
            }
            let (s1, s2) = players.split_at(n1);
            for (out, into) in exchanges(s1, s2, players) {
                let mut t1: Vec<usize> = s1
                    .iter()
                    .copied()
                    .filter(|p| !out.contains(p))
                    .chain(into.iter().copied())
                    .collect();
                let mut t2: Vec<usize> = s2
                    .iter()
                    .copied()
                    .filter(|p| !into.contains(p))
                    .chain(out.iter().copied())
                    .collect();
                t1.sort_unstable();
                t2.sort_unstable();
                let mut steps = 0;
                transpositions(self.r, &t1, &t2, &mut steps, &mut |sel| {
                    let mut pairs = fixed.to_vec();
                    pairs.extend(t1.iter().copied().zip(sel.iter().copied()));
                    let mut down: Vec<usize> = limbo.to_vec();
                    down.extend(t2.iter().copied().filter(|p| !sel.contains(p)));
                    down.sort_unstable();
                    self.consider(s, pairs, down);
                    !s.done && !s.enough_for_this_mdp_pairing()
                });
                s.steps += steps;
                if s.steps >= MOST_STEPS_IN_ALL || s.candidates >= 4 * MOST_CANDIDATES {
                    s.done = true;
                }
                if s.done || s.enough_for_this_mdp_pairing() {
                    return;
                }
            }
        }
    }

    fn consider(&self, s: &mut Search, mut pairs: Vec<(usize, usize)>, down: Vec<usize>) {
        s.candidates += 1;
        s.for_this_mdp_pairing += 1;
        if s.candidates >= MOST_CANDIDATES && s.best.is_some() {
            s.done = true;
        }
        if self.last() && down.len() > 1 {
            return;
        }
        for p in pairs.iter_mut() {
            if p.1 < p.0 {
                *p = (p.1, p.0);
            }
        }
        let mut quality = self.quality(&pairs, &down);
        if s.best.as_ref().is_some_and(|b| quality >= b.quality) {
            return;
        }
        // (Nothing later beats a candidate whose following bracket is
        // as good as it can be, and that is best by the rest.)
        let mut ahead_at_best = true;
        if self.looks_ahead() {
            (quality.next_unpaired, quality.next_psd) = self.next_bracket(s, &down);
            ahead_at_best = quality.next_psd == ahead::psd_at_best(self.r, &down, self.next);
        }
        if s.best.as_ref().is_some_and(|b| quality >= b.quality) {
            return;
        }
        let mut pool = down.clone();
        pool.extend_from_slice(self.rest);
        if !self.r.completable(&pool) {
            return;
        }
        s.done |= ahead_at_best && quality.unbeatable() && pairs.len() == s.most_pairs;
        s.best = Some(Chosen {
            quality,
            pairs,
            down,
        });
    }

    /// Whether C7 weighs this bracket's candidates: not for the bracket
    /// before the last one, nor the last one (there is no following
    /// bracket but the last, which C4 already keeps pairable).
    fn looks_ahead(&self) -> bool {
        !self.next.is_empty() && self.next.len() < self.rest.len()
    }

    /// C7 with `down` moved to the following bracket (`ahead.rs`), kept
    /// for each `down`: many candidates share one.
    fn next_bracket(&self, s: &mut Search, down: &[usize]) -> (usize, Vec<u32>) {
        if let Some(known) = s.next_bracket.get(down) {
            return known.clone();
        }
        let below = &self.rest[self.next.len()..];
        let exact = if s.ahead_rough {
            None
        } else {
            ahead::exactly(self.r, down, self.next, below, &mut s.ahead_work)
        };
        let measured = match exact {
            Some(m) => m,
            None => {
                if !s.ahead_rough {
                    // From here on every candidate is weighed roughly,
                    // the best so far again too: all alike.
                    s.ahead_rough = true;
                    s.next_bracket.clear();
                    if let Some(best) = s.best.as_mut() {
                        (best.quality.next_unpaired, best.quality.next_psd) =
                            ahead::roughly(self.r, &best.down, self.next, below);
                    }
                }
                ahead::roughly(self.r, down, self.next, below)
            }
        };
        s.next_bracket.insert(down.to_vec(), measured.clone());
        measured
    }

    fn quality(&self, pairs: &[(usize, usize)], down: &[usize]) -> Quality {
        let r = self.r;
        let score = |i: usize| r.by_rank[i].score;
        let lowest = self.residents.iter().map(|&i| score(i)).min().unwrap_or(0);
        let mut psd: Vec<u32> = pairs
            .iter()
            .map(|&(i, j)| score(i).abs_diff(score(j)))
            .collect();
        psd.extend(down.iter().map(|&i| score(i) + 2 - lowest));
        psd.sort_unstable_by(|a, b| b.cmp(a));
        let mut q = Quality {
            unpaired: r.by_rank.len() / 2 - pairs.len().min(r.by_rank.len() / 2),
            psd,
            next_unpaired: 0,
            next_psd: Vec::new(),
            bye_unplayed: 0,
            wide: 0,
            thrice: 0,
            missed: 0,
            strong_missed: 0,
            floats: [0; 8],
        };
        if self.last() {
            q.bye_unplayed = down.iter().map(|&i| r.by_rank[i].unplayed).sum();
        }
        for &(i, j) in pairs {
            let (pi, pj) = (r.prefs[i], r.prefs[j]);
            if pi.colour.is_some() && pi.colour == pj.colour {
                q.missed += 1;
                if pi.strength.min(pj.strength) >= Strength::Strong {
                    q.strong_missed += 1;
                }
            }
            if r.top[i] || r.top[j] {
                let (w, _) = colour::allocate(r.by_rank[i], r.by_rank[j], Colour::White);
                for (k, c) in [(i, Colour::White), (j, Colour::Black)] {
                    let c = if r.by_rank[i].tpn == w { c } else { c.other() };
                    let mut after = r.by_rank[k].colours.clone();
                    after.push(c);
                    q.wide += u32::from(colour::difference(&after).abs() > 2);
                    q.thrice += u32::from(
                        after.len() >= 3 && after[after.len() - 3..].iter().all(|x| *x == c),
                    );
                }
            }
        }
        for back in [1usize, 2] {
            let k = back - 1;
            for &i in down {
                if r.float_back(i, back) == Float::Down {
                    q.floats[2 * k] += 1;
                    q.floats[4 + 2 * k] += score(i);
                }
            }
            for &(i, j) in pairs {
                let (lo, hi) = if score(i) < score(j) { (i, j) } else { (j, i) };
                if score(lo) < score(hi) && r.float_back(lo, back) == Float::Up {
                    q.floats[2 * k + 1] += 1;
                    q.floats[4 + 2 * k + 1] += score(hi);
                }
            }
        }
        q
    }
}

/// The `k`-element subsets of `items`, in lexicographic order of place.
fn combinations(items: &[usize], k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut pick: Vec<usize> = (0..k).collect();
    if k > items.len() {
        return out;
    }
    loop {
        out.push(pick.iter().map(|&i| items[i]).collect());
        let Some(at) = (0..k).rev().find(|&i| pick[i] < items.len() - k + i) else {
            return out;
        };
        pick[at] += 1;
        for i in at + 1..k {
            pick[i] = pick[i - 1] + 1;
        }
    }
}

/// S2's transpositions against `s1` (D.1): each ordered choice of
/// `s1.len()` players of `s2` in lexicographic order, those with a pair
/// that may not meet left out. `each` returns whether to go on.
fn transpositions(
    r: &Round,
    s1: &[usize],
    s2: &[usize],
    steps: &mut usize,
    each: &mut dyn FnMut(&[usize]) -> bool,
) {
    fn go(
        r: &Round,
        s1: &[usize],
        s2: &[usize],
        used: &mut Vec<bool>,
        sel: &mut Vec<usize>,
        steps: &mut usize,
        each: &mut dyn FnMut(&[usize]) -> bool,
    ) -> bool {
        if sel.len() == s1.len() {
            return each(sel);
        }
        for k in 0..s2.len() {
            *steps += 1;
            if *steps > MOST_STEPS {
                return false;
            }
            if used[k] || !r.may_meet(s1[sel.len()], s2[k]) {
                continue;
            }
            used[k] = true;
            sel.push(s2[k]);
            let more = go(r, s1, s2, used, sel, steps, each);
            sel.pop();
            used[k] = false;
            if !more {
                return false;
            }
        }
        true
    }
    let mut used = vec![false; s2.len()];
    go(r, s1, s2, &mut used, &mut Vec::new(), steps, each);
}

/// The exchanges between S1 and S2 in D.2's order, as (the players moved
/// out of S1, those moved into it), none first: fewer players exchanged
/// first; then the smallest difference of the sums of the bracket numbers
/// moved; then the highest number moved out of S1; then the lowest moved
/// into it. `players` gives the bracket numbers.
fn exchanges(s1: &[usize], s2: &[usize], players: &[usize]) -> Vec<(Vec<usize>, Vec<usize>)> {
    let bsn = |p: usize| players.iter().position(|&q| q == p).unwrap_or(0);
    let mut out = vec![(Vec::new(), Vec::new())];
    for k in 1..=s1.len().min(s2.len()) {
        let (ins, outs) = (combinations(s2, k), combinations(s1, k));
        if ins.len().saturating_mul(outs.len()) > MOST_EXCHANGES {
            break;
        }
        let mut level = Vec::new();
        for o in &outs {
            for i in &ins {
                let diff = i.iter().map(|&p| bsn(p)).sum::<usize>()
                    - o.iter().map(|&p| bsn(p)).sum::<usize>();
                let out_desc: Vec<usize> = o.iter().rev().map(|&p| bsn(p)).collect();
                let in_asc: Vec<usize> = i.iter().map(|&p| bsn(p)).collect();
                level.push((
                    diff,
                    std::cmp::Reverse(out_desc),
                    in_asc,
                    o.clone(),
                    i.clone(),
                ));
            }
        }
        level.sort_by(|a, b| (a.0, &a.1, &a.2).cmp(&(b.0, &b.1, &b.2)));
        out.extend(level.into_iter().map(|(_, _, _, o, i)| (o, i)));
    }
    out
}
