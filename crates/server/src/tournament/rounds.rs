//! The task's part for a Swiss tournament and a round robin: each
//! finished game onto the sheets (a win 1, a draw ½; a game not begun a
//! forfeit, lost by who did not step in time, who leaves a Swiss), then,
//! once no game of the round is played, the next round paired by the
//! Dutch system (a round robin: all its games at once), or the end.

use std::collections::HashSet;
use std::sync::Arc;

use virus_wars_pairing::history::{pairing_order, History};
use virus_wars_pairing::standings::{outcome_of, standings_of};
use virus_wars_pairing::swiss::{pair_round, Colour};
use virus_wars_pairing::Kind;

use super::making::{kept_apart, make_games, PairError, LEASE_MS};
use crate::games::create;
use crate::inbox::Raiser;
use crate::store::TournamentPlayer;
use crate::tournament::{Ended, NewPairing, NewRound, Scoring, TournamentRow};
use crate::App;

/// One pass over tournament `t` (running, its lease held).
pub(super) async fn run(app: &Arc<App>, t: &TournamentRow) -> Result<(), PairError> {
    let id = t.id.as_str();
    let mut open = 0;
    let mut scorings = Vec::new();
    for ended in app.store.unscored(id).await? {
        if ended.finished {
            scorings.push(score(&ended));
        } else {
            open += 1;
        }
    }
    if !scorings.is_empty() {
        app.store
            .score_pairings(id, &scorings, app.clock.now_ms() as i64)
            .await?;
    }
    if open > 0 {
        return Ok(());
    }
    let now = app.clock.now_ms() as i64;
    if !app.store.lease_tournament(id, now, now + LEASE_MS).await? {
        return Ok(());
    }
    let entrants = app.store.entrants_of(id).await?;
    let here: Vec<&TournamentPlayer> = entrants.iter().filter(|e| e.state == "in").collect();
    let apart = kept_apart(app, t, &entrants).await?;
    let next = match t.kind {
        Kind::RoundRobin if t.round == 0 && here.len() >= 2 => {
            let order = pairing_order(&entrants, t.starts_ms);
            Some(all_play_all(&here, &apart, new_numbers(&order)))
        }
        Kind::Swiss if t.round < t.rounds && here.len() >= 2 => {
            swiss_round(app, t, &entrants, &apart).await?
        }
        _ => None,
    };
    match next {
        Some(round) => store(app, t, round).await,
        None => finish(app, t, &entrants, now).await,
    }
}

/// A game's result on the sheets: points in halves.
fn score(ended: &Ended) -> Scoring {
    let p = &ended.pairing;
    let mut s = Scoring {
        game: p.game.clone(),
        result: ended.result.clone(),
        points: [0; 2],
        streaks: [0; 2],
        pause: [false; 2],
    };
    if ended.result == "aborted" || outcome_of(&ended.result, 0).is_none() {
        // Not begun: lost by forfeit by who did not step in time (X before
        // any step, else O), who is taken out of a Swiss.
        s.result = "aborted".into();
        let culprit = usize::from(ended.steps > 0);
        s.points[1 - culprit] = 2;
        s.pause[culprit] = true;
    } else {
        for k in 0..2 {
            s.points[k] = match outcome_of(&ended.result, k) {
                Some(virus_wars_pairing::arena::Outcome::Won) => 2,
                Some(virus_wars_pairing::arena::Outcome::Drawn) => 1,
                _ => 0,
            };
        }
    }
    s
}

/// The pairs of a round (accounts, X first) and its bye.
struct Round {
    number: i64,
    pairs: Vec<(String, String)>,
    bye: Option<String>,
    one_game_each: bool,
    /// Pairing numbers given for the first time: stored with the round.
    numbers: Vec<(String, i64)>,
}

/// The pairing numbers of `order` not stored yet.
fn new_numbers(order: &[&TournamentPlayer]) -> Vec<(String, i64)> {
    order
        .iter()
        .enumerate()
        .filter(|(_, e)| e.pairing_number == 0)
        .map(|(k, e)| (e.account.clone(), k as i64 + 1))
        .collect()
}

/// A round robin's one round: each pair twice, each with X once (but
/// those kept `apart`).
fn all_play_all(
    here: &[&TournamentPlayer],
    apart: &HashSet<(String, String)>,
    numbers: Vec<(String, i64)>,
) -> Round {
    let mut pairs = Vec::new();
    for (i, a) in here.iter().enumerate() {
        for b in &here[i + 1..] {
            if apart.contains(&(a.account.clone(), b.account.clone())) {
                continue;
            }
            pairs.push((a.account.clone(), b.account.clone()));
            pairs.push((b.account.clone(), a.account.clone()));
        }
    }
    Round {
        number: 1,
        pairs,
        bye: None,
        one_game_each: false,
        numbers,
    }
}

/// A Swiss tournament's next round, or `None` where no pairing keeps the
/// rules (the tournament ends).
async fn swiss_round(
    app: &Arc<App>,
    t: &TournamentRow,
    entrants: &[TournamentPlayer],
    apart: &HashSet<(String, String)>,
) -> Result<Option<Round>, PairError> {
    let pairings = app.store.pairings(&t.id).await?;
    let byes = app.store.byes(&t.id).await?;
    let history = History::new(entrants, &pairings, &byes, t.round, t.starts_ms);
    // Those kept apart count as having met (C1): never paired.
    let present: Vec<_> = history
        .order
        .iter()
        .enumerate()
        .filter(|(_, e)| e.state == "in")
        .map(|(k, e)| {
            let mut entrant = history.entrant(k);
            for (a, b) in apart.iter().filter(|(a, _)| *a == e.account) {
                entrant
                    .opponents
                    .extend(history.number(b).filter(|_| a == &e.account));
            }
            entrant
        })
        .collect();
    let account = |tpn: u32| history.order[tpn as usize - 1].account.clone();
    // The search is bounded (docs/tournaments.md) but takes the CPU for a
    // while in a big tournament: off the threads that serve requests.
    let (played, rounds) = (t.round as u32, t.rounds as u32);
    let paired =
        tokio::task::spawn_blocking(move || pair_round(&present, played, rounds, Colour::White))
            .await
            .map_err(|e| PairError::Settings(format!("the pairing stopped: {e}")))?;
    match paired {
        Ok(p) => Ok(Some(Round {
            number: t.round + 1,
            pairs: p
                .pairs
                .iter()
                .map(|&(w, b)| (account(w), account(b)))
                .collect(),
            bye: p.bye.map(account),
            one_game_each: true,
            numbers: new_numbers(&history.order),
        })),
        Err(e) => {
            tracing::info!(tournament = %t.id, round = t.round + 1, error = %e, "Swiss ends early");
            Ok(None)
        }
    }
}

async fn store(app: &Arc<App>, t: &TournamentRow, round: Round) -> Result<(), PairError> {
    let entrants = app.store.entrants_of(&t.id).await?;
    let find = |a: &str| entrants.iter().find(|e| e.account == a);
    let pairs: Vec<(&TournamentPlayer, &TournamentPlayer)> = round
        .pairs
        .iter()
        .filter_map(|(x, o)| Some((find(x)?, find(o)?)))
        .collect();
    let (made, notes) = make_games(app, t, &pairs).await?;
    let rows: Vec<NewPairing> = made
        .iter()
        .map(|(_, p)| NewPairing {
            game: p.game.clone(),
            accounts: p.accounts.clone(),
        })
        .collect();
    let now = app.clock.now_ms() as i64;
    let new = NewRound {
        round: round.number,
        pairs: &rows,
        bye: round.bye.as_deref(),
        one_game_each: round.one_game_each,
        notes: &notes,
        numbers: &round.numbers,
    };
    let Some(seqs) = app.store.store_round(&t.id, now, &new).await? else {
        return Ok(());
    };
    for (live, p) in made {
        create::created(app, live, &p.game);
    }
    Raiser::of(app).stored(&notes, &seqs);
    tracing::info!(tournament = %t.id, round = round.number, games = rows.len(), "round paired");
    Ok(())
}

async fn finish(
    app: &Arc<App>,
    t: &TournamentRow,
    entrants: &[TournamentPlayer],
    now: i64,
) -> Result<(), PairError> {
    let pairings = app.store.pairings(&t.id).await?;
    let byes = app.store.byes(&t.id).await?;
    let lines = standings_of(t.kind, entrants, &pairings, &byes);
    let places: Vec<(String, i64)> = lines
        .iter()
        .map(|l| (l.account.clone(), l.rank as i64))
        .collect();
    if app.store.finish_tournament(&t.id, now, &places).await? {
        tracing::info!(tournament = %t.id, players = places.len(), "tournament over");
    }
    Ok(())
}
