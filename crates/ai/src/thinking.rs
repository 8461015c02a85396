//! A search running on its own thread, so that the caller (a UI, the
//! engine protocol, the arena) never blocks.

use std::thread::JoinHandle;

use virus_wars_rules::AnyPosition;

use crate::budget::Budget;
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
