//! A tournament's standings, from its players and its games as stored:
//! the pages, the live socket and the final places all read them here.

use std::collections::HashMap;

use serde::Serialize;
use utoipa::ToSchema;

use super::arena::{self, Outcome, Standing};
use crate::record::{TournamentGame, TournamentPlayer};
use crate::Kind;

/// One game on a player's sheet.
#[derive(Clone, Debug, Serialize, ToSchema, PartialEq)]
pub struct SheetGame {
    /// The game ('' for a bye).
    pub game: String,
    /// `won`, `drawn`, `lost`, `aborted` (an arena's game not begun),
    /// `forfeit_won` and `forfeit_lost` (a Swiss's or round robin's game not
    /// begun: lost by who did not step in time), `playing`, or `bye` (a
    /// Swiss round's odd player out).
    pub result: &'static str,
    /// Its points (0 while it is played).
    #[serde(serialize_with = "whole_or_half")]
    #[schema(value_type = f64)]
    pub points: f64,
    /// The round (a Swiss tournament's or round robin's; 0 in an arena).
    pub round: i64,
    /// The player berserked in it.
    pub berserk: bool,
}

/// A line of the standings.
#[derive(Clone, Debug, Serialize, ToSchema, PartialEq)]
pub struct Line {
    /// 1 for the leader; players level on points and performance share
    /// no place (the name decides).
    pub rank: usize,
    pub name: String,
    /// An arena's points; a Swiss tournament's or round robin's (a win 1,
    /// a draw ½, the bye 1).
    #[serde(serialize_with = "whole_or_half")]
    #[schema(value_type = f64)]
    pub points: f64,
    /// A Swiss tournament's first tiebreak: the opponents' points.
    pub buchholz: Option<f64>,
    /// A Swiss tournament's second tiebreak, a round robin's first: the
    /// points of those beaten and half of those drawn.
    pub sonneborn_berger: Option<f64>,
    /// The mean of its opponents' ratings, 500 more for a win and 500
    /// less for a loss; `null` before its first game.
    pub performance: Option<f64>,
    /// Its rating when it joined.
    pub rating: i64,
    /// Two wins in a row or more: its next game counts double.
    pub on_fire: bool,
    /// `in` or `paused`.
    pub state: String,
    /// The game it plays now.
    pub playing: Option<String>,
    /// Its games, in the order they were paired.
    pub sheet: Vec<SheetGame>,
    /// The account (not shown: the pages name players by name).
    #[serde(skip)]
    pub account: String,
}

/// A tournament's standings by its kind: an arena's by points, then
/// performance, then name; a Swiss tournament's by points, Buchholz,
/// Sonneborn-Berger, then name; a round robin's by points,
/// Sonneborn-Berger, then name. `byes`: (round, account).
pub fn standings_of(
    kind: Kind,
    entrants: &[TournamentPlayer],
    pairings: &[TournamentGame],
    byes: &[(i64, String)],
) -> Vec<Line> {
    let mut lines = standings(entrants, pairings);
    if kind == Kind::Arena {
        return lines;
    }
    let mut final_points: HashMap<&str, f64> = HashMap::new();
    for line in lines.iter_mut() {
        line.points /= 2.0;
        final_points.insert(entrant_of(entrants, &line.account), line.points);
        // A game not begun is a forfeit here: won by who stepped in time.
        for g in line.sheet.iter_mut() {
            g.points /= 2.0;
            if g.result == "aborted" {
                g.result = if g.points > 0.0 {
                    "forfeit_won"
                } else {
                    "forfeit_lost"
                };
            }
        }
        for (r, account) in byes {
            if *account == line.account {
                line.sheet.push(SheetGame {
                    game: String::new(),
                    result: "bye",
                    points: 1.0,
                    round: *r,
                    berserk: false,
                });
            }
        }
        line.sheet.sort_by_key(|g| g.round);
        line.on_fire = false;
    }
    // Buchholz: the points of each opponent met over the board; Sonneborn-
    // Berger: of each one beaten, and half of each one drawn with.
    let mut tiebreaks: HashMap<&str, (f64, f64)> = HashMap::new();
    for p in pairings.iter().filter(|p| p.scored) {
        let accounts = [p.x_account.as_str(), p.o_account.as_str()];
        for k in 0..2 {
            let theirs = final_points.get(accounts[1 - k]).copied().unwrap_or(0.0);
            let (buchholz, sb) = match outcome_of(&p.result, k) {
                Some(Outcome::Won) => (theirs, theirs),
                Some(Outcome::Drawn) => (theirs, theirs / 2.0),
                Some(Outcome::Lost) => (theirs, 0.0),
                None => (0.0, 0.0),
            };
            let t = tiebreaks.entry(accounts[k]).or_default();
            t.0 += buchholz;
            t.1 += sb;
        }
    }
    for line in lines.iter_mut() {
        let (buchholz, sb) = tiebreaks
            .get(line.account.as_str())
            .copied()
            .unwrap_or_default();
        line.buchholz = (kind == Kind::Swiss).then_some(buchholz);
        line.sonneborn_berger = Some(sb);
    }
    let key = |l: &Line| {
        (
            l.points,
            l.buchholz.unwrap_or(0.0),
            l.sonneborn_berger.unwrap_or(0.0),
        )
    };
    lines.sort_by(|a, b| {
        let (ka, kb) = (key(a), key(b));
        kb.partial_cmp(&ka)
            .unwrap_or(std::cmp::Ordering::Equal)
            .then_with(|| a.name.cmp(&b.name))
    });
    for (k, line) in lines.iter_mut().enumerate() {
        line.rank = k + 1;
    }
    lines
}

/// Points as JSON: a whole number as one (an arena's `3`), a half as a
/// decimal (a Swiss tournament's `2.5`).
pub fn whole_or_half<S: serde::Serializer>(points: &f64, s: S) -> Result<S::Ok, S::Error> {
    if points.fract() == 0.0 && points.abs() < 1e15 {
        s.serialize_i64(*points as i64)
    } else {
        s.serialize_f64(*points)
    }
}

/// The entrant's account as `entrants` holds it (a borrow that outlives
/// the lines).
fn entrant_of<'a>(entrants: &'a [TournamentPlayer], account: &str) -> &'a str {
    entrants
        .iter()
        .find(|e| e.account == account)
        .map_or("", |e| e.account.as_str())
}

/// An arena's standings: points, then performance, then name.
pub fn standings(entrants: &[TournamentPlayer], pairings: &[TournamentGame]) -> Vec<Line> {
    let rating: HashMap<&str, i64> = entrants
        .iter()
        .map(|e| (e.account.as_str(), e.rating))
        .collect();
    let mut sheets: HashMap<&str, Vec<SheetGame>> = HashMap::new();
    let mut faced: HashMap<&str, Vec<(f64, Outcome)>> = HashMap::new();
    for p in pairings {
        let accounts = [p.x_account.as_str(), p.o_account.as_str()];
        for (k, account) in accounts.into_iter().enumerate() {
            let outcome = outcome_of(&p.result, k);
            let result = match (p.scored, outcome) {
                (false, _) => "playing",
                (true, Some(Outcome::Won)) => "won",
                (true, Some(Outcome::Drawn)) => "drawn",
                (true, Some(Outcome::Lost)) => "lost",
                (true, None) => "aborted",
            };
            sheets.entry(account).or_default().push(SheetGame {
                game: p.game.clone(),
                result,
                points: p.points[k] as f64,
                round: p.round,
                berserk: p.berserk[k],
            });
            if let (true, Some(o)) = (p.scored, outcome) {
                let theirs = rating.get(accounts[1 - k]).copied().unwrap_or(1500);
                faced.entry(account).or_default().push((theirs as f64, o));
            }
        }
    }
    let mut lines: Vec<Line> = entrants
        .iter()
        .map(|e| Line {
            rank: 0,
            name: e.name.clone(),
            points: e.points as f64,
            buchholz: None,
            sonneborn_berger: None,
            performance: arena::performance(faced.get(e.account.as_str()).map_or(&[], |v| v))
                .map(f64::round),
            rating: e.rating,
            on_fire: e.streak as usize >= arena::FIRE_AFTER,
            state: e.state.clone(),
            playing: (!e.playing.is_empty()).then(|| e.playing.clone()),
            sheet: sheets.remove(e.account.as_str()).unwrap_or_default(),
            account: e.account.clone(),
        })
        .collect();
    lines.sort_by(|a, b| arena::standings_order(&standing(a), &standing(b)));
    for (k, line) in lines.iter_mut().enumerate() {
        line.rank = k + 1;
    }
    lines
}

fn standing(l: &Line) -> Standing {
    Standing {
        name: l.name.clone(),
        points: l.points.max(0.0) as u32,
        performance: l.performance,
    }
}

/// A stored result (`x`, `o`, `draw`, `aborted`) for seat `k` (0 for X).
pub fn outcome_of(result: &str, k: usize) -> Option<Outcome> {
    let mine = if k == 0 { "x" } else { "o" };
    match result {
        "draw" => Some(Outcome::Drawn),
        "x" | "o" if result == mine => Some(Outcome::Won),
        "x" | "o" => Some(Outcome::Lost),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entrant(account: &str, rating: i64, points: i64) -> TournamentPlayer {
        TournamentPlayer {
            account: account.into(),
            name: account.to_uppercase(),
            rating,
            joined_ms: 0,
            state: "in".into(),
            points,
            streak: 0,
            playing: String::new(),
            free_since_ms: 0,
            last_opponent: String::new(),
            x_balance: 0,
            pairing_number: 0,
        }
    }

    fn game(id: &str, x: &str, o: &str, result: &str, points: [i64; 2]) -> TournamentGame {
        TournamentGame {
            game: id.into(),
            x_account: x.into(),
            o_account: o.into(),
            paired_ms: 0,
            berserk: [false; 2],
            scored: !result.is_empty(),
            result: result.into(),
            points,
            round: 0,
        }
    }

    #[test]
    fn standings_rank_by_points_then_performance() {
        let entrants = [
            entrant("a", 1500, 2),
            entrant("b", 1700, 2),
            entrant("c", 1600, 0),
        ];
        let games = [
            game("g1", "a", "c", "x", [2, 0]),
            game("g2", "c", "b", "o", [0, 2]),
            game("g3", "a", "b", "", [0, 0]),
            game("g4", "c", "a", "aborted", [0, 0]),
        ];
        let lines = standings(&entrants, &games);
        let names: Vec<&str> = lines.iter().map(|l| l.name.as_str()).collect();
        // a and b both beat c (rating 1600): level performance, by name.
        assert_eq!(names, ["A", "B", "C"]);
        assert_eq!(lines[0].performance, Some(2100.0));
        assert_eq!(lines[2].performance, Some(1100.0));
        let a: Vec<&str> = lines[0].sheet.iter().map(|s| s.result).collect();
        assert_eq!(a, ["won", "playing", "aborted"]);
        assert_eq!(lines.iter().map(|l| l.rank).collect::<Vec<_>>(), [1, 2, 3]);
    }
}
