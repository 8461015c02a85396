//! Uniform random games: the engine's speed benchmark and the simplest playout.

use crate::position::Position;
use crate::rng::SplitMix64;
use crate::side::Outcome;

impl<const N: usize> Position<N> {
    /// Plays uniformly random legal steps (a pass, where allowed, counts as one
    /// choice) until the game is over; returns the outcome and the steps played.
    pub fn random_playout(&mut self, rng: &mut SplitMix64) -> (Outcome, u32) {
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("bmi2") {
            // SAFETY: the CPU has BMI2, checked just above.
            return unsafe { self.random_playout_bmi2(rng) };
        }
        self.random_playout_with::<false>(rng)
    }

    /// [`Self::random_playout`] compiled for BMI2, whose `pdep` picks the
    /// k-th legal cell in one instruction, inlined.
    ///
    /// # Safety
    /// The CPU must support BMI2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi1,bmi2")]
    unsafe fn random_playout_bmi2(&mut self, rng: &mut SplitMix64) -> (Outcome, u32) {
        self.random_playout_with::<true>(rng)
    }

    #[inline(always)]
    fn random_playout_with<const BMI2: bool>(&mut self, rng: &mut SplitMix64) -> (Outcome, u32) {
        let mut steps = 0;
        if self.rules().end == crate::EndRule::Standard {
            // Fast path: no passes, and the game ends exactly when no cell is legal.
            loop {
                let cells = self.legal_cells();
                let n = cells.count();
                if n == 0 {
                    self.rehash();
                    return (Outcome::Win(!self.side()), steps);
                }
                let k = rng.below(n);
                let i = if BMI2 {
                    // SAFETY: BMI2 is only set where the CPU has it.
                    unsafe { cells.nth_index_bmi2(k) }
                } else {
                    cells.nth_index(k)
                }
                .expect("pick is below the count");
                // The hash is not needed along the way: recomputed at the end.
                self.play_unhashed(i);
                steps += 1;
            }
        }
        loop {
            if let Some(o) = self.outcome() {
                return (o, steps);
            }
            let cells = self.legal_cells();
            let n = cells.count();
            let pick = rng.below(n + self.can_pass() as u32);
            match cells.nth_index(pick) {
                Some(i) => self.play_unchecked(i),
                None => self.pass_unchecked(),
            }
            steps += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::rng::SplitMix64;
    use crate::variant::Preset;
    use crate::{with_position, Outcome};

    #[test]
    fn random_games_end_and_are_reproducible() {
        for preset in crate::variant::Preset::ALL {
            let start = preset.variant().start().unwrap();
            let run = |seed| {
                let mut p = start;
                with_position!(&mut p, q => q.random_playout(&mut SplitMix64::new(seed)))
            };
            let (outcome, steps) = run(11);
            let mut p = start;
            with_position!(&mut p, q => {
                q.random_playout(&mut SplitMix64::new(5));
                assert_eq!(q.hash(), q.hash_from_scratch(), "the hash is right after a playout");
            });
            assert_eq!(run(11), (outcome, steps));
            assert!(steps > 0);
            if preset != Preset::ClassicPass {
                assert!(matches!(outcome, Outcome::Win(_)));
            }
        }
    }
}
