//! Determinization (docs/ai.md, Fog of war): a whole position drawn at
//! random among those that agree with everything a side knows — every cell
//! it sees, how many steps the other side has made and how many bases it
//! started with. As many of the other side's pieces as stand on hidden
//! cells (a number the side knows: `Seen`) are grown at random through the
//! hidden cells as viruses (a trench it took out of sight reads as one),
//! from its known pieces, as
//! its steps grew them (each next to one before), or from its entry cells.
//! Every cell the side may step on is one it sees, so a sample's legal
//! steps for that side are the true ones; what differs is what lies beyond.

use virus_wars_rules::fog::Seen;
use virus_wars_rules::rng::SplitMix64;
use virus_wars_rules::rules::entry_cells;
use virus_wars_rules::{AnyPosition, Content, Side, StartRule};

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
    // Where it came in: its entry cells, or for pre-placed bases its edge.
    let far_file = s.width - 1;
    let entry: Vec<usize> = match s.rules.start {
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
        // An entered side's first step was on an entry cell, which keeps a
        // mark of it; if none is seen, one of the hidden ones holds it.
        let entry_marked = entry.iter().any(|&i| marks(cells[i]));
        let open_entry: Vec<usize> = entry.iter().copied().filter(|&i| unknown[i]).collect();
        if k > 0 && s.entered[enemy.index()] && !entry_marked && !open_entry.is_empty() {
            let i = open_entry[rng.below(open_entry.len() as u32) as usize];
            cells[i] = Content::Virus(enemy);
            placed += 1;
        }
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
            cells[pool[rng.below(pool.len() as u32) as usize]] = Content::Virus(enemy);
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
