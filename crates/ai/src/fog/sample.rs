//! Determinization (docs/ai.md, Fog of war): a whole position drawn at
//! random among those that agree with everything a side knows — every cell
//! it sees, how many steps the other side has made and where its bases
//! stand. As many of the other side's pieces as stand on hidden cells (a
//! number the side knows: `Seen`) are placed on hidden cells as viruses (a
//! trench it took out of sight reads as one):
//! - its bases first, where hidden (they hold its viruses still);
//! - then whatever joins each of its known pieces to its bases or entry
//!   cell by a shortest way through hidden cells, chosen at random: every
//!   step it made was next to a piece of its own, so all it ever stood on
//!   is one whole with where it came in;
//! - the rest grown at random next to its pieces, as its steps grew them.
//!
//! Every cell the side may step on is one it sees, so a sample's legal
//! steps for that side are the true ones; what differs is what lies beyond.

use virus_wars_rules::fog::Seen;
use virus_wars_rules::rng::SplitMix64;
use virus_wars_rules::rules::entry_cells;
use virus_wars_rules::{AnyPosition, Content, Side, StartRule};

use std::collections::VecDeque;

/// Draws made before a sample is given up.
const TRIES: usize = 24;

/// A position that agrees with `seen` (the side to move's knowledge);
/// `None` if no draw gave a valid position.
pub fn sample(seen: &Seen, rng: &mut SplitMix64) -> Option<AnyPosition> {
    let s = &seen.view.setup;
    let unknown = &seen.view.unknown;
    let (me, enemy) = (s.side, !s.side);
    let (w, h) = (s.width as i64, s.height as i64);
    let hidden: Vec<usize> = (0..s.cells.len()).filter(|&i| unknown[i]).collect();
    let k = (seen.hidden_enemy_pieces as usize).min(hidden.len());
    let around = move |i: usize| {
        let (f, r) = ((i as i64) % w, (i as i64) / w);
        (-1..=1)
            .flat_map(move |df| (-1..=1).map(move |dr| (f + df, r + dr)))
            .filter(move |&(a, b)| (a, b) != (f, r) && (0..w).contains(&a) && (0..h).contains(&b))
            .map(move |(a, b)| (b * w + a) as usize)
    };
    // Where its pieces are known to be: its viruses and zombies, and its
    // viruses that became this side's zombies.
    let marks = |c: Content| {
        matches!(c, Content::Virus(x) | Content::Zombie(x) if x == enemy)
            || c == Content::Zombie(me)
    };
    // Where it came in: its bases, else its entry cells (for bases not
    // known, the edge they stand on).
    let bases: Vec<usize> = seen
        .enemy_bases
        .iter()
        .map(|c| c.rank as usize * s.width as usize + c.file as usize)
        .filter(|&i| i < s.cells.len())
        .collect();
    let far_file = s.width - 1;
    let entry: Vec<usize> = match s.rules.start {
        _ if !bases.is_empty() => bases.clone(),
        StartRule::Corners => (0..s.height)
            .map(|r| {
                let f = if enemy == Side::X { 0 } else { far_file };
                r as usize * s.width as usize + f as usize
            })
            .collect(),
        start => entry_cells(start, s.width, s.height, enemy)
            .into_iter()
            .map(|c| c.rank as usize * s.width as usize + c.file as usize)
            .collect(),
    };
    for _ in 0..TRIES {
        let mut cells = s.cells.clone();
        let mut placed = 0;
        // A hidden base holds its virus still.
        for &b in &bases {
            if unknown[b] && cells[b] == Content::Empty && placed < k {
                cells[b] = Content::Virus(enemy);
                placed += 1;
            }
        }
        // An entered side's first step was on an entry cell, which keeps a
        // mark of it; if none is seen, one of the hidden ones holds it.
        let entry_marked = entry.iter().any(|&i| marks(cells[i]));
        let open_entry: Vec<usize> = entry.iter().copied().filter(|&i| unknown[i]).collect();
        if placed < k && s.entered[enemy.index()] && !entry_marked && !open_entry.is_empty() {
            let i = open_entry[rng.below(open_entry.len() as u32) as usize];
            cells[i] = Content::Virus(enemy);
            placed += 1;
        }
        placed += join(
            &mut cells,
            unknown,
            &entry,
            &marks,
            &around,
            enemy,
            k - placed,
            rng,
        );
        while placed < k {
            let next: Vec<usize> = hidden
                .iter()
                .copied()
                .filter(|&i| cells[i] == Content::Empty && around(i).any(|j| marks(cells[j])))
                .collect();
            let pool: Vec<usize> = if next.is_empty() {
                // Nothing of its known yet: start from where it came in,
                // else anywhere hidden.
                let at_entry: Vec<usize> = open_entry
                    .iter()
                    .copied()
                    .filter(|&i| cells[i] == Content::Empty)
                    .collect();
                if at_entry.is_empty() {
                    hidden
                        .iter()
                        .copied()
                        .filter(|&i| cells[i] == Content::Empty)
                        .collect()
                } else {
                    at_entry
                }
            } else {
                next
            };
            if pool.is_empty() {
                break;
            }
            let pick = pool[rng.below(pool.len() as u32) as usize];
            cells[pick] = Content::Virus(enemy);
            placed += 1;
        }
        let mut setup = s.clone();
        setup.cells = cells;
        if let Ok(p) = AnyPosition::from_setup(&setup) {
            return Some(p);
        }
    }
    None
}

/// Joins each of the other side's pieces (`marks`) cut off from its entry
/// cells to those joined already, by a shortest way through hidden empty
/// cells (ties broken at random), as long as `budget` pieces last; the
/// pieces placed.
#[allow(clippy::too_many_arguments)]
fn join<I: Iterator<Item = usize>>(
    cells: &mut [Content],
    unknown: &[bool],
    entry: &[usize],
    marks: &dyn Fn(Content) -> bool,
    around: &dyn Fn(usize) -> I,
    enemy: Side,
    mut budget: usize,
    rng: &mut SplitMix64,
) -> usize {
    let n = cells.len();
    let mut placed = 0;
    // Pieces no way can join (too far for the budget) are left as they are.
    let mut given_up = vec![false; n];
    loop {
        // The pieces joined to an entry cell through its pieces.
        let mut joined = vec![false; n];
        let mut queue: VecDeque<usize> =
            entry.iter().copied().filter(|&i| marks(cells[i])).collect();
        for &i in &queue {
            joined[i] = true;
        }
        while let Some(i) = queue.pop_front() {
            for j in around(i) {
                if !joined[j] && marks(cells[j]) {
                    joined[j] = true;
                    queue.push_back(j);
                }
            }
        }
        if !joined.iter().any(|&j| j) {
            return placed;
        }
        let cut_off: Vec<usize> = (0..n)
            .filter(|&i| marks(cells[i]) && !joined[i] && !given_up[i])
            .collect();
        if cut_off.is_empty() || budget == 0 {
            return placed;
        }
        let start = cut_off[rng.below(cut_off.len() as u32) as usize];
        // Its whole group, then outwards through hidden empty cells until
        // a cell next to a joined piece.
        let mut from = vec![usize::MAX; n];
        let mut seen = vec![false; n];
        let mut queue = VecDeque::from([start]);
        seen[start] = true;
        let mut group = Vec::new();
        while let Some(i) = queue.pop_front() {
            group.push(i);
            for j in around(i) {
                if !seen[j] && marks(cells[j]) && !joined[j] {
                    seen[j] = true;
                    queue.push_back(j);
                }
            }
        }
        let mut queue: VecDeque<usize> = group.iter().copied().collect();
        let mut reached = None;
        'search: while let Some(i) = queue.pop_front() {
            let mut next: Vec<usize> = around(i).collect();
            for k in (1..next.len()).rev() {
                next.swap(k, rng.below(k as u32 + 1) as usize);
            }
            for j in next {
                if joined[j] && from[i] != usize::MAX {
                    reached = Some(i);
                    break 'search;
                }
                if !seen[j] && unknown[j] && cells[j] == Content::Empty {
                    seen[j] = true;
                    from[j] = i;
                    queue.push_back(j);
                }
            }
        }
        let mut way = Vec::new();
        let mut at = reached;
        while let Some(i) = at.filter(|&i| from[i] != usize::MAX) {
            way.push(i);
            at = Some(from[i]);
        }
        if reached.is_none() || way.len() > budget {
            for i in group {
                given_up[i] = true;
            }
            continue;
        }
        for &i in &way {
            cells[i] = Content::Virus(enemy);
        }
        budget -= way.len();
        placed += way.len();
    }
}
