//! What a host lets one search take, and a spec cut down to it.

use super::PlayerSpec;

/// The most a host lets one search take: memory for its tree or table,
/// threads, and a whole-turn search's width.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Caps {
    pub memory_mb: usize,
    pub threads: usize,
    pub turns_width: usize,
}

impl PlayerSpec {
    /// The spec played within `caps`: a level's own spec, with its tree or
    /// table, threads and width cut down to the caps where they exceed them.
    pub fn capped(&self, caps: Caps) -> PlayerSpec {
        let mut spec = self.resolved();
        match &mut spec {
            PlayerSpec::Mcts { config, .. } | PlayerSpec::Net { config, .. } => {
                config.tree_mb = config.tree_mb.min(caps.memory_mb);
                config.threads = config.threads.min(caps.threads);
            }
            PlayerSpec::AlphaBeta { hash_mb, .. } => *hash_mb = (*hash_mb).min(caps.memory_mb),
            PlayerSpec::Turns { width, hash_mb, .. } => {
                *width = (*width).min(caps.turns_width);
                *hash_mb = (*hash_mb).min(caps.memory_mb);
            }
            _ => {}
        }
        spec
    }
}
