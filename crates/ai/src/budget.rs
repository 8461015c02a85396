//! How much a player may think: a time per turn, a node or playout count, a
//! depth, or a game clock (remaining time plus increment) that the time
//! manager turns into a deadline for this turn.

use std::time::{Duration, Instant};

/// A chess-style clock for the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    pub remaining: Duration,
    /// Added after each of the player's turns.
    pub increment: Duration,
}

/// Limits for one decision; every limit given applies, the first reached stops.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// Time for the rest of this turn.
    pub time: Option<Duration>,
    /// Search nodes (alpha-beta) or playouts (MCTS).
    pub nodes: Option<u64>,
    /// Depth in steps (alpha-beta).
    pub depth: Option<u32>,
    pub clock: Option<Clock>,
}

impl Budget {
    pub fn time(t: Duration) -> Budget {
        Budget {
            time: Some(t),
            ..Budget::default()
        }
    }

    pub fn depth(d: u32) -> Budget {
        Budget {
            depth: Some(d),
            ..Budget::default()
        }
    }

    pub fn nodes(n: u64) -> Budget {
        Budget {
            nodes: Some(n),
            ..Budget::default()
        }
    }

    /// Whether nothing limits the search (it runs until stopped).
    pub fn is_infinite(&self) -> bool {
        self.time.is_none() && self.nodes.is_none() && self.depth.is_none() && self.clock.is_none()
    }

    /// The time this turn may use: the explicit time, or a share of the clock
    /// (a 20th of what is left plus most of the increment, never more than a
    /// third of what is left, minus a safety margin for the reply).
    pub fn turn_time(&self) -> Option<Duration> {
        let from_clock = self.clock.map(|c| {
            let share = c.remaining / 20 + c.increment.mul_f64(0.8);
            let cap = c.remaining / 3;
            share.min(cap).saturating_sub(Duration::from_millis(5))
        });
        match (self.time, from_clock) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// The deadline of a decision that starts now.
    pub fn deadline(&self, start: Instant) -> Option<Instant> {
        // A deadline past what the clock can hold is no deadline.
        self.turn_time().and_then(|t| start.checked_add(t))
    }
}

/// Parses `1.5s`, `200ms`, `2` (seconds) or `1m`.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let t = text.trim().to_ascii_lowercase();
    let not_a_duration = || {
        format!("'{text}' is not a duration: write a plain number and a unit, like 2s, 1.5s, 500ms or 1m")
    };
    // A plain decimal number (no sign, no exponent), then an optional unit.
    let k = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = (&t[..k], t[k..].trim());
    let unit = if unit.is_empty() { "s" } else { unit };
    if num.is_empty()
        || num.matches('.').count() > 1
        || !unit.chars().all(|c| c.is_ascii_alphabetic())
    {
        return Err(not_a_duration());
    }
    let value: f64 = num.parse().map_err(|_| not_a_duration())?;
    let secs = match unit {
        "s" | "sec" => value,
        "ms" => value / 1000.0,
        "m" | "min" => value * 60.0,
        _ => {
            return Err(format!(
                "'{text}' has an unknown unit '{unit}': use ms, s or m"
            ))
        }
    };
    if !(secs >= 0.0 && secs.is_finite() && secs < 1e7) {
        return Err(format!("'{text}' is not a usable duration"));
    }
    Ok(Duration::from_secs_f64(secs))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_gives_a_share_and_never_too_much() {
        let b = Budget {
            clock: Some(Clock {
                remaining: Duration::from_secs(60),
                increment: Duration::from_secs(1),
            }),
            ..Budget::default()
        };
        let t = b.turn_time().unwrap();
        assert!(
            t > Duration::from_secs(3) && t < Duration::from_secs(4),
            "{t:?}"
        );
        let low = Budget {
            clock: Some(Clock {
                remaining: Duration::from_millis(300),
                increment: Duration::from_secs(2),
            }),
            ..Budget::default()
        };
        assert!(low.turn_time().unwrap() <= Duration::from_millis(100));
        let both = Budget {
            time: Some(Duration::from_millis(50)),
            ..b
        };
        assert_eq!(both.turn_time(), Some(Duration::from_millis(50)));
    }

    #[test]
    fn durations_parse() {
        assert_eq!(parse_duration("1.5s"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse_duration("200ms"), Ok(Duration::from_millis(200)));
        assert_eq!(parse_duration("2"), Ok(Duration::from_secs(2)));
        assert_eq!(parse_duration("1m"), Ok(Duration::from_secs(60)));
        assert!(parse_duration("fast").is_err());
        assert!(parse_duration("3h").unwrap_err().contains("unknown unit"));
        assert!(parse_duration("-1s").is_err());
        assert_eq!(
            parse_duration("1e3").unwrap_err(),
            "'1e3' is not a duration: write a plain number and a unit, like 2s, 1.5s, 500ms or 1m"
        );
        assert_eq!(parse_duration("2 s"), Ok(Duration::from_secs(2)));
        assert!(parse_duration("1.2.3s").is_err());
        assert!(parse_duration("99999999999999999999s")
            .unwrap_err()
            .contains("not a usable duration"));
    }
}
