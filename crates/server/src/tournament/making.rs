//! What the tournaments' task shares across the kinds: the lease's length,
//! why a round failed, and the games of a pairing made ready to store
//! (each seat held by its player's account, a bot's by its token).

use std::collections::HashSet;
use std::sync::Arc;

use serde_json::json;
use virus_wars_rules::Side;

use crate::games::create::{self, seating, Sitter};
use crate::games::settings::settings;
use crate::inbox::{self, Kind};
use crate::live::LiveGame;
use crate::seat::Seat;
use crate::store::{Holder, NewNote, StoreError, TournamentPlayer};
use crate::tournament::{NewPairing, TournamentRow};
use crate::view::{self, NewGame};
use crate::{ids, App};

/// How long a lease on pairing a tournament holds unless it is renewed.
pub const LEASE_MS: i64 = 5_000;

/// Why a round of a tournament failed (it is tried again next second).
#[derive(Debug, thiserror::Error)]
pub enum PairError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("{0}")]
    Settings(String),
}

/// The games of `pairs` (X first), ready to store, and the notes that
/// tell their players.
pub(super) async fn make_games(
    app: &Arc<App>,
    t: &TournamentRow,
    pairs: &[(&TournamentPlayer, &TournamentPlayer)],
) -> Result<(Vec<(LiveGame, NewPairing)>, Vec<NewNote>), PairError> {
    let request: NewGame = serde_json::from_str(&t.settings)
        .map_err(|e| PairError::Settings(format!("the games' options: {e}")))?;
    let s = settings(&request).map_err(|e| PairError::Settings(e.0))?;
    let mut made = Vec::new();
    let mut notes = Vec::new();
    for &(x, o) in pairs {
        let seats = seating(Side::X, sitter(app, x).await?, sitter(app, o).await?);
        let (live, row) = create::prepare(app, &s, seats).map_err(|e| PairError::Settings(e.0))?;
        for (me, them, side) in [(x, o, Side::X), (o, x, Side::O)] {
            notes.push(inbox::note(
                &me.account,
                Kind::TournamentGame,
                &row.id,
                json!({"tournament": t.id, "name": t.name, "game": row.id,
                       "side": view::side_name(side), "opponent": them.name,
                       "round_robin": t.kind == virus_wars_pairing::Kind::RoundRobin}),
            ));
        }
        made.push((
            live,
            NewPairing {
                game: row,
                accounts: [x.account.clone(), o.account.clone()],
            },
        ));
    }
    Ok((made, notes))
}

/// The seat a player sits in: a person's is held by its account (its page
/// plays it), a bot's by the bot's token, so that the game starts at once
/// and the bot finds it among its games.
async fn sitter(app: &App, e: &TournamentPlayer) -> Result<Sitter, PairError> {
    if let Some(bot) = e.account.strip_prefix("bot:") {
        let hash = app.store.bot_token(bot).await?.unwrap_or_default();
        return Ok(Sitter {
            seat: Seat::Bot(bot.to_string()),
            holder: Holder::new(&hash, bot, &e.account),
        });
    }
    Ok(Sitter {
        seat: Seat::Human,
        holder: Holder::new(&ids::token_hash(&ids::token()), &e.name, &e.account),
    })
}

/// The pairs of `entrants` who never meet: two players where one blocks
/// the other (any tournament: a block keeps them apart as it keeps their
/// challenges), and in a rated tournament a bot and the player who
/// registered it, and two bots of one player (a rated game is never played
/// against your own bot). Unordered: each pair both ways round.
pub(super) async fn kept_apart(
    app: &App,
    t: &TournamentRow,
    entrants: &[TournamentPlayer],
) -> Result<HashSet<(String, String)>, PairError> {
    let mut apart = HashSet::new();
    for (a, b) in app.store.blocks_in_tournament(&t.id).await? {
        apart.insert((b.clone(), a.clone()));
        apart.insert((a, b));
    }
    if t.category.is_empty() {
        return Ok(apart);
    }
    let mut owner_of: Vec<(String, String)> = Vec::new();
    for e in entrants.iter().filter(|e| e.account.starts_with("bot:")) {
        let owner = app
            .store
            .account(&e.account)
            .await?
            .map(|a| a.owner)
            .unwrap_or_default();
        if !owner.is_empty() {
            owner_of.push((e.account.clone(), owner));
        }
    }
    for (bot, owner) in &owner_of {
        apart.insert((bot.clone(), owner.clone()));
        apart.insert((owner.clone(), bot.clone()));
        for (other, theirs) in &owner_of {
            if other != bot && theirs == owner {
                apart.insert((bot.clone(), other.clone()));
            }
        }
    }
    Ok(apart)
}
