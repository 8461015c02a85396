//! An arena's rules, as lichess plays them (docs/tournaments.md): a game's
//! points with the streak and berserk, a player's performance, the order of
//! the standings, and who plays whom among the players waiting. No I/O:
//! the pairing task reads the tournament, asks these, and writes what they
//! say in one transaction.

use std::cmp::Ordering;

/// How a game ended for one of its players.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Won,
    Drawn,
    Lost,
}

/// One finished tournament game of a player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    pub outcome: Outcome,
    /// The player halved its own clock before its first step.
    pub berserk: bool,
    /// The turns the player played in it.
    pub turns: u32,
}

/// Turns a berserk winner must have played for its extra point: a game
/// resigned at once (say, between friends) earns nothing more.
pub const BERSERK_TURNS: u32 = 7;

/// Wins in a row after which a game counts double (on fire).
pub const FIRE_AFTER: usize = 2;

/// One game's points on a player's sheet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scored {
    pub points: u32,
    /// Played after two wins in a row: its points were doubled.
    pub on_fire: bool,
    /// Its berserk earned the extra point.
    pub berserk_point: bool,
}

/// The points of each of a player's games, in the order they were played:
/// a win 2, a draw 1, a loss 0; after two wins in a row each game counts
/// double until one is not a win; a berserk win of at least
/// [`BERSERK_TURNS`] turns one point more (not doubled).
pub fn sheet(games: &[Played]) -> Vec<Scored> {
    let mut wins_in_a_row = 0;
    games
        .iter()
        .map(|g| {
            let (scored, next) = score(wins_in_a_row, g);
            wins_in_a_row = next;
            scored
        })
        .collect()
}

/// One game's points for a player who had won `wins_in_a_row` games in a
/// row before it (see [`sheet`]), and its wins in a row after it: the
/// pairing task scores each game as it ends with this.
pub fn score(wins_in_a_row: u32, g: &Played) -> (Scored, u32) {
    let on_fire = wins_in_a_row as usize >= FIRE_AFTER;
    let base = match g.outcome {
        Outcome::Won => 2,
        Outcome::Drawn => 1,
        Outcome::Lost => 0,
    };
    let berserk_point = g.berserk && g.outcome == Outcome::Won && g.turns >= BERSERK_TURNS;
    let next = match g.outcome {
        Outcome::Won => wins_in_a_row.saturating_add(1),
        _ => 0,
    };
    let scored = Scored {
        points: base * if on_fire { 2 } else { 1 } + u32::from(berserk_point),
        on_fire,
        berserk_point,
    };
    (scored, next)
}

/// A player's performance over its games, each with its opponent's rating
/// when it was paired: the mean of the opponent's rating, 500 more for a
/// win and 500 less for a loss (lichess's). `None` before a game.
pub fn performance(games: &[(f64, Outcome)]) -> Option<f64> {
    if games.is_empty() {
        return None;
    }
    let sum: f64 = games
        .iter()
        .map(|(rating, outcome)| match outcome {
            Outcome::Won => rating + 500.0,
            Outcome::Drawn => *rating,
            Outcome::Lost => rating - 500.0,
        })
        .sum();
    Some(sum / games.len() as f64)
}

/// A line of the standings.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    pub name: String,
    pub points: u32,
    pub performance: Option<f64>,
}

/// The standings' order: points, then performance (none last), then name.
pub fn standings_order(a: &Standing, b: &Standing) -> Ordering {
    b.points
        .cmp(&a.points)
        .then_with(|| {
            let (pa, pb) = (
                a.performance.unwrap_or(f64::MIN),
                b.performance.unwrap_or(f64::MIN),
            );
            pb.partial_cmp(&pa).unwrap_or(Ordering::Equal)
        })
        .then_with(|| a.name.cmp(&b.name))
}

/// A player waiting to be paired.
#[derive(Clone, Debug, PartialEq)]
pub struct Waiting {
    pub id: String,
    /// Its place in the standings (1 the leader).
    pub rank: usize,
    /// Whom it played last, if anyone.
    pub last_opponent: Option<String>,
    /// Its games as X less its games as O in this tournament.
    pub x_balance: i32,
    /// Those it may never meet (in a rated tournament: its own bots, or
    /// the bot's owner).
    pub never: Vec<String>,
}

/// Cost of pairing two players again right after their game, against a
/// rank apart: only when nobody else is free (two players left) does it
/// happen.
const REMATCH: usize = 1_000_000;
/// Cost of a pair that may never meet: such a pair is left out.
const NEVER: usize = 1_000_000_000;

/// Most waiting players paired by the exact search (every pairing of
/// them weighed); more are paired greedily down the standings.
pub const EXACT_UP_TO: usize = 12;

fn cost(a: &Waiting, b: &Waiting) -> usize {
    if a.never.contains(&b.id) || b.never.contains(&a.id) {
        return NEVER;
    }
    let rematch = a.last_opponent.as_deref() == Some(b.id.as_str())
        || b.last_opponent.as_deref() == Some(a.id.as_str());
    a.rank.abs_diff(b.rank) + if rematch { REMATCH } else { 0 }
}

/// Who plays whom among `waiting`: each pair `(x, o)` by index into
/// `waiting`, the first playing X. Players near each other in the
/// standings meet; never the opponent just played while another is free;
/// with an odd number, one waits for the next game to end (the one whose
/// absence costs least). X goes to the one who has had it less.
pub fn pair(waiting: &[Waiting]) -> Vec<(usize, usize)> {
    let mut order: Vec<usize> = (0..waiting.len()).collect();
    order.sort_by_key(|&k| (waiting[k].rank, waiting[k].id.clone()));
    let pairs = if order.len() <= EXACT_UP_TO {
        best_pairs(waiting, &order)
    } else {
        greedy_pairs(waiting, &order)
    };
    pairs
        .into_iter()
        .filter(|&(a, b)| cost(&waiting[a], &waiting[b]) < NEVER)
        .map(|(a, b)| {
            let (wa, wb) = (&waiting[a], &waiting[b]);
            // Fewer games as X plays X; at a tie, the lower in the standings.
            if (wa.x_balance, std::cmp::Reverse(wa.rank))
                <= (wb.x_balance, std::cmp::Reverse(wb.rank))
            {
                (a, b)
            } else {
                (b, a)
            }
        })
        .collect()
}

/// The pairing of least total cost, every one weighed (`order` at most
/// [`EXACT_UP_TO`] long: 10,395 pairings of 12).
fn best_pairs(waiting: &[Waiting], order: &[usize]) -> Vec<(usize, usize)> {
    fn search(
        waiting: &[Waiting],
        left: &mut Vec<usize>,
        chosen: &mut Vec<(usize, usize)>,
        cost_so_far: usize,
        best: &mut (usize, Vec<(usize, usize)>),
    ) {
        if cost_so_far >= best.0 {
            return;
        }
        if left.len() < 2 {
            *best = (cost_so_far, chosen.clone());
            return;
        }
        // With an odd number, the first may be the one that waits.
        let first = left.remove(0);
        for k in 0..left.len() {
            let other = left.remove(k);
            chosen.push((first, other));
            let c = cost(&waiting[first], &waiting[other]);
            search(waiting, left, chosen, cost_so_far + c, best);
            chosen.pop();
            left.insert(k, other);
        }
        if left.len() % 2 == 0 {
            // `first` waits: the rest pair among themselves.
            search(waiting, left, chosen, cost_so_far, best);
        }
        left.insert(0, first);
    }
    let mut left = order.to_vec();
    let mut best = (usize::MAX, Vec::new());
    search(waiting, &mut left, &mut Vec::new(), 0, &mut best);
    best.1
}

/// Down the standings: each player meets the nearest one below it that it
/// did not just play (the nearest at all where there is none).
fn greedy_pairs(waiting: &[Waiting], order: &[usize]) -> Vec<(usize, usize)> {
    let mut free: Vec<usize> = order.to_vec();
    let mut pairs = Vec::new();
    while free.len() >= 2 {
        let a = free.remove(0);
        let pick = (0..free.len().min(EXACT_UP_TO))
            .min_by_key(|&k| cost(&waiting[a], &waiting[free[k]]))
            .unwrap_or(0);
        let b = free.remove(pick);
        pairs.push((a, b));
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn played(outcome: Outcome) -> Played {
        Played {
            outcome,
            berserk: false,
            turns: 20,
        }
    }

    #[test]
    fn a_sheet_doubles_after_two_wins_until_a_game_is_not_won() {
        use Outcome::*;
        let games: Vec<Played> = [Won, Won, Won, Drawn, Won, Lost, Won, Won, Won, Won, Lost]
            .into_iter()
            .map(played)
            .collect();
        let points: Vec<u32> = sheet(&games).iter().map(|s| s.points).collect();
        // W W W(fire) D(fire: 2) W W... the draw ends the streak.
        assert_eq!(points, [2, 2, 4, 2, 2, 0, 2, 2, 4, 4, 0]);
        let fire: Vec<bool> = sheet(&games).iter().map(|s| s.on_fire).collect();
        assert_eq!(
            fire,
            [false, false, true, true, false, false, false, false, true, true, true]
        );
    }

    #[test]
    fn berserk_earns_a_point_for_a_win_of_seven_turns() {
        let berserk = |outcome, turns| Played {
            outcome,
            berserk: true,
            turns,
        };
        let s = sheet(&[
            berserk(Outcome::Won, 7),
            berserk(Outcome::Won, 6),
            berserk(Outcome::Won, 30),
            berserk(Outcome::Drawn, 30),
            berserk(Outcome::Lost, 30),
        ]);
        let points: Vec<u32> = s.iter().map(|s| s.points).collect();
        // The third is on fire: 4, and the berserk point is not doubled.
        assert_eq!(points, [3, 2, 5, 2, 0]);
        assert_eq!(
            s.iter().map(|s| s.berserk_point).collect::<Vec<_>>(),
            [true, false, true, false, false]
        );
    }

    #[test]
    fn performance_is_the_mean_of_ratings_give_or_take_500() {
        assert_eq!(performance(&[]), None);
        let p = performance(&[
            (1500.0, Outcome::Won),
            (1700.0, Outcome::Lost),
            (1600.0, Outcome::Drawn),
        ]);
        assert_eq!(p, Some((2000.0 + 1200.0 + 1600.0) / 3.0));
    }

    #[test]
    fn standings_go_by_points_then_performance_then_name() {
        let line = |name: &str, points, performance| Standing {
            name: name.into(),
            points,
            performance,
        };
        let mut lines = [
            line("cy", 4, Some(1500.0)),
            line("al", 4, None),
            line("bo", 6, Some(1200.0)),
            line("di", 4, Some(1600.0)),
            line("ab", 4, None),
        ];
        lines.sort_by(standings_order);
        let names: Vec<&str> = lines.iter().map(|l| l.name.as_str()).collect();
        assert_eq!(names, ["bo", "di", "cy", "ab", "al"]);
    }

    fn waiting(id: &str, rank: usize, last: Option<&str>, x_balance: i32) -> Waiting {
        Waiting {
            id: id.into(),
            rank,
            last_opponent: last.map(String::from),
            x_balance,
            never: Vec::new(),
        }
    }

    fn names(w: &[Waiting], pairs: &[(usize, usize)]) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = pairs
            .iter()
            .map(|&(x, o)| (w[x].id.clone(), w[o].id.clone()))
            .collect();
        out.sort();
        out
    }

    #[test]
    fn neighbours_in_the_standings_meet_and_never_the_last_opponent_while_another_is_free() {
        // a and b just played each other: a meets c, b meets d.
        let w = vec![
            waiting("a", 1, Some("b"), 0),
            waiting("b", 2, Some("a"), 0),
            waiting("c", 3, None, 0),
            waiting("d", 4, None, 0),
        ];
        let pairs = names(&w, &pair(&w));
        assert_eq!(pairs.len(), 2);
        for (x, o) in &pairs {
            assert!(
                !matches!((x.as_str(), o.as_str()), ("a", "b") | ("b", "a")),
                "{pairs:?}"
            );
        }
        // Two free who just played: they meet again rather than wait.
        let two = vec![waiting("a", 1, Some("b"), 0), waiting("b", 2, Some("a"), 0)];
        assert_eq!(pair(&two).len(), 1);
        // Three: one waits.
        let three = vec![
            waiting("a", 1, None, 0),
            waiting("b", 2, None, 0),
            waiting("c", 3, None, 0),
        ];
        assert_eq!(pair(&three).len(), 1);
        assert!(pair(&[waiting("a", 1, None, 0)]).is_empty());
    }

    #[test]
    fn x_goes_to_who_had_it_less() {
        let w = vec![waiting("a", 1, None, 2), waiting("b", 2, None, -1)];
        assert_eq!(names(&w, &pair(&w)), [("b".into(), "a".into())]);
        let w = vec![waiting("a", 1, None, -1), waiting("b", 2, None, 0)];
        assert_eq!(names(&w, &pair(&w)), [("a".into(), "b".into())]);
    }

    #[test]
    fn many_waiting_are_each_paired_once_with_a_near_rank() {
        let w: Vec<Waiting> = (0..101)
            .map(|k| {
                let last = (k % 2 == 0).then(|| format!("p{}", k + 1));
                waiting(&format!("p{k}"), k + 1, last.as_deref(), 0)
            })
            .collect();
        let pairs = pair(&w);
        assert_eq!(pairs.len(), 50);
        let mut seen = std::collections::HashSet::new();
        for &(x, o) in &pairs {
            assert!(seen.insert(x) && seen.insert(o), "paired twice");
            assert!(
                w[x].rank.abs_diff(w[o].rank) <= 3,
                "{} {}",
                w[x].id,
                w[o].id
            );
            assert_ne!(w[x].last_opponent.as_deref(), Some(w[o].id.as_str()));
            assert_ne!(w[o].last_opponent.as_deref(), Some(w[x].id.as_str()));
        }
    }

    #[test]
    fn those_who_may_never_meet_are_not_paired() {
        let mut bot = waiting("bot:b", 1, None, 0);
        bot.never = vec!["owner".into()];
        let owner = waiting("owner", 2, None, 0);
        let other = waiting("c", 3, None, 0);
        let third = waiting("d", 4, None, 0);
        // Neighbours in the standings, but the bot meets someone else.
        let pairs = pair(&[bot.clone(), owner.clone(), other, third]);
        assert_eq!(pairs.len(), 2);
        assert!(
            !pairs.contains(&(0, 1)) && !pairs.contains(&(1, 0)),
            "{pairs:?}"
        );
        // Alone together, they wait.
        assert_eq!(pair(&[bot, owner]), []);
    }
}
