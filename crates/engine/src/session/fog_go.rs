//! `go` on a view (docs/engine-protocol.md, Fog of war): the next step
//! only, chosen from what the side knows by determinization.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};

use virus_wars_ai::{fog, StopFlag};
use virus_wars_rules::fog::Seen;

use super::{say, Engine, Running};
use crate::command::Go;

impl Engine {
    /// `go` on a view: the next step only (each step shows the side more),
    /// chosen from the view alone by determinization with the player.
    pub(super) fn go_in_fog(&mut self, seen: Seen, go: Go) -> Result<(), String> {
        if go.infinite || go.ponder {
            return Err("go on a view takes a limit: infinite and ponder are not for fog".into());
        }
        let mut player = self
            .player
            .take()
            .expect("the player is home when no search runs");
        let mut budget = go.budget_for(seen.view.setup.side == virus_wars_rules::Side::X);
        if budget.is_infinite() {
            budget = self.spec.budget();
        }
        if let Some(cap) = self.limits.search_time {
            budget.time = Some(budget.time.map_or(cap, |t| t.min(cap)));
        }
        let stop = StopFlag::new();
        let (flag, out) = (stop.clone(), self.out.clone());
        let done = Arc::new(AtomicBool::new(false));
        let finished = done.clone();
        let waiter = std::thread::spawn(move || {
            let mut rng = virus_wars_rules::rng::SplitMix64::new(seen.hidden_enemy_pieces ^ 0xF06);
            let step = fog::choose_step(
                player.as_mut(),
                &seen,
                &budget,
                &flag,
                fog::SAMPLES,
                &mut rng,
            );
            finished.store(true, Ordering::Release);
            say(
                &out,
                &format!(
                    "bestturn {}",
                    step.map_or("none".to_string(), |s| s.to_string())
                ),
            );
            player
        });
        self.running = Some(Running {
            stop,
            released: Arc::new((Mutex::new(true), Condvar::new())),
            silent: Arc::new(AtomicBool::new(false)),
            done,
            waiter,
            ponder: None,
        });
        Ok(())
    }
}
