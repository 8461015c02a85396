//! A game in play as the API shows it: its state (HTTP answers and every
//! socket message), its clocks as of a moment, and who sits where.

use serde::Serialize;
use virus_wars_ai::{PlayerSpec, Seat};
use virus_wars_rules::{position_string, Side};

use super::LiveGame;
use crate::view::{
    board_rows, side_name, variant_info, BySide, ClockState, EndingState, GameState, PlayerInfo,
};

/// Who sits on a seat (a person by the name they chose, '' for none), as
/// the API says it.
pub fn seat_info(seat: &Seat, name: &str) -> PlayerInfo {
    {
        match seat {
            Seat::Human => PlayerInfo {
                kind: "human".into(),
                level: None,
                name: (!name.is_empty()).then(|| name.to_string()),
                account: false,
            },
            Seat::Bot(name) => PlayerInfo {
                kind: "bot".into(),
                level: None,
                name: Some(name.clone()),
                account: false,
            },
            Seat::Computer(spec) => PlayerInfo {
                kind: "computer".into(),
                level: match spec {
                    PlayerSpec::Level(n) => Some(*n),
                    _ => None,
                },
                name: None,
                account: false,
            },
        }
    }
}

impl LiveGame {
    /// Who plays `side`, as the API says it.
    pub fn player(&self, side: Side) -> PlayerInfo {
        PlayerInfo {
            account: !self.accounts[side.index()].is_empty(),
            ..seat_info(self.table.seat(side), &self.names[side.index()])
        }
    }

    /// The game's record (`.vwr`): the server's event, the game's id and
    /// date, the players by their names, the clock and how it ended.
    pub fn record(&self) -> virus_wars_rules::record::Record {
        let mut r = self.table.record();
        r.event = "virus-wars server".into();
        r.site = format!("game {}", self.id);
        r.date = super::record_date(self.created_ms);
        // A person is named by the name they chose (or their account's).
        for (player, name) in [&mut r.x_player, &mut r.o_player]
            .into_iter()
            .zip(&self.names)
        {
            if !name.is_empty() {
                player.clone_from(name);
            }
        }
        if let Some(c) = self.table.contest.clocks {
            r.time_control = if c.control.per_turn {
                format!("{}d/turn", c.control.base_ms / 86_400_000)
            } else {
                format!(
                    "{}+{}",
                    c.control.base_ms as f64 / 1000.0,
                    c.control.increment_ms as f64 / 1000.0
                )
            };
        }
        if self.table.contest.aborted() {
            r.termination = "aborted".into();
        }
        r
    }

    /// Whether a person may take `side`'s seat.
    pub fn seat_free(&self, side: Side) -> bool {
        *self.table.seat(side) == Seat::Human && self.token_hashes[side.index()].is_empty()
    }

    /// The time left as of `now` for the side to move to make the first
    /// step of its first turn, while the game is played and that is timed.
    fn first_step_left(&self, now: u64) -> Option<u64> {
        if self.waiting() || self.computer_to_move() {
            return None;
        }
        self.table.contest.first_step_left(now)
    }

    /// The clocks as of `now`.
    pub fn clock_state(&self, now: u64) -> Option<ClockState> {
        let c = &self.table.contest;
        c.clocks.map(|k| {
            // No clock runs before both seats are taken, nor after the end;
            // the computer's is shown stopped during its turn (it runs only
            // while the computer thinks, and is charged when it plays).
            // Nor during each side's first turn (the clocks start after it).
            let mover = (!c.finished()
                && !self.waiting()
                && !self.computer_to_move()
                && c.clocks_started())
            .then(|| c.side_to_move());
            let left = |s: Side| match mover {
                Some(m) => k.left_at(s, m, now),
                None => k.left_ms[s.index()],
            };
            ClockState {
                base_s: k.control.base_ms as f64 / 1000.0,
                inc_s: k.control.increment_ms as f64 / 1000.0,
                days_per_turn: k.control.per_turn.then_some(k.control.base_ms / 86_400_000),
                x_ms: left(Side::X),
                o_ms: left(Side::O),
                running: mover.map(side_name),
                first_step_ms: self.first_step_left(now),
            }
        })
    }

    /// The whole game as of `now`, nothing hidden: what everyone is shown
    /// of a game without fog, and of every game once it is over (for a fog
    /// game in play, see [`LiveGame::state_for`]).
    pub(super) fn state(&self, now: u64) -> GameState {
        let c = &self.table.contest;
        let p = c.game.position();
        let status = match (c.aborted(), c.ending()) {
            (true, _) => "aborted".to_string(),
            (false, Some(e)) => e.outcome.to_string(),
            (false, None) => format!("{} to move", p.side()),
        };
        let legal = if c.finished() {
            Vec::new()
        } else {
            p.legal_steps().iter().map(|s| s.to_string()).collect()
        };
        let turns = c.game.turns();
        let cells = |t: &virus_wars_rules::PlayedTurn| -> Vec<String> {
            t.steps.iter().map(|s| s.to_string()).collect()
        };
        let last_turn = turns.last().map_or_else(Vec::new, cells);
        // The turn in progress is the mover's; the whole one is before it.
        let in_progress = !c.finished() && turns.last().is_some_and(|t| t.side == p.side());
        let whole = turns.len() - usize::from(in_progress);
        let previous_turn = whole
            .checked_sub(1)
            .map_or_else(Vec::new, |k| cells(&turns[k]));
        GameState {
            version: self.version,
            id: self.id.clone(),
            variant: variant_info(self.variant()),
            steps: c.game.steps().iter().map(|s| s.to_string()).collect(),
            seq: c.seq(),
            position: Some(position_string::write(p)),
            to_move: (!c.finished()).then(|| side_name(p.side())),
            status,
            ending: EndingState::of(c.ending(), c.aborted()),
            legal,
            board: board_rows(p),
            steps_left: p.steps_left(),
            last_turn,
            previous_turn,
            abortable: !c.finished() && c.abortable(),
            turns: turns
                .iter()
                .enumerate()
                .map(|(k, t)| format!("{}. {t}", k + 1))
                .collect(),
            clocks: self.clock_state(now),
            players: BySide {
                x: self.player(Side::X),
                o: self.player(Side::O),
            },
            seats_free: BySide {
                x: self.seat_free(Side::X),
                o: self.seat_free(Side::O),
            },
            rated: self.rated,
            listed: self.listed,
            draw_offer: self.table.draw_offer.map(side_name),
            draws_allowed: c.draws_allowed(),
            rematch: self.table.rematch.clone(),
            fog: None,
        }
    }
}

/// The live socket's message for a state.
pub fn state_message(state: &GameState) -> String {
    #[derive(Serialize)]
    struct Message<'a> {
        #[serde(rename = "type")]
        kind: &'static str,
        #[serde(flatten)]
        state: &'a GameState,
    }
    serde_json::to_string(&Message {
        kind: "state",
        state,
    })
    .unwrap_or_default()
}
