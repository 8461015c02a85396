//! A Swiss round paired by the FIDE Dutch system (C.04.3), free of I/O:
//! the players as the round sees them (score, colours played, floats,
//! opponents) in, the pairs with their colours and the bye out. The
//! brackets are paired from the top score down (`bracket.rs`), each
//! choosing, among the candidates in the order section D generates them,
//! the first that is best by the criteria of section B, and only one that
//! leaves the players below it pairable (C4). docs/tournaments.md says
//! what is followed and what is not.

mod ahead;
mod bracket;
pub mod colour;
pub mod trf;

use petgraph::algo::maximum_matching;
use petgraph::graph::UnGraph;

pub use colour::Colour;

/// How a player's score stood against its opponent's in one round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Float {
    None,
    /// Paired with a player of a higher score.
    Up,
    /// Paired with a player of a lower score, or no game at all (A.4).
    Down,
}

/// A player as one round's pairing sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entrant {
    /// Pairing number: 1 is the highest rated (then by name).
    pub tpn: u32,
    /// Points in halves (a win 2, a draw 1, the bye 2).
    pub score: u32,
    /// The colours of the games it played, in order.
    pub colours: Vec<Colour>,
    /// One for each round before this one.
    pub floats: Vec<Float>,
    /// The pairing numbers it met.
    pub opponents: Vec<u32>,
    /// It had no bye (nor a point without a game) yet (C2).
    pub may_bye: bool,
    /// Rounds it was in the tournament without a game.
    pub unplayed: u32,
}

/// One round's pairing: (white, black) by pairing number, the bye.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pairing {
    pub pairs: Vec<(u32, u32)>,
    pub bye: Option<u32>,
}

/// Why no pairing came out.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SwissError {
    #[error("no pairing of these {0} players meets the absolute criteria: each has met, or cannot meet, too many of the others")]
    Unpairable(usize),
    #[error("pairing number {0} is given twice")]
    DoubleNumber(u32),
}

/// Pairs one round. `rounds_played` are the rounds before it, `rounds`
/// the tournament's; `initial` the colour pairing number 1 took in the
/// first round. The absolute colour rule (C3) is given up only where no
/// pairing keeps it.
pub fn pair_round(
    entrants: &[Entrant],
    rounds_played: u32,
    rounds: u32,
    initial: Colour,
) -> Result<Pairing, SwissError> {
    let mut seen = std::collections::HashSet::new();
    for e in entrants {
        if !seen.insert(e.tpn) {
            return Err(SwissError::DoubleNumber(e.tpn));
        }
    }
    for strict in [true, false] {
        let ctx = Round::new(entrants, rounds_played, rounds, strict);
        if let Some(pairing) = bracket::pair_all(&ctx, initial) {
            return Ok(pairing);
        }
    }
    Err(SwissError::Unpairable(entrants.len()))
}

/// The round as the brackets see it: players in rank order (A.2).
pub(super) struct Round<'a> {
    pub by_rank: Vec<&'a Entrant>,
    /// Topscorers (A.7, the last round only): more than half the points.
    pub top: Vec<bool>,
    pub prefs: Vec<colour::Preference>,
    /// met[i][j]: ranks i and j played each other.
    met: Vec<Vec<bool>>,
    /// C3 kept.
    strict: bool,
}

impl<'a> Round<'a> {
    fn new(entrants: &'a [Entrant], rounds_played: u32, rounds: u32, strict: bool) -> Self {
        let mut by_rank: Vec<&Entrant> = entrants.iter().collect();
        by_rank.sort_by(|a, b| b.score.cmp(&a.score).then(a.tpn.cmp(&b.tpn)));
        let last = rounds_played + 1 >= rounds;
        let top = by_rank
            .iter()
            .map(|e| last && e.score > rounds_played)
            .collect();
        let prefs = by_rank
            .iter()
            .map(|e| colour::preference(&e.colours))
            .collect();
        let met = by_rank
            .iter()
            .map(|a| {
                by_rank
                    .iter()
                    .map(|b| a.opponents.contains(&b.tpn))
                    .collect()
            })
            .collect();
        Round {
            by_rank,
            top,
            prefs,
            met,
            strict,
        }
    }

    /// Ranks `i` and `j` may meet: not met before (C1), and unless one is
    /// a topscorer, not both with the same absolute colour preference (C3).
    pub fn may_meet(&self, i: usize, j: usize) -> bool {
        if i == j || self.met[i][j] {
            return false;
        }
        if !self.strict || self.top[i] || self.top[j] {
            return true;
        }
        let (a, b) = (self.prefs[i], self.prefs[j]);
        !(a.strength == colour::Strength::Absolute
            && b.strength == colour::Strength::Absolute
            && a.colour == b.colour)
    }

    /// The players of `pool` can all be paired, but for one who may
    /// have the bye when they are odd (C4).
    pub fn completable(&self, pool: &[usize]) -> bool {
        let odd = pool.len() % 2 == 1;
        let mut g = UnGraph::<(), ()>::with_capacity(pool.len() + 1, 0);
        let nodes: Vec<_> = pool.iter().map(|_| g.add_node(())).collect();
        for a in 0..pool.len() {
            for b in a + 1..pool.len() {
                if self.may_meet(pool[a], pool[b]) {
                    g.add_edge(nodes[a], nodes[b], ());
                }
            }
        }
        if odd {
            let bye = g.add_node(());
            for (k, &p) in pool.iter().enumerate() {
                if self.by_rank[p].may_bye {
                    g.add_edge(nodes[k], bye, ());
                }
            }
        }
        let matching = maximum_matching(&g);
        matching.len() * 2 == g.node_count()
    }

    /// The most pairs among `players` alone.
    pub fn most_pairs(&self, players: &[usize]) -> usize {
        self.left_unpaired(players).0
    }

    /// The most pairs among `players` alone, and the players one such
    /// pairing leaves out.
    pub fn left_unpaired(&self, players: &[usize]) -> (usize, Vec<usize>) {
        let mut g = UnGraph::<(), ()>::with_capacity(players.len(), 0);
        let nodes: Vec<_> = players.iter().map(|_| g.add_node(())).collect();
        for a in 0..players.len() {
            for b in a + 1..players.len() {
                if self.may_meet(players[a], players[b]) {
                    g.add_edge(nodes[a], nodes[b], ());
                }
            }
        }
        let matching = maximum_matching(&g);
        let left = players
            .iter()
            .zip(&nodes)
            .filter(|(_, &n)| !matching.contains_node(n))
            .map(|(&p, _)| p)
            .collect();
        (matching.len(), left)
    }

    /// The most of `upper` that can each meet a different one of `lower`.
    pub fn most_across(&self, upper: &[usize], lower: &[usize]) -> usize {
        let mut g = UnGraph::<(), ()>::with_capacity(upper.len() + lower.len(), 0);
        let up: Vec<_> = upper.iter().map(|_| g.add_node(())).collect();
        let low: Vec<_> = lower.iter().map(|_| g.add_node(())).collect();
        for (a, &i) in upper.iter().enumerate() {
            for (b, &j) in lower.iter().enumerate() {
                if self.may_meet(i, j) {
                    g.add_edge(up[a], low[b], ());
                }
            }
        }
        maximum_matching(&g).len()
    }

    /// Player `i`'s float `back` rounds ago (1: the last round).
    pub fn float_back(&self, i: usize, back: usize) -> Float {
        let floats = &self.by_rank[i].floats;
        floats
            .len()
            .checked_sub(back)
            .map_or(Float::None, |k| floats[k])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Colour::{Black, White};

    fn entrant(tpn: u32, score: u32, colours: &[Colour], opponents: &[u32]) -> Entrant {
        Entrant {
            tpn,
            score,
            colours: colours.to_vec(),
            floats: vec![Float::None; colours.len()],
            opponents: opponents.to_vec(),
            may_bye: true,
            unplayed: 0,
        }
    }

    fn met(pairing: &Pairing) -> Vec<(u32, u32)> {
        let mut pairs: Vec<(u32, u32)> = pairing
            .pairs
            .iter()
            .map(|&(w, b)| (w.min(b), w.max(b)))
            .collect();
        pairs.sort_unstable();
        pairs
    }

    #[test]
    fn a_bracket_makes_the_most_pairs_though_its_first_candidate_is_flawless() {
        // 1 (moved down) meets 2 first in the order, and 3 and 4 (both
        // wanting white absolutely) cannot meet: one pair, both moved
        // down to 5 and 6, with nothing else wrong. But 1-3 and 2-4 make
        // two pairs in the bracket (C5), and 5 meets 6.
        let players = [
            entrant(1, 4, &[White, Black], &[]),
            entrant(2, 2, &[Black, White], &[3]),
            entrant(3, 2, &[Black, Black], &[2]),
            entrant(4, 2, &[Black, Black], &[]),
            entrant(5, 0, &[White, Black], &[]),
            entrant(6, 0, &[White, Black], &[]),
        ];
        let pairing = pair_round(&players, 2, 5, White).expect("a pairing");
        assert_eq!(met(&pairing), [(1, 3), (2, 4), (5, 6)], "{pairing:?}");
        assert_eq!(pairing.bye, None);
    }
}
