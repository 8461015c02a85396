//! Per-client rate limits: a token bucket per client address (creating
//! games, analysis, requests on a game) or per socket (its messages).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How many requests of a kind a client may make: `burst` at once, then
/// `per_second` on average. A rate of 0 means no limit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rate {
    pub per_second: f64,
    pub burst: f64,
}

impl Rate {
    pub const UNLIMITED: Rate = Rate {
        per_second: 0.0,
        burst: 0.0,
    };

    pub fn per_minute(n: f64, burst: f64) -> Rate {
        Rate {
            per_second: n / 60.0,
            burst,
        }
    }

    pub fn is_unlimited(&self) -> bool {
        self.per_second <= 0.0
    }
}

/// Replay bytes a client may be served a minute, and at once.
pub const REPLAY_BYTES_PER_MINUTE: f64 = 16.0 * 1024.0 * 1024.0;
pub const REPLAY_BYTES_BURST: f64 = 4.0 * 1024.0 * 1024.0;

/// The limits a server applies.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RateLimits {
    /// Creating games, quick play, joining, rematches, registering bots.
    pub create: Rate,
    /// `POST /api/analyze`.
    pub analyze: Rate,
    /// Requests on a game over HTTP (steps, resign, draw…), per client.
    pub actions: Rate,
    /// Messages on one live socket.
    pub messages: Rate,
    /// Bytes of replays (`POST /api/replay`) served to one client: each
    /// answer is charged its size once it is made.
    pub replay_bytes: Rate,
    /// Accounts signed up from one address in an hour, counted in the
    /// database (every process alike); 0: no limit.
    pub signups_per_hour: u32,
    /// Logins with the right password one account may make in an hour,
    /// counted in the database; 0: no limit.
    pub logins_per_hour: u32,
}

impl Default for RateLimits {
    fn default() -> Self {
        RateLimits {
            create: Rate::per_minute(30.0, 10.0),
            analyze: Rate::per_minute(20.0, 5.0),
            actions: Rate::per_minute(1200.0, 60.0),
            messages: Rate::per_minute(1200.0, 60.0),
            replay_bytes: Rate::per_minute(REPLAY_BYTES_PER_MINUTE, REPLAY_BYTES_BURST),
            signups_per_hour: 10,
            logins_per_hour: 60,
        }
    }
}

impl RateLimits {
    pub const UNLIMITED: RateLimits = RateLimits {
        create: Rate::UNLIMITED,
        analyze: Rate::UNLIMITED,
        actions: Rate::UNLIMITED,
        messages: Rate::UNLIMITED,
        replay_bytes: Rate::UNLIMITED,
        signups_per_hour: 0,
        logins_per_hour: 0,
    };
}

/// One client's bucket.
#[derive(Clone, Copy, Debug)]
pub struct Bucket {
    tokens: f64,
    at: Instant,
}

impl Bucket {
    pub fn new(rate: Rate, now: Instant) -> Bucket {
        Bucket {
            tokens: rate.burst.max(1.0),
            at: now,
        }
    }

    /// Takes one token, or says how long until one is there.
    pub fn take(&mut self, rate: Rate, now: Instant) -> Result<(), Duration> {
        if rate.is_unlimited() {
            return Ok(());
        }
        let elapsed = now.saturating_duration_since(self.at).as_secs_f64();
        self.tokens = (self.tokens + elapsed * rate.per_second).min(rate.burst.max(1.0));
        self.at = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            Ok(())
        } else {
            Err(Duration::from_secs_f64(
                ((1.0 - self.tokens) / rate.per_second).min(3600.0),
            ))
        }
    }

    fn full(&self, rate: Rate, now: Instant) -> bool {
        let elapsed = now.saturating_duration_since(self.at).as_secs_f64();
        self.tokens + elapsed * rate.per_second >= rate.burst
    }
}

/// Buckets by client address.
pub struct Limiter {
    rate: Rate,
    buckets: Mutex<HashMap<IpAddr, Bucket>>,
}

/// Above this many clients, full buckets are forgotten.
const MAX_CLIENTS: usize = 10_000;

impl Limiter {
    pub fn new(rate: Rate) -> Limiter {
        Limiter {
            rate,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    pub fn check(&self, client: IpAddr) -> Result<(), Duration> {
        if self.rate.is_unlimited() {
            return Ok(());
        }
        let now = Instant::now();
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if buckets.len() >= MAX_CLIENTS {
            let rate = self.rate;
            buckets.retain(|_, b| !b.full(rate, now));
        }
        buckets
            .entry(client)
            .or_insert_with(|| Bucket::new(self.rate, now))
            .take(self.rate, now)
    }

    /// Charges `client` `amount` more (beyond the one [`Limiter::check`]
    /// took), for what an answer turned out to cost: the bucket may go
    /// into debt, and the client waits until it is paid.
    pub fn charge(&self, client: IpAddr, amount: f64) {
        if self.rate.is_unlimited() {
            return;
        }
        let now = Instant::now();
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        let bucket = buckets
            .entry(client)
            .or_insert_with(|| Bucket::new(self.rate, now));
        let elapsed = now.saturating_duration_since(bucket.at).as_secs_f64();
        bucket.tokens =
            (bucket.tokens + elapsed * self.rate.per_second).min(self.rate.burst.max(1.0));
        bucket.at = now;
        bucket.tokens -= amount;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_charge_beyond_the_burst_is_paid_before_the_next() {
        let limiter = Limiter::new(Rate {
            per_second: 1000.0,
            burst: 4000.0,
        });
        let ip: IpAddr = "127.0.0.7".parse().unwrap();
        assert!(limiter.check(ip).is_ok());
        limiter.charge(ip, 100_000.0);
        let wait = limiter.check(ip).unwrap_err();
        assert!(wait.as_secs_f64() > 90.0, "{wait:?}");
        let other: IpAddr = "127.0.0.8".parse().unwrap();
        assert!(limiter.check(other).is_ok());
    }

    #[test]
    fn a_bucket_allows_its_burst_then_its_rate() {
        let rate = Rate {
            per_second: 2.0,
            burst: 3.0,
        };
        let t = Instant::now();
        let mut b = Bucket::new(rate, t);
        for _ in 0..3 {
            b.take(rate, t).unwrap();
        }
        let wait = b.take(rate, t).unwrap_err();
        assert!((wait.as_secs_f64() - 0.5).abs() < 1e-6, "{wait:?}");
        b.take(rate, t + Duration::from_millis(500)).unwrap();
        assert!(b.take(rate, t + Duration::from_millis(500)).is_err());
        // Unlimited never refuses.
        let mut u = Bucket::new(Rate::UNLIMITED, t);
        for _ in 0..1000 {
            u.take(Rate::UNLIMITED, t).unwrap();
        }
    }

    #[test]
    fn clients_have_their_own_buckets() {
        let l = Limiter::new(Rate::per_minute(60.0, 1.0));
        let (a, b) = ("127.0.0.1".parse().unwrap(), "::1".parse().unwrap());
        l.check(a).unwrap();
        assert!(l.check(a).is_err());
        l.check(b).unwrap();
    }
}
