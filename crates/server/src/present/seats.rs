//! Who sits where and how their clocks stand: facts of a game that no
//! viewer is denied, as every state and list shows them.

use crate::seat::Seat;
use virus_wars_ai::PlayerSpec;
use virus_wars_rules::Side;

use crate::live::LiveGame;
use crate::view::{side_name, ClockState, PlayerInfo};

/// Who sits on a seat (a person by the name they chose, '' for none), as
/// the API says it.
pub fn seat_info(seat: &Seat, name: &str) -> PlayerInfo {
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

impl LiveGame {
    /// Who plays `side`, as the API says it.
    pub fn player(&self, side: Side) -> PlayerInfo {
        PlayerInfo {
            account: self.holder(side).account.is_some(),
            ..seat_info(
                self.table.seat(side),
                self.holder(side).name.as_deref().unwrap_or(""),
            )
        }
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
}
