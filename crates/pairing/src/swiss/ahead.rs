//! C7, one bracket ahead: how a bracket's downfloaters leave the
//! following bracket (the players moved down with its residents): first
//! the most pairs it can make, where they leave the brackets below it
//! pairable (C4 comes first), then the least score differences (PSD)
//! there. A small following bracket is weighed exactly (which of its
//! players are paired outside it, the fewest first); a large one by a
//! maximum matching, counted as pairing nobody where that matching leaves
//! the brackets below unpairable.

use super::Round;

/// Players in a following bracket weighed exactly, at most.
const EXACT_UP_TO: usize = 16;
/// Ways of pairing some of them outside it tried, at most.
const MOST_TRIES: usize = 4_000;
/// The exact weighing's work in one bracket, at most (each try costs the
/// cube of the players it checks for completion, as a matching does);
/// past it, brackets
/// are weighed roughly, so that a large tournament's pairing stays
/// bounded in time whatever its history.
pub(super) const MOST_WORK: usize = 2_000_000_000;

/// The pairs missing in the following bracket with `down` moved into
/// `next` (its residents), `below` the brackets after it; then its PSD
/// (in halves, largest first): exactly where it is small and `work` (what
/// is left of [`MOST_WORK`]) lasts, else `None` (the caller then weighs
/// every candidate of its bracket roughly, so that all are weighed
/// alike).
pub(super) fn exactly(
    r: &Round,
    down: &[usize],
    next: &[usize],
    below: &[usize],
    work: &mut usize,
) -> Option<(usize, Vec<u32>)> {
    let mut players: Vec<usize> = down.to_vec();
    players.extend_from_slice(next);
    if players.len() > EXACT_UP_TO {
        return None;
    }
    trying(r, down, next, below, &players, work)
}

/// The same, by a maximum matching of the following bracket: its pairs
/// where what it leaves keeps the brackets below pairable, else none.
pub(super) fn roughly(
    r: &Round,
    down: &[usize],
    next: &[usize],
    below: &[usize],
) -> (usize, Vec<u32>) {
    let mut players: Vec<usize> = down.to_vec();
    players.extend_from_slice(next);
    matching(r, down, next, below, &players)
}

/// The best it can be: every player moved down meets a resident, one
/// left over where they are odd.
pub(super) fn psd_at_best(r: &Round, down: &[usize], next: &[usize]) -> Vec<u32> {
    let resident = r.by_rank[next[0]].score;
    let mut psd: Vec<u32> = down
        .iter()
        .map(|&i| r.by_rank[i].score - resident)
        .collect();
    if (down.len() + next.len()) % 2 == 1 {
        psd.push(2);
    }
    psd.sort_unstable_by(|a, b| b.cmp(a));
    psd
}

/// Each set `out` of the bracket's players paired outside it, the
/// smallest first: the rest must pair among themselves, and `out` with
/// the brackets below. The first size that works gives the pairs; of
/// its sets, the least PSD (those moved down inside with their score
/// difference, each player out as a floater). `None` past the budget.
fn trying(
    r: &Round,
    down: &[usize],
    next: &[usize],
    below: &[usize],
    players: &[usize],
    work: &mut usize,
) -> Option<(usize, Vec<u32>)> {
    let resident = r.by_rank[next[0]].score;
    let gap = |i: usize| r.by_rank[i].score - resident;
    let mut tries = 0;
    for out_size in (players.len() % 2..=players.len()).step_by(2) {
        let mut best: Option<Vec<u32>> = None;
        for out in subsets(players.len(), out_size) {
            tries += 1;
            let cost = (players.len() + below.len()).pow(3);
            if tries > MOST_TRIES || *work < cost {
                return None;
            }
            *work -= cost;
            let inside: Vec<usize> = (0..players.len())
                .filter(|k| !out.contains(k))
                .map(|k| players[k])
                .collect();
            if r.most_pairs(&inside) * 2 != inside.len() {
                continue;
            }
            let mut pool: Vec<usize> = out.iter().map(|&k| players[k]).collect();
            pool.extend_from_slice(below);
            if !r.completable(&pool) {
                continue;
            }
            let mut psd: Vec<u32> = inside
                .iter()
                .filter(|i| down.contains(i))
                .map(|&i| gap(i))
                .chain(out.iter().map(|&k| {
                    let i = players[k];
                    if down.contains(&i) {
                        gap(i) + 2
                    } else {
                        2
                    }
                }))
                .collect();
            psd.sort_unstable_by(|a, b| b.cmp(a));
            if best.as_ref().is_none_or(|b| psd < *b) {
                best = Some(psd);
            }
        }
        if let Some(psd) = best {
            return Some((players.len() / 2 - (players.len() - out_size) / 2, psd));
        }
    }
    None
}

/// A maximum matching of the bracket; its pairs, where what it leaves
/// keeps the brackets below pairable, else none. The PSD: each player
/// moved down that can meet a resident (the highest first, as many as
/// can each meet a different one) with its score difference, the others
/// as floaters, the residents left over a point each.
fn matching(
    r: &Round,
    down: &[usize],
    next: &[usize],
    below: &[usize],
    players: &[usize],
) -> (usize, Vec<u32>) {
    let (most, mut left) = r.left_unpaired(players);
    left.extend_from_slice(below);
    let pairs = if r.completable(&left) { most } else { 0 };
    let resident = r.by_rank[next[0]].score;
    let mut movers: Vec<usize> = down.to_vec();
    movers.sort_by_key(|&i| std::cmp::Reverse(r.by_rank[i].score));
    let mut met: Vec<usize> = Vec::new();
    let mut psd = Vec::new();
    for &i in &movers {
        met.push(i);
        let gap = r.by_rank[i].score - resident;
        if pairs > 0 && r.most_across(&met, next) == met.len() {
            psd.push(gap);
        } else {
            met.pop();
            psd.push(gap + 2);
        }
    }
    let floaters = players.len() - 2 * pairs;
    let left_over = floaters.saturating_sub(movers.len() - met.len());
    psd.extend(std::iter::repeat_n(2, left_over));
    psd.sort_unstable_by(|a, b| b.cmp(a));
    (players.len() / 2 - pairs, psd)
}

/// The `k`-element subsets of `0..n`, in lexicographic order.
fn subsets(n: usize, k: usize) -> impl Iterator<Item = Vec<usize>> {
    let mut pick: Option<Vec<usize>> = (k <= n).then(|| (0..k).collect());
    std::iter::from_fn(move || {
        let current = pick.clone()?;
        pick = (0..k).rev().find(|&i| current[i] < n - k + i).map(|at| {
            let mut next = current.clone();
            next[at] += 1;
            for i in at + 1..k {
                next[i] = next[i - 1] + 1;
            }
            next
        });
        Some(current)
    })
}

#[cfg(test)]
mod tests {
    use super::subsets;

    #[test]
    fn subsets_in_order() {
        let all: Vec<Vec<usize>> = subsets(4, 2).collect();
        assert_eq!(all, [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]);
        assert_eq!(subsets(3, 0).count(), 1);
        assert_eq!(subsets(2, 3).count(), 0);
    }
}
