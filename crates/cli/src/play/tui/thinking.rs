//! The computer's searches in the full-screen game: a turn or a hint on
//! its own thread (under fog from what the side to move knows), collected
//! between events, and stopped when the game changes under it.

use std::sync::{Arc, Mutex};
use std::time::Instant;

use virus_wars_ai::{Budget, SearchHandle, SearchInfo};
use virus_wars_rules::notation::format_turn;

use super::super::session::Session;
use super::super::shown::shown_turn;
use super::{App, Thinking};

impl App {
    /// Starts or collects the computer's search; called between events.
    pub fn tick(&mut self) {
        self.frame = self.frame.wrapping_add(1);
        if self.reviewing.as_ref().is_some_and(|r| r.is_finished()) {
            let done = self.reviewing.take().expect("checked above").join();
            match done {
                Ok(Ok(review)) => {
                    self.report = Some(review);
                    self.message = "the engine's review: any key closes it".into();
                }
                Ok(Err(e)) => self.message = e,
                Err(_) => self.message = "the review failed".into(),
            }
        }
        if let Some(t) = &self.thinking {
            if !t.handle.is_finished() {
                return;
            }
            let t = self.thinking.take().expect("checked above");
            let (player, result) = t.handle.wait();
            let Some(session) = self.session.as_mut() else {
                return;
            };
            if t.hint {
                self.message = format!("hint: {}", format_turn(&result.steps));
                return;
            }
            let side = session.side_to_move();
            if let Some(seat) = session.computers[side.index()].as_mut() {
                seat.player = Some(player);
            }
            self.message = match session.apply_computer(&result.steps) {
                Ok(()) => {
                    let shown = session.last_turn().map(|(_, s)| s).unwrap_or_default();
                    format!("{side} played {}", shown_turn(&shown))
                }
                Err(e) => e,
            };
            self.follow_last_turn();
            return;
        }
        let Some(session) = self.session.as_mut() else {
            return;
        };
        if session.ending().is_some() || session.human_to_move() {
            return;
        }
        let side = session.side_to_move();
        let Some(seat) = session.computers[side.index()].as_mut() else {
            return;
        };
        let Some(player) = seat.player.take() else {
            return;
        };
        let budget = seat.budget;
        self.think(player, budget, false);
    }

    pub(super) fn think(
        &mut self,
        player: Box<dyn virus_wars_ai::Player>,
        budget: Budget,
        hint: bool,
    ) {
        let Some(session) = self.session.as_mut() else {
            return;
        };
        let latest = Arc::new(Mutex::new(None));
        let sink = latest.clone();
        let handle = if session.game().variant().fog {
            // From what the side to move knows, never the board.
            let seed = session.fog_seed();
            SearchHandle::start_fog(player, session.game().clone(), budget, seed)
        } else {
            SearchHandle::start(
                player,
                *session.game().position(),
                budget,
                move |i: &SearchInfo| {
                    if let Ok(mut l) = sink.lock() {
                        *l = Some(i.clone());
                    }
                },
            )
        };
        self.thinking = Some(Thinking {
            handle,
            hint,
            latest,
            since: Instant::now(),
        });
    }

    /// Puts the cursor on the last step played, so keyboard players see it.
    pub(super) fn follow_last_turn(&mut self) {
        let cells = self.session.as_ref().map(Session::last_turn_cells);
        if let Some(&c) = cells.as_ref().and_then(|c| c.last()) {
            self.cursor = c;
        }
    }

    /// Stops any search (its result is dropped) and waits for its thread.
    pub(super) fn cancel_thinking(&mut self) {
        if let Some(t) = self.thinking.take() {
            t.handle.stop();
            let (player, _) = t.handle.wait();
            if !t.hint {
                if let Some(s) = self.session.as_mut() {
                    let side = s.side_to_move();
                    if let Some(seat) = s.computers[side.index()].as_mut() {
                        seat.player = Some(player);
                    }
                }
            }
        }
    }
}
