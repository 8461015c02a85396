//! The limits on guessing a password, kept in the database so that every
//! server process counts the same (on even with `--no-rate-limits`): the
//! one way a password is checked, for logging in, a new password and
//! deleting an account.

use axum::http::StatusCode;

use super::error::ApiError;
use crate::code::Code;
use crate::App;

/// Failures a name may have before each further try waits.
const FREE_FAILURES_PER_NAME: i64 = 10;
/// Failures an address may have, over all names, before it waits.
const FREE_FAILURES_PER_ADDRESS: i64 = 30;
/// Failures are forgotten a day after the first of them.
const FAILURE_WINDOW_MS: i64 = 86_400_000;
/// The first wait, doubled with each failure after it, at most a day.
const FIRST_WAIT_MS: i64 = 30_000;

fn name_subject(name: &str) -> String {
    format!("login-name:{}", name.to_ascii_lowercase())
}

fn address_subject(client: &std::net::IpAddr) -> String {
    format!("login-address:{}", client)
}

/// 429 with `Retry-After` if any of `subjects` is waiting at `now`.
async fn check_waits(app: &App, subjects: &[&str], now: i64) -> Result<(), ApiError> {
    for subject in subjects {
        let until = app.store.blocked_until(subject).await?;
        if until > now {
            let secs = ((until - now) as u64).div_ceil(1000).max(1);
            return Err(ApiError {
                retry_after: Some(secs),
                ..ApiError::new(
                    StatusCode::TOO_MANY_REQUESTS,
                    Code::RateLimited,
                    format!("too many login tries (failed, or sent at once) for this name or address: try again in {secs} s"),
                )
            });
        }
    }
    Ok(())
}

/// Counts a try of `subject` before its password is checked, in one
/// atomic write, so that tries sent at once are counted one by one. Past
/// `free`, one try at a time is checked, once the wait is over: it takes
/// the next wait (doubled with each try) in one conditional write, and the
/// tries that lose that race are refused unchecked (429). The count, for
/// [`settle`].
async fn count_try(app: &App, subject: &str, free: i64, now: i64) -> Result<i64, ApiError> {
    let (count, _) = app.store.count_up(subject, now, FAILURE_WINDOW_MS).await?;
    if count > free {
        let doublings = (count - free - 1).min(12) as u32;
        let wait = (FIRST_WAIT_MS << doublings).min(FAILURE_WINDOW_MS);
        if !app.store.take_turn(subject, now, now + wait).await? {
            check_waits(app, &[subject], now).await?;
            return Err(ApiError::rate_limited(
                "login tries at once",
                std::time::Duration::from_secs(1),
            ));
        }
    }
    Ok(count)
}

/// After a failed try: the `free`-th failure starts the wait.
async fn settle(app: &App, subject: &str, count: i64, free: i64, now: i64) -> Result<(), ApiError> {
    if count == free {
        app.store.block(subject, now + FIRST_WAIT_MS).await?;
    }
    Ok(())
}

/// Checks `password` for the account `name` under the limits on guessing:
/// the account, or `401 wrong_login` (the same answer, in the same time,
/// for a wrong password and a name nobody has).
pub async fn check_login(
    app: &App,
    client: &std::net::IpAddr,
    name: &str,
    password: &str,
) -> Result<crate::store::AccountRow, ApiError> {
    let now = app.clock.now_ms() as i64;
    let (by_name, by_address) = (name_subject(name), address_subject(client));
    check_waits(app, &[&by_name, &by_address], now).await?;
    // Counted before the (slow) check, so that guesses sent at once
    // cannot all pass before the first failures are written.
    let name_count = count_try(app, &by_name, FREE_FAILURES_PER_NAME, now).await?;
    let address_count = count_try(app, &by_address, FREE_FAILURES_PER_ADDRESS, now).await?;
    let account = app
        .store
        .account_named(name)
        .await?
        .filter(|a| a.deleted_ms == 0 && a.kind == "person");
    let hash = account.as_ref().map(|a| a.password_hash.as_str());
    if app.passwords.verify(password, hash).await? {
        if let Some(a) = account {
            // A right password: its name starts afresh, and the address's
            // try was no failure.
            app.store.forget(&by_name).await?;
            app.store.count_down(&by_address).await?;
            if a.banned_ms != 0 {
                return Err(ApiError::new(
                    axum::http::StatusCode::FORBIDDEN,
                    crate::code::Code::Banned,
                    "an operator of this server banned this account: it cannot log in",
                ));
            }
            return Ok(a);
        }
    }
    settle(app, &by_name, name_count, FREE_FAILURES_PER_NAME, now).await?;
    settle(
        app,
        &by_address,
        address_count,
        FREE_FAILURES_PER_ADDRESS,
        now,
    )
    .await?;
    Err(ApiError::new(
        StatusCode::UNAUTHORIZED,
        Code::WrongLogin,
        "wrong name or password",
    ))
}

/// Counts one more of `subject` in the hour that its count started
/// (every process alike), and `429 rate_limited` (with `Retry-After`,
/// saying `why` of the seconds to wait) past `per_hour`; 0: no limit.
pub async fn per_hour(
    app: &App,
    subject: &str,
    per_hour: u32,
    why: impl FnOnce(u64) -> String,
) -> Result<(), ApiError> {
    const HOUR_MS: i64 = 3_600_000;
    if per_hour == 0 {
        return Ok(());
    }
    let now = app.clock.now_ms() as i64;
    let (count, since) = app.store.count_up(subject, now, HOUR_MS).await?;
    if count <= i64::from(per_hour) {
        return Ok(());
    }
    let secs = ((since + HOUR_MS - now).max(1000) as u64).div_ceil(1000);
    Err(ApiError {
        retry_after: Some(secs),
        ..ApiError::new(StatusCode::TOO_MANY_REQUESTS, Code::RateLimited, why(secs))
    })
}
