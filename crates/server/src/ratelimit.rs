//! Per-client rate limits, by `governor` (GCRA): a limit per client address
//! (creating games, analysis, requests on a game, replayed bytes) or per
//! socket (its messages).

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::time::Duration;

use governor::clock::Clock as _;
use governor::middleware::NoOpMiddleware;
use governor::state::keyed::DashMapStateStore;
use governor::state::{InMemoryState, NotKeyed};
use governor::{InsufficientCapacity, NotUntil, Quota, RateLimiter};

use crate::clock::Clock;

/// A limit on one thing (a socket), timed by the server's clock.
type DirectLimiter = RateLimiter<NotKeyed, InMemoryState, Clock, NoOpMiddleware<Duration>>;
/// A limit per client address, timed by the server's clock.
type KeyedLimiter = RateLimiter<IpAddr, DashMapStateStore<IpAddr>, Clock, NoOpMiddleware<Duration>>;

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

/// `rate` as governor's quota (GCRA: a burst, then one cell every
/// period); `None` for no limit.
fn quota(rate: Rate) -> Option<Quota> {
    if rate.is_unlimited() {
        return None;
    }
    let burst = NonZeroU32::new(rate.burst.clamp(1.0, f64::from(u32::MAX)) as u32)?;
    Some(Quota::with_period(Duration::from_secs_f64(1.0 / rate.per_second))?.allow_burst(burst))
}

/// How long until `not_until` is past.
fn wait(not_until: &NotUntil<Duration>, clock: &Clock) -> Duration {
    not_until.wait_time_from(clock.now())
}

/// A limit per account (chat lines), timed by the server's clock.
type AccountKeyed = RateLimiter<String, DashMapStateStore<String>, Clock, NoOpMiddleware<Duration>>;

/// A limit per account, in this process.
pub struct PerAccount {
    limiter: Option<AccountKeyed>,
    clock: Clock,
}

impl PerAccount {
    pub fn new(rate: Rate, clock: &Clock) -> PerAccount {
        PerAccount {
            limiter: quota(rate).map(|q| RateLimiter::dashmap_with_clock(q, clock.clone())),
            clock: clock.clone(),
        }
    }

    /// Takes one of `account`'s allowance, or says how long until it may.
    pub fn check(&self, account: &str) -> Result<(), Duration> {
        let Some(l) = &self.limiter else {
            return Ok(());
        };
        if l.len() >= MAX_CLIENTS {
            l.retain_recent();
        }
        l.check_key(&account.to_string())
            .map_err(|n| wait(&n, &self.clock))
    }
}

/// The limit on one socket's messages.
pub struct PerSocket(Option<(DirectLimiter, Clock)>);

impl PerSocket {
    pub fn new(rate: Rate, clock: &Clock) -> PerSocket {
        PerSocket(quota(rate).map(|q| {
            (
                RateLimiter::direct_with_clock(q, clock.clone()),
                clock.clone(),
            )
        }))
    }

    /// Takes one message, or says how long until one may be sent.
    pub fn take(&self) -> Result<(), Duration> {
        match &self.0 {
            None => Ok(()),
            Some((l, clock)) => l.check().map_err(|n| wait(&n, clock)),
        }
    }
}

/// A limit by client address (governor's keyed limiter).
pub struct Limiter {
    limiter: Option<KeyedLimiter>,
    clock: Clock,
}

/// Above this many clients, those whose allowance is whole again are
/// forgotten.
const MAX_CLIENTS: usize = 10_000;

impl Limiter {
    pub fn new(rate: Rate, clock: &Clock) -> Limiter {
        Limiter {
            limiter: quota(rate).map(|q| RateLimiter::dashmap_with_clock(q, clock.clone())),
            clock: clock.clone(),
        }
    }

    fn keyed(&self) -> Option<&KeyedLimiter> {
        let l = self.limiter.as_ref()?;
        if l.len() >= MAX_CLIENTS {
            l.retain_recent();
        }
        Some(l)
    }

    /// Takes one request of `client`'s, or says how long until it may.
    pub fn check(&self, client: IpAddr) -> Result<(), Duration> {
        match self.keyed() {
            None => Ok(()),
            Some(l) => l.check_key(&client).map_err(|n| wait(&n, &self.clock)),
        }
    }

    /// Takes `amount` of `client`'s allowance at once (what an answer
    /// costs, such as its bytes), or says how long until it may: an amount
    /// over the whole burst waits as long as the burst takes to fill.
    pub fn charge(&self, client: IpAddr, amount: u64) -> Result<(), Duration> {
        let Some(l) = self.keyed() else {
            return Ok(());
        };
        let Some(n) = NonZeroU32::new(amount.clamp(1, u64::from(u32::MAX)) as u32) else {
            return Ok(());
        };
        match l.check_key_n(&client, n) {
            Ok(Ok(())) => Ok(()),
            Ok(Err(not_until)) => Err(wait(&not_until, &self.clock)),
            // More than the whole burst: never servable at once.
            Err(InsufficientCapacity(_)) => Err(Duration::from_secs(3600)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_charge_beyond_what_is_left_waits_for_it() {
        let limiter = Limiter::new(
            Rate {
                per_second: 1000.0,
                burst: 4000.0,
            },
            &Clock::stopped(),
        );
        let ip: IpAddr = "127.0.0.7".parse().unwrap();
        assert!(limiter.check(ip).is_ok());
        limiter.charge(ip, 3999).unwrap();
        let wait = limiter.charge(ip, 3000).unwrap_err();
        assert!(wait.as_secs_f64() > 2.5, "{wait:?}");
        assert!(limiter.charge(ip, 1_000_000).is_err(), "over the burst");
        let other: IpAddr = "127.0.0.8".parse().unwrap();
        assert!(limiter.check(other).is_ok());
        assert!(limiter.charge(other, 3000).is_ok());
    }

    #[test]
    fn a_socket_allows_its_burst_then_its_rate() {
        let clock = Clock::stopped();
        let socket = PerSocket::new(
            Rate {
                per_second: 2.0,
                burst: 3.0,
            },
            &clock,
        );
        for _ in 0..3 {
            socket.take().unwrap();
        }
        let wait = socket.take().unwrap_err();
        assert_eq!(wait, Duration::from_millis(500));
        // Half a second later, one more; then it waits again.
        clock.advance(Duration::from_millis(500));
        socket.take().unwrap();
        assert!(socket.take().is_err());
        // Unlimited never refuses.
        let u = PerSocket::new(Rate::UNLIMITED, &clock);
        for _ in 0..1000 {
            u.take().unwrap();
        }
    }

    #[test]
    fn clients_have_their_own_buckets() {
        let l = Limiter::new(Rate::per_minute(60.0, 1.0), &Clock::stopped());
        let (a, b) = ("127.0.0.1".parse().unwrap(), "::1".parse().unwrap());
        l.check(a).unwrap();
        assert!(l.check(a).is_err());
        l.check(b).unwrap();
    }
}
