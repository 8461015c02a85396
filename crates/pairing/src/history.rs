//! A Swiss tournament's or round robin's rounds as stored, read back: the
//! pairing numbers, each player's past as the next Swiss round sees it
//! (score, colours, floats, opponents, bye), the tiebreaks (Buchholz,
//! Sonneborn-Berger) and the TRF16 export. No I/O.

use std::collections::HashMap;

use super::standings::outcome_of;
use super::swiss::trf::{self, Entry};
use super::swiss::{Colour, Entrant, Float};
use crate::record::{TournamentGame, TournamentPlayer};

/// The players in pairing-number order: first those numbered already, by
/// their stored number (fixed once a round was paired with them in,
/// whatever they later become: a deletion renames a player, and must
/// renumber nobody); then the others, those in at the start by rating at
/// joining (highest first), then name; those who joined later after them,
/// in the order they joined. Number `k + 1` is `order[k]`.
pub fn pairing_order(entrants: &[TournamentPlayer], starts_ms: i64) -> Vec<&TournamentPlayer> {
    let mut order: Vec<&TournamentPlayer> = entrants.iter().collect();
    let key = |e: &TournamentPlayer| {
        let late = e.joined_ms > starts_ms;
        (
            e.pairing_number == 0,
            e.pairing_number,
            late,
            if late { e.joined_ms } else { -e.rating },
            e.name.clone(),
            e.account.clone(),
        )
    };
    order.sort_by_key(|e| key(e));
    order
}

/// A stored game as it counts: played, or not begun (a forfeit: `None`
/// points to neither unless stored).
fn played(p: &TournamentGame) -> bool {
    p.scored && outcome_of(&p.result, 0).is_some()
}

/// Everything the rounds say about the players.
pub struct History<'a> {
    pub order: Vec<&'a TournamentPlayer>,
    tpn: HashMap<&'a str, u32>,
    /// Per player (by pairing number - 1), per round (by round - 1).
    entries: Vec<Vec<Entry>>,
    /// Points in halves after each round.
    after: Vec<Vec<u32>>,
    rounds: usize,
}

impl<'a> History<'a> {
    /// `round`: the rounds paired so far; `byes`: (round, account);
    /// `starts_ms`: the tournament's start.
    pub fn new(
        entrants: &'a [TournamentPlayer],
        pairings: &[TournamentGame],
        byes: &[(i64, String)],
        round: i64,
        starts_ms: i64,
    ) -> Self {
        let order = pairing_order(entrants, starts_ms);
        let tpn: HashMap<&str, u32> = order
            .iter()
            .enumerate()
            .map(|(k, e)| (e.account.as_str(), k as u32 + 1))
            .collect();
        let rounds = round.max(0) as usize;
        let mut entries = vec![vec![Entry::Absent; rounds]; order.len()];
        let mut points = vec![vec![0u32; rounds]; order.len()];
        for p in pairings {
            let r = p.round as usize;
            let (Some(&x), Some(&o)) =
                (tpn.get(p.x_account.as_str()), tpn.get(p.o_account.as_str()))
            else {
                continue;
            };
            if r == 0 || r > rounds {
                continue;
            }
            for (k, (me, them, colour)) in [(x, o, Colour::White), (o, x, Colour::Black)]
                .into_iter()
                .enumerate()
            {
                let result = if !p.scored {
                    None
                } else if played(p) {
                    Some(match outcome_of(&p.result, k) {
                        Some(super::arena::Outcome::Won) => trf::Result::Won,
                        Some(super::arena::Outcome::Drawn) => trf::Result::Drawn,
                        _ => trf::Result::Lost,
                    })
                } else if p.points[k] > 0 {
                    Some(trf::Result::WonByForfeit)
                } else {
                    Some(trf::Result::LostByForfeit)
                };
                entries[me as usize - 1][r - 1] = Entry::Game {
                    opponent: them,
                    colour,
                    result,
                };
                points[me as usize - 1][r - 1] = p.points[k].max(0) as u32;
            }
        }
        for (r, account) in byes {
            if let (Some(&me), true) = (tpn.get(account.as_str()), (1..=rounds as i64).contains(r))
            {
                entries[me as usize - 1][*r as usize - 1] = Entry::Bye;
                points[me as usize - 1][*r as usize - 1] = 2;
            }
        }
        let after = points
            .iter()
            .map(|ps| {
                ps.iter()
                    .scan(0, |sum, p| {
                        *sum += p;
                        Some(*sum)
                    })
                    .collect()
            })
            .collect();
        History {
            order,
            tpn,
            entries,
            after,
            rounds,
        }
    }

    pub fn number(&self, account: &str) -> Option<u32> {
        self.tpn.get(account).copied()
    }

    fn score_before(&self, k: usize, r: usize) -> u32 {
        if r == 0 {
            0
        } else {
            self.after[k][r - 1]
        }
    }

    /// Points in halves after all the rounds.
    pub fn score(&self, k: usize) -> u32 {
        self.after[k].last().copied().unwrap_or(0)
    }

    /// Player `k` (pairing number - 1) as the next round's pairing sees it.
    pub fn entrant(&self, k: usize) -> Entrant {
        let mut e = Entrant {
            tpn: k as u32 + 1,
            score: self.score(k),
            colours: Vec::new(),
            floats: Vec::new(),
            opponents: Vec::new(),
            may_bye: true,
            unplayed: 0,
        };
        for (r, entry) in self.entries[k].iter().enumerate() {
            let float = match entry {
                Entry::Game {
                    opponent,
                    colour,
                    result,
                } => {
                    let o = *opponent as usize - 1;
                    match result {
                        Some(trf::Result::WonByForfeit) => {
                            e.may_bye = false;
                            e.unplayed += 1;
                            Float::Down
                        }
                        Some(trf::Result::LostByForfeit) => {
                            e.unplayed += 1;
                            Float::None
                        }
                        // Only a game played counts as met (C1): two
                        // whose game was forfeited may be paired again,
                        // as the endorsed programs do.
                        _ => {
                            e.opponents.push(*opponent);
                            e.colours.push(*colour);
                            match self.score_before(k, r).cmp(&self.score_before(o, r)) {
                                std::cmp::Ordering::Greater => Float::Down,
                                std::cmp::Ordering::Less => Float::Up,
                                std::cmp::Ordering::Equal => Float::None,
                            }
                        }
                    }
                }
                Entry::Bye => {
                    e.may_bye = false;
                    e.unplayed += 1;
                    Float::Down
                }
                // A round without a game floats down only where it
                // scored more than a loss (the bye, a forfeit won), as
                // the endorsed programs read A.4 (bbpPairings): an
                // absence scores nothing and floats nobody.
                Entry::Absent => {
                    e.unplayed += 1;
                    Float::None
                }
            };
            e.floats.push(float);
        }
        e
    }

    /// The rounds as TRF16 (`ranks`: each player's place, by pairing number).
    pub fn trf(&self, head: trf::Tournament, ranks: &[u32]) -> String {
        let players = self
            .order
            .iter()
            .enumerate()
            .map(|(k, e)| trf::Player {
                tpn: k as u32 + 1,
                name: e.name.clone(),
                rating: e.rating.clamp(0, 9999) as u32,
                points: self.score(k),
                rank: ranks.get(k).copied().unwrap_or(0),
                rounds: self.entries[k].clone(),
            })
            .collect();
        trf::write(&trf::Tournament { players, ..head })
    }

    pub fn rounds(&self) -> usize {
        self.rounds
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entrant(name: &str, rating: i64, joined_ms: i64) -> TournamentPlayer {
        TournamentPlayer {
            account: name.into(),
            name: name.into(),
            rating,
            joined_ms,
            state: "in".into(),
            points: 0,
            streak: 0,
            playing: String::new(),
            free_since_ms: 0,
            last_opponent: String::new(),
            x_balance: 0,
            pairing_number: 0,
        }
    }

    fn game(round: i64, x: &str, o: &str, result: &str, points: [i64; 2]) -> TournamentGame {
        TournamentGame {
            game: format!("{round}{x}{o}"),
            x_account: x.into(),
            o_account: o.into(),
            paired_ms: 0,
            berserk: [false; 2],
            scored: true,
            result: result.into(),
            points,
            round,
        }
    }

    #[test]
    fn a_forfeit_is_not_a_meeting_and_an_absence_floats_nobody() {
        // Ann and Bo in from the start, Cy from round 2. Round 1: Ann and
        // Bo's game forfeited (Bo did not step); round 2: Ann beats Cy.
        let entrants = [
            entrant("Ann", 1600, 0),
            entrant("Bo", 1500, 0),
            entrant("Cy", 1700, 50),
        ];
        let pairings = [
            game(1, "Ann", "Bo", "aborted", [2, 0]),
            game(2, "Ann", "Cy", "x", [2, 0]),
        ];
        let h = History::new(&entrants, &pairings, &[(2, "Bo".into())], 2, 10);
        let ann = h.entrant(0);
        // Bo (2) may meet Ann again; Cy (3), met over the board, may not.
        assert_eq!(ann.opponents, [3]);
        assert_eq!(ann.colours, [Colour::White]);
        assert!(!ann.may_bye, "a forfeit won bars the bye");
        assert_eq!(ann.floats[0], Float::Down, "a forfeit won floats down");
        let bo = h.entrant(1);
        assert!(bo.opponents.is_empty());
        assert_eq!(bo.floats, [Float::None, Float::Down], "{bo:?}");
        let cy = h.entrant(2);
        assert_eq!(cy.tpn, 3, "a late joiner is numbered after");
        assert_eq!(cy.floats, [Float::None, Float::Up], "{cy:?}");
        assert_eq!((cy.unplayed, cy.may_bye), (1, true));
    }

    #[test]
    fn a_stored_number_holds_whatever_the_name_becomes() {
        // Numbered by name at the first round (equal ratings): Ann 1, Bo 2,
        // Cy 3. Ann's account is deleted and renamed "zz-deleted": she
        // keeps number 1; a player not numbered yet comes after.
        let mut ann = entrant("zz-deleted", 1500, 0);
        ann.account = "Ann".into();
        ann.pairing_number = 1;
        let mut bo = entrant("Bo", 1500, 0);
        bo.pairing_number = 2;
        let mut cy = entrant("Cy", 1500, 0);
        cy.pairing_number = 3;
        let late = entrant("Abe", 2000, 50);
        let entrants = [cy, late, bo, ann];
        let order: Vec<&str> = pairing_order(&entrants, 10)
            .iter()
            .map(|e| e.account.as_str())
            .collect();
        assert_eq!(order, ["Ann", "Bo", "Cy", "Abe"]);
        // Before any number is stored, the name breaks the tie.
        let fresh = [entrant("Cy", 1500, 0), entrant("Ann", 1500, 0)];
        let order: Vec<&str> = pairing_order(&fresh, 10)
            .iter()
            .map(|e| e.account.as_str())
            .collect();
        assert_eq!(order, ["Ann", "Cy"]);
    }
}
