//! The pairing checked from outside: random tournaments of 9, 16 and 33
//! players, with a bye, a late joiner and a withdrawal, are paired round
//! by round by this crate's Dutch system, written as TRF16, and paired
//! again by an independent Dutch engine (`other_engine.rs`).
//! docs/tournaments.md has the figures.

mod other_engine;

use virus_wars_pairing::swiss::trf::{self, Entry, Result as Res};
use virus_wars_pairing::swiss::{pair_round, Colour, Entrant, Float};

use other_engine::{check, other_engine};

/// splitmix64: the same tournaments on every run.
struct Dice(u64);

impl Dice {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

struct Sim {
    e: Entrant,
    name: String,
    rating: u32,
    rounds: Vec<Entry>,
    /// The rounds it is in: [from, to).
    from: u32,
    to: u32,
}

/// One random tournament played out: its TRF.
fn simulate(seed: u64, players: u32, rounds: u32, changes: bool) -> String {
    let mut dice = Dice(seed);
    let mut ratings: Vec<u32> = (0..players)
        .map(|_| 1000 + dice.below(1400) as u32)
        .collect();
    ratings.sort_unstable_by(|a, b| b.cmp(a));
    let mut sims: Vec<Sim> = ratings
        .iter()
        .enumerate()
        .map(|(k, &rating)| Sim {
            e: Entrant {
                tpn: k as u32 + 1,
                score: 0,
                colours: Vec::new(),
                floats: Vec::new(),
                opponents: Vec::new(),
                may_bye: true,
                unplayed: 0,
            },
            name: format!("Player {:02}", k + 1),
            rating,
            rounds: Vec::new(),
            from: 0,
            to: rounds,
        })
        .collect();
    if changes && players > 4 {
        // One joins for the third round, one withdraws after the fourth.
        let late = 1 + dice.below(u64::from(players) - 1) as usize;
        sims[late].from = 2.min(rounds - 1);
        let gone = (late + 1 + dice.below(u64::from(players) - 2) as usize) % players as usize;
        sims[gone].to = 4.min(rounds);
    }
    for round in 0..rounds {
        let here: Vec<usize> = (0..sims.len())
            .filter(|&k| sims[k].from <= round && round < sims[k].to)
            .collect();
        let entrants: Vec<Entrant> = here.iter().map(|&k| sims[k].e.clone()).collect();
        // A round no pairing can make ends the tournament (a withdrawal
        // late in a small one can leave two players who met everyone
        // else but the same one).
        let Ok(pairing) = pair_round(&entrants, round, rounds, Colour::White) else {
            break;
        };
        let before: Vec<u32> = sims.iter().map(|s| s.e.score).collect();
        // Not in yet: absent (a round after withdrawing is not written).
        for s in sims.iter_mut().filter(|s| round < s.from) {
            s.rounds.push(Entry::Absent);
            s.e.floats.push(Float::None);
            s.e.unplayed += 1;
        }
        if let Some(bye) = pairing.bye {
            let s = &mut sims[bye as usize - 1];
            s.rounds.push(Entry::Bye);
            s.e.score += 2;
            s.e.may_bye = false;
            s.e.unplayed += 1;
            s.e.floats.push(Float::Down);
        }
        for &(w, b) in &pairing.pairs {
            let (wi, bi) = (w as usize - 1, b as usize - 1);
            // The stronger side wins more often; a draw now and then.
            let edge = i64::from(sims[wi].rating) - i64::from(sims[bi].rating);
            let roll = dice.below(1000) as i64;
            let white_wins = 500 + edge / 2;
            let (rw, rb, pw) = if roll < 80 {
                (Res::Drawn, Res::Drawn, 1)
            } else if roll < 80 + white_wins.clamp(50, 870) {
                (Res::Won, Res::Lost, 2)
            } else {
                (Res::Lost, Res::Won, 0)
            };
            for (me, them, colour, res, pts) in [
                (wi, bi, Colour::White, rw, pw),
                (bi, wi, Colour::Black, rb, 2 - pw),
            ] {
                let float = match before[me].cmp(&before[them]) {
                    std::cmp::Ordering::Greater => Float::Down,
                    std::cmp::Ordering::Less => Float::Up,
                    std::cmp::Ordering::Equal => Float::None,
                };
                let s = &mut sims[me];
                s.rounds.push(Entry::Game {
                    opponent: them as u32 + 1,
                    colour,
                    result: Some(res),
                });
                s.e.score += pts;
                s.e.colours.push(colour);
                s.e.opponents.push(them as u32 + 1);
                s.e.floats.push(float);
            }
        }
    }
    let mut order: Vec<usize> = (0..sims.len()).collect();
    order.sort_by_key(|&k| (std::cmp::Reverse(sims[k].e.score), k));
    let mut rank = vec![0; sims.len()];
    for (place, &k) in order.iter().enumerate() {
        rank[k] = place as u32 + 1;
    }
    trf::write(&trf::Tournament {
        name: format!("Check {seed} ({players} players, {rounds} rounds)"),
        start: "2026/11/27".into(),
        end: "2026/11/27".into(),
        rounds,
        clock: "5+3".into(),
        initial: Colour::White,
        players: sims
            .iter()
            .enumerate()
            .map(|(k, s)| trf::Player {
                tpn: s.e.tpn,
                name: s.name.clone(),
                rating: s.rating,
                points: s.e.score,
                rank: rank[k],
                rounds: s.rounds.clone(),
            })
            .collect(),
    })
}

#[test]
fn dutch_pairings_agree_with_an_independent_engine() {
    let Some(python) = other_engine() else {
        return;
    };
    // VW_SWISS_DIR keeps the files (scripts/swiss-check.py DIR --show
    // then says each round that differs).
    let keep = std::env::var_os("VW_SWISS_DIR");
    let dir = keep.clone().map_or_else(
        || std::env::temp_dir().join(format!("vw_swiss_{}", std::process::id())),
        Into::into,
    );
    std::fs::create_dir_all(&dir).expect("a temp dir");
    let mut files = 0;
    for (players, rounds, count) in [(9u32, 7u32, 12u64), (16, 7, 12), (33, 9, 8)] {
        for seed in 0..count {
            let text = simulate(
                seed * 1000 + u64::from(players),
                players,
                rounds,
                seed % 2 == 1,
            );
            std::fs::write(dir.join(format!("t{players}-{seed}.trf")), text).expect("write");
            files += 1;
        }
    }
    let (summary, report) = check(&python, &dir, false);
    assert_eq!(summary["files"], files, "{report}");
    let rounds = summary["rounds"].as_f64().unwrap_or(0.0);
    let same = summary["same_pairs"].as_f64().unwrap_or(0.0);
    let colours = summary["same_colours"].as_f64().unwrap_or(0.0);
    eprintln!("{report}");
    if keep.is_none() {
        let _ = std::fs::remove_dir_all(&dir);
    }
    // Measured: 236 of 238 rounds the same pairs, 190 the same colours too
    // (docs/tournaments.md says where and why they differ: the two rounds
    // are byes the other engine gives against C5).
    assert!(same / rounds >= 0.99, "{report}");
    assert!(colours / rounds >= 0.79, "{report}");
}
