//! The position's Zobrist hash from scratch (the incremental one must equal it).

use super::Position;
use crate::side::Side;
use crate::zobrist;

impl<const N: usize> Position<N> {
    /// The hash computed from nothing (the incremental one must equal it).
    pub fn hash_from_scratch(&self) -> u64 {
        let mut h = 0;
        for s in Side::BOTH {
            h ^= self.virus[s.index()]
                .iter()
                .fold(0, |k, i| k ^ zobrist::virus(s, i));
            h ^= self.zombie[s.index()]
                .iter()
                .fold(0, |k, i| k ^ zobrist::zombie(s, i));
        }
        h ^= self.trench.iter().fold(0, |k, i| k ^ zobrist::trench(i));
        h ^= self
            .obstacle
            .iter()
            .fold(0, |k, i| k ^ zobrist::obstacle(i));
        if self.side == Side::O {
            h ^= zobrist::field(zobrist::SIDE, 1);
        }
        h ^= zobrist::field(zobrist::STEPS_LEFT, self.steps_left as u64);
        for s in Side::BOTH {
            if self.entered[s.index()] {
                h ^= zobrist::field(zobrist::ENTERED, s.index() as u64);
            }
        }
        if self.passes != 0 {
            h ^= zobrist::field(zobrist::PASSES, self.passes as u64);
        }
        if self.rules.deathmatch {
            h ^= zobrist::field(zobrist::TURN, self.turn as u64);
        }
        h
    }
}
