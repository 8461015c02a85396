//! A state as every viewer is shown it after a change: what a game's
//! broadcast channel carries (`live`), made by [`super::shown`]. It names
//! nothing of `live`, so that `live` may hold it without importing the
//! presenter that reads `live`.

use std::sync::Arc;

use virus_wars_rules::fog::Viewer;
use virus_wars_rules::Side;

use crate::view::GameState;

/// A state as every viewer is shown it after a change, with its socket
/// message (see [`shown`]).
pub struct Shown {
    pub(super) views: Vec<(GameState, Arc<str>)>,
}

impl Shown {
    fn index(&self, viewer: Viewer) -> usize {
        if self.views.len() == 1 {
            return 0;
        }
        match viewer {
            Viewer::Player(Side::X) => 0,
            Viewer::Player(Side::O) => 1,
            Viewer::Watcher => 2,
        }
    }

    /// The state as `viewer` is shown it.
    pub fn state(&self, viewer: Viewer) -> &GameState {
        &self.views[self.index(viewer)].0
    }

    /// The live socket's message for `viewer`.
    pub fn message(&self, viewer: Viewer) -> Arc<str> {
        self.views[self.index(viewer)].1.clone()
    }
}
