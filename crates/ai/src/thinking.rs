//! A search running on its own thread, so that the caller (a UI, the
//! engine protocol, the arena) never blocks.

use std::thread::JoinHandle;

use virus_wars_rules::rng::SplitMix64;
use virus_wars_rules::{AnyPosition, Game};

use crate::budget::Budget;
use crate::fog;
use crate::player::Player;
use crate::search::{SearchInfo, SearchResult, StopFlag};

/// A search running on its own thread.
pub struct SearchHandle {
    stop: StopFlag,
    thread: JoinHandle<(Box<dyn Player>, SearchResult)>,
}

impl SearchHandle {
    /// Starts `player` thinking about `position`; `on_info` hears each iteration.
    pub fn start(
        mut player: Box<dyn Player>,
        position: AnyPosition,
        budget: Budget,
        mut on_info: impl FnMut(&SearchInfo) + Send + 'static,
    ) -> SearchHandle {
        let stop = StopFlag::new();
        let flag = stop.clone();
        let thread = std::thread::spawn(move || {
            let result = player.choose(&position, &budget, &flag, &mut on_info);
            (player, result)
        });
        SearchHandle { stop, thread }
    }

    /// Starts `player` playing the rest of the turn at the end of `game`
    /// under fog ([`fog::play_turn`] by [`fog::choose_step`]): from what
    /// the side to move knows, never the board. Nothing is reported while
    /// it thinks (a line searched on a drawn position would show cells the
    /// side does not see).
    pub fn start_fog(
        mut player: Box<dyn Player>,
        game: Game,
        budget: Budget,
        seed: u64,
    ) -> SearchHandle {
        let stop = StopFlag::new();
        let flag = stop.clone();
        let thread = std::thread::spawn(move || {
            let mut rng = SplitMix64::new(seed);
            let steps = fog::play_turn(&game, &budget, |seen, left| {
                fog::choose_step(player.as_mut(), seen, left, &flag, fog::SAMPLES, &mut rng)
            });
            (player, SearchResult { steps, info: None })
        });
        SearchHandle { stop, thread }
    }

    /// A flag that stops this search, for another thread to hold.
    pub fn stop_flag(&self) -> StopFlag {
        self.stop.clone()
    }

    /// Asks the search to finish now with the best it has.
    pub fn stop(&self) {
        self.stop.stop();
    }

    pub fn is_finished(&self) -> bool {
        self.thread.is_finished()
    }

    /// Waits for the result and gets the player back (with its tables).
    pub fn wait(self) -> (Box<dyn Player>, SearchResult) {
        match self.thread.join() {
            Ok(r) => r,
            Err(panic) => std::panic::resume_unwind(panic),
        }
    }
}
