//! The search guided by a net ([`Guide`]), and the visit counts self-play
//! learns from.

use std::sync::Arc;

use virus_wars_net::Network;
use virus_wars_rules::fog::ViewPosition;
use virus_wars_rules::{with_position, AnyPosition, Step};

use super::code::decode;
use super::neural::Guide;
use super::tree::{Tree, NONE};
use super::{Mcts, TurnSoFar};
use crate::search::StopFlag;

impl Mcts {
    /// The search guided by `net`: its policy as the priors of new nodes,
    /// its value blended with the playout's by `mix` (0 to 1).
    pub fn with_net(self, net: Arc<Network>, mix: f64) -> Mcts {
        self.with_guide(Guide {
            net,
            mix,
            after: 1,
            batch: 1,
            view_net: None,
        })
    }

    /// Searches `playouts` simulations for the next step from `p` and
    /// returns how often each step was visited (self-play's policy target).
    /// Where the search proved the position, the best step alone counts.
    pub fn search_visits(&mut self, p: &AnyPosition, playouts: u64) -> Vec<(Step, u32)> {
        self.search_visits_seen(p, None, playouts)
    }

    /// [`Mcts::search_visits`] at `p`, under fog a position drawn from
    /// `view`: the root's priors from it where the guide has a view net.
    pub fn search_visits_seen(
        &mut self,
        p: &AnyPosition,
        view: Option<&ViewPosition>,
        playouts: u64,
    ) -> Vec<(Step, u32)> {
        with_position!(p, q => {
            let turn = TurnSoFar {
                start: std::time::Instant::now(),
                playouts: 0,
                steps: &[],
                depth: None,
                view,
            };
            let stop = StopFlag::new();
            self.search_step(q, None, playouts.max(1), &stop, turn, &mut |_| {});
            let root = self.tree.node(Tree::ROOT);
            let best = self.tree.best_edge(Tree::ROOT);
            root.edges
                .iter()
                .enumerate()
                .map(|(k, e)| {
                    let visits = if root.proven().is_some() {
                        u32::from(Some(k) == best)
                    } else if e.child() == NONE {
                        0
                    } else {
                        // Self-play's counts are far below 2^32.
                        u32::try_from(self.tree.node(e.child()).n()).unwrap_or(u32::MAX)
                    };
                    (decode(q, e.code), visits)
                })
                .collect()
        })
    }

    /// The search guided as `guide` says.
    pub fn with_guide(mut self, guide: Guide) -> Mcts {
        self.guide = Some(Guide {
            mix: guide.mix.clamp(0.0, 1.0),
            after: guide.after.max(1),
            batch: guide.batch.clamp(1, super::MAX_BATCH),
            ..guide
        });
        self
    }
}
