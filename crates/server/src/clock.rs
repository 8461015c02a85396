//! Where the server reads the time. Everything that depends on the time
//! (game clocks, deadlines, sessions, leases, rate limits) asks the
//! server's one [`Clock`], so a test can stand it still and move it on
//! instead of sleeping while real time passes.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// The time: the system's, or a test's that moves only when told to.
/// Clones read (and move) the same clock.
#[derive(Clone, Debug, Default)]
pub struct Clock {
    /// A test clock's time, in milliseconds since the Unix epoch; `None`
    /// for the system's.
    set: Option<Arc<AtomicU64>>,
}

impl Clock {
    /// The system's clock.
    pub fn system() -> Clock {
        Clock::default()
    }

    /// A test clock standing at the system's time now; it moves only by
    /// [`Clock::advance`].
    pub fn stopped() -> Clock {
        Clock {
            set: Some(Arc::new(AtomicU64::new(system_ms()))),
        }
    }

    /// Milliseconds since the Unix epoch.
    pub fn now_ms(&self) -> u64 {
        match &self.set {
            None => system_ms(),
            Some(ms) => ms.load(Ordering::Acquire),
        }
    }

    /// Moves a test clock on by `by`; the system's clock cannot be moved,
    /// and says so by answering `false`.
    pub fn advance(&self, by: Duration) -> bool {
        match &self.set {
            None => false,
            Some(ms) => {
                ms.fetch_add(by.as_millis() as u64, Ordering::AcqRel);
                true
            }
        }
    }
}

fn system_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// The rate limiters read the same clock (as time since the epoch).
impl governor::clock::Clock for Clock {
    type Instant = Duration;

    fn now(&self) -> Duration {
        match &self.set {
            None => SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .unwrap_or_default(),
            Some(ms) => Duration::from_millis(ms.load(Ordering::Acquire)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stopped_clock_moves_only_when_told_and_its_clones_with_it() {
        let clock = Clock::stopped();
        let at = clock.now_ms();
        std::thread::sleep(Duration::from_millis(5));
        assert_eq!(clock.now_ms(), at);
        let clone = clock.clone();
        assert!(clone.advance(Duration::from_millis(1500)));
        assert_eq!(clock.now_ms(), at + 1500);
        assert_eq!(
            governor::clock::Clock::now(&clock),
            Duration::from_millis(at + 1500)
        );
    }

    #[test]
    fn the_system_clock_runs_and_cannot_be_moved() {
        let clock = Clock::system();
        let at = clock.now_ms();
        assert!(!clock.advance(Duration::from_secs(60)));
        assert!(clock.now_ms() >= at && clock.now_ms() < at + 60_000);
    }
}
