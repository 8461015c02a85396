//! The Swiss pairing (FIDE Dutch) checked from outside: random
//! tournaments of 9, 16 and 33 players, with a bye, a late joiner and a
//! withdrawal, are paired round by round by the server's pairing, written
//! as TRF16, and paired again by an independent Dutch engine
//! (`scripts/swiss-check.py`, caissify-pairings, itself checked against
//! the FIDE-endorsed bbpPairings). docs/tournaments.md has the figures.

use std::process::Command;

use serde_json::{json, Value};
use virus_wars_server::Clock;

use crate::accounts::sign_up;
use crate::challenges::{call, play_turn};
use crate::common::{fresh_sqlite, Server};
use crate::tournaments::tournament_until;

use virus_wars_server::tournament::swiss::trf::{self, Entry, Result as Res};
use virus_wars_server::tournament::swiss::{pair_round, Colour, Entrant, Float};

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
pub fn simulate(seed: u64, players: u32, rounds: u32, changes: bool) -> String {
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

/// The other engine's Python, which scripts/test installs (CI never goes
/// without it).
fn other_engine() -> Option<std::ffi::OsString> {
    let python = std::env::var_os("VW_SWISS_PYTHON");
    if python.is_none() {
        assert_ne!(
            std::env::var("CI").as_deref(),
            Ok("true"),
            "VW_SWISS_PYTHON is not set"
        );
        eprintln!("SKIPPED: no VW_SWISS_PYTHON (scripts/test sets it)");
    }
    python
}

/// `scripts/swiss-check.py` on the `.trf` files of `dir`: its summary
/// (the last line) and all it printed.
fn check(python: &std::ffi::OsStr, dir: &std::path::Path, show: bool) -> (Value, String) {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scripts/swiss-check.py");
    let mut command = Command::new(python);
    command.arg(script).arg(dir);
    if show {
        command.arg("--show");
    }
    let out = command.output().expect("python3 runs");
    let report = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{report}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary = serde_json::from_str(report.lines().last().unwrap_or("{}")).expect(&report);
    (summary, report)
}

/// The issue's own check: nine accounts play a Swiss of five rounds
/// through the API (one joins late, in from round 2), and the TRF the
/// server exports pairs again to the same pairs and byes every round.
#[tokio::test]
async fn a_swiss_of_nine_played_by_the_api_re_pairs_identically() {
    let Some(python) = other_engine() else {
        return;
    };
    let server = Server::start_with(fresh_sqlite("swiss_of_nine"), |c| {
        c.clock = Clock::stopped()
    })
    .await;
    let names = [
        "Ada", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy",
    ];
    // Who wins a game: the stronger by this order (not the pairing
    // numbers' order, which is by name: the standings mix).
    let strength = [
        "Fay", "Ben", "Ivy", "Dan", "Ada", "Hal", "Cat", "Gus", "Eve",
    ];
    let mut cookies = Vec::new();
    for n in names {
        cookies.push(sign_up(&server, n).await);
    }
    let cookie_of = |n: &str| cookies[names.iter().position(|m| *m == n).unwrap()].clone();
    let body = json!({"kind": "swiss", "name": "Nine", "starts_in_s": 60, "rounds": 5,
                      "clock": {"base_s": 60, "inc_s": 0}, "size": "9x9", "rated": false});
    let (status, made) = call(&server, "POST", "/api/tournaments", &cookies[0], Some(body)).await;
    assert_eq!(status, 201, "{made}");
    let id = made["id"].as_str().unwrap().to_string();
    for n in &names[..8] {
        let path = format!("/api/tournaments/{id}/join");
        let (status, v) = call(&server, "POST", &path, &cookie_of(n), None).await;
        assert_eq!(status, 200, "{v}");
    }
    server.advance(60_000);
    for round in 1..=5 {
        let t = tournament_until(&server, &id, &cookies[0], "the round", |t| {
            t["round"] == round
        })
        .await;
        if round == 1 {
            let path = format!("/api/tournaments/{id}/join");
            let (status, v) = call(&server, "POST", &path, &cookie_of("Ivy"), None).await;
            assert_eq!(status, 200, "{v}");
        }
        for g in t["games"].as_array().unwrap() {
            let gid = g["game"].as_str().unwrap();
            let (x, o) = (g["x"].as_str().unwrap(), g["o"].as_str().unwrap());
            let rank = |n: &str| strength.iter().position(|m| *m == n).unwrap();
            // X's turn, then O's where X is to lose; the loser resigns.
            play_turn(&server, gid, &cookie_of(x)).await;
            let loser = if rank(x) < rank(o) { o } else { x };
            if loser == x {
                play_turn(&server, gid, &cookie_of(o)).await;
            }
            let path = format!("/api/games/{gid}/resign");
            let (status, v) = call(&server, "POST", &path, &cookie_of(loser), None).await;
            assert_eq!(status, 200, "{v}");
        }
    }
    tournament_until(&server, &id, &cookies[0], "the end", |t| {
        t["state"] == "finished"
    })
    .await;
    let (status, bytes) = server
        .bytes("GET", &format!("/api/tournaments/{id}/trf"))
        .await;
    assert_eq!(status, 200);
    let dir = std::env::temp_dir().join(format!("vw_swiss_nine_{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temp dir");
    std::fs::write(dir.join("nine.trf"), &bytes).expect("write");
    let (summary, report) = check(&python, &dir, true);
    let _ = std::fs::remove_dir_all(&dir);
    if let Some(keep) = std::env::var_os("VW_SWISS_DIR") {
        std::fs::write(std::path::Path::new(&keep).join("nine.trf"), &bytes).expect("write");
    }
    eprintln!("{report}");
    assert_eq!(summary["rounds"], 5, "{report}");
    assert_eq!(summary["same_pairs"], 5, "{report}");
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

/// Each `001` line of a TRF by its pairing number: the name, and the
/// result columns of its first `rounds` rounds.
fn numbered(trf: &str, rounds: usize) -> std::collections::BTreeMap<String, (String, String)> {
    trf.lines()
        .filter(|l| l.starts_with("001 "))
        .map(|l| {
            let tpn = l.get(4..8).unwrap_or("").trim().to_string();
            let name = l.get(14..47).unwrap_or("").trim().to_string();
            let games = l.get(91..(91 + 10 * rounds).min(l.len())).unwrap_or("");
            (tpn, (name, games.trim_end().to_string()))
        })
        .collect()
}

/// Two players delete their accounts after round 2 (their names become
/// `deleted-…`, which sort elsewhere): nobody is renumbered, the rounds
/// played stay as they were in the TRF, and the TRF pairs again to what
/// was played (it renumbered 25–27 of 34 players, and the next rounds
/// were paired on the new numbers).
#[tokio::test]
async fn a_swiss_keeps_its_numbers_when_players_delete_their_accounts() {
    let server = Server::start_with(fresh_sqlite("swiss_deletions"), |c| {
        c.clock = Clock::stopped()
    })
    .await;
    // All rated alike: the pairing numbers go by name.
    let names = ["Ada", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"];
    let mut cookies = Vec::new();
    for n in names {
        cookies.push(sign_up(&server, n).await);
    }
    let cookie_of = |n: &str| cookies[names.iter().position(|m| *m == n).unwrap()].clone();
    let body = json!({"kind": "swiss", "name": "Deletions", "starts_in_s": 60, "rounds": 4,
                      "clock": {"base_s": 60, "inc_s": 0}, "size": "7x7", "rated": false});
    let (status, made) = call(&server, "POST", "/api/tournaments", &cookies[7], Some(body)).await;
    assert_eq!(status, 201, "{made}");
    let id = made["id"].as_str().unwrap().to_string();
    for n in names {
        let path = format!("/api/tournaments/{id}/join");
        let (status, v) = call(&server, "POST", &path, &cookie_of(n), None).await;
        assert_eq!(status, 200, "{v}");
    }
    server.advance(60_000);
    let trf = || {
        let server = &server;
        let path = format!("/api/tournaments/{id}/trf");
        async move {
            let (status, bytes) = server.bytes("GET", &path).await;
            assert_eq!(status, 200);
            String::from_utf8(bytes).expect("TRF is text")
        }
    };
    // Two players whose round-2 games are over, the first by name (a
    // deleted name, `deleted-…`, sorts after every other).
    let mut deleted: Vec<String> = Vec::new();
    let mut after_two = None;
    for round in 1..=4 {
        let t = tournament_until(&server, &id, &cookies[7], "the round", |t| {
            t["round"] == round || t["state"] == "finished"
        })
        .await;
        if t["state"] == "finished" {
            break;
        }
        let games = t["games"].as_array().unwrap().clone();
        for (k, g) in games.iter().enumerate() {
            let gid = g["game"].as_str().unwrap();
            let (x, o) = (g["x"].as_str().unwrap(), g["o"].as_str().unwrap());
            play_turn(&server, gid, &cookie_of(x)).await;
            let path = format!("/api/games/{gid}/resign");
            let (status, v) = call(&server, "POST", &path, &cookie_of(o), None).await;
            assert_eq!(status, 200, "{v}");
            // Round 2: once every game but the last is over, the TRF is
            // read, and two players whose games are over delete their
            // accounts before the last game ends.
            if round == 2 && k + 2 == games.len() {
                after_two = Some(trf().await);
                let last = &games[games.len() - 1];
                let mut done: Vec<String> = names
                    .iter()
                    .filter(|n| last["x"] != **n && last["o"] != **n)
                    .map(|n| n.to_string())
                    .collect();
                done.sort();
                deleted = done.into_iter().take(2).collect();
                for n in &deleted {
                    let body = json!({ "password": crate::accounts::PASSWORD }).to_string();
                    let (status, _, v) = crate::accounts::with_cookie(
                        &server,
                        "DELETE",
                        "/api/me",
                        Some(&cookie_of(n.as_str())),
                        Some(&body),
                    )
                    .await;
                    assert_eq!(status, 204, "{v}");
                }
            }
        }
    }
    tournament_until(&server, &id, &cookies[7], "the end", |t| {
        t["state"] == "finished"
    })
    .await;
    let before = numbered(&after_two.expect("read after round 2"), 2);
    let end = trf().await;
    let after = numbered(&end, 2);
    assert_eq!(before.len(), 8);
    for (tpn, (name, games)) in &before {
        let (now_named, now_games) = &after[tpn];
        // The first round's columns were complete then.
        assert_eq!(
            now_games.get(..10),
            games.get(..10),
            "number {tpn} ({name}, now {now_named}) kept its first round"
        );
        if deleted.contains(name) {
            assert!(now_named.starts_with("deleted-"), "{now_named}");
        } else {
            assert_eq!(now_named, name, "number {tpn} is still {name}");
        }
    }
    if let Some(python) = other_engine() {
        let dir = std::env::temp_dir().join(format!("vw_swiss_deletions_{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temp dir");
        std::fs::write(dir.join("deletions.trf"), &end).expect("write");
        let (summary, report) = check(&python, &dir, true);
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(summary["same_pairs"], summary["rounds"], "{report}");
    }
    server.stop().await;
}
