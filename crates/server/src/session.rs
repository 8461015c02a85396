//! Who is logged in: the session cookie (a random token, stored only as
//! its hash), set `HttpOnly`, `SameSite=Lax`, and `Secure` when the server
//! is served over https; and the check that a request the cookie
//! authenticates comes from the server's own pages.

use axum::http::{header, HeaderMap, HeaderValue};
use cookie::{Cookie, SameSite};

use crate::ids;
use crate::store::{AccountRow, StoreError};
use crate::App;

/// Why a request's session was not taken.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    /// No session cookie, or one that ended.
    #[error("log in first (POST /api/session), or sign up (POST /api/accounts)")]
    LoginNeeded,
    /// The password changed between its check and the new session.
    #[error("the password changed while you were logging in: log in with the new one")]
    PasswordChanged,
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// The session cookie's name.
pub const COOKIE: &str = "vw_session";
/// Its name where the server is served over https: the `__Host-` prefix
/// makes browsers keep it only as set by this host, `Secure`, for `Path=/`
/// and no `Domain`, so no other page of the domain can plant one beside it.
pub const SECURE_COOKIE: &str = "__Host-vw_session";

/// The session cookie's name on this server.
pub fn cookie_name(app: &App) -> &'static str {
    if app.secure_cookies {
        SECURE_COOKIE
    } else {
        COOKIE
    }
}
/// A session not used for this long ends (the cookie lives as long).
const SESSION_DAYS: i64 = 365;
/// A session's last use is written at most this often.
const TOUCH_EVERY_MS: i64 = 3_600_000;

/// The account a request's session cookie logs in, and the session.
#[derive(Clone, Debug)]
pub struct Viewer {
    pub account: AccountRow,
    /// The hash of the session's token.
    pub session: String,
}

/// The session token a request's cookie carries. A request with two
/// session cookies (one planted beside the real one, say, under a longer
/// `Path`) carries none: it is nobody's.
pub fn cookie_token(app: &App, headers: &HeaderMap) -> Option<String> {
    let name = cookie_name(app);
    let mut found = headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(Cookie::split_parse)
        .filter_map(Result::ok)
        .filter(|c| c.name() == name)
        .map(|c| c.value().to_string());
    let first = found.next()?;
    if found.next().is_some() || first.is_empty() {
        return None;
    }
    Some(first)
}

/// The account logged in by the request's cookie, if any (a session that
/// ended, or an account deleted, is nobody).
pub async fn viewer(app: &App, headers: &HeaderMap) -> Result<Option<Viewer>, StoreError> {
    let Some(token) = cookie_token(app, headers) else {
        return Ok(None);
    };
    let hash = ids::token_hash(&token);
    let Some((account, seen)) = app.store.session_account(&hash).await? else {
        return Ok(None);
    };
    let now = app.clock.now_ms() as i64;
    if now - seen > SESSION_DAYS * 86_400_000 {
        app.store.delete_session(&hash).await?;
        return Ok(None);
    }
    if now - seen > TOUCH_EVERY_MS {
        app.store.touch_session(&hash, now).await?;
    }
    // Seen now: online for the next few minutes (written once a minute).
    if now - account.seen_ms >= crate::store::SEEN_EVERY_MS {
        mark_seen(app, &account.id, now).await;
    }
    Ok(Some(Viewer {
        account,
        session: hash,
    }))
}

/// Most writes of "seen" a process lets wait at once.
const PRESENCE_WRITES: usize = 8;
/// How long a request waits for its "seen" write before going on without.
const PRESENCE_WAIT: std::time::Duration = std::time::Duration::from_millis(250);

/// A process's writes of "seen" in flight.
pub struct Presence(std::sync::Arc<tokio::sync::Semaphore>);

impl Default for Presence {
    fn default() -> Self {
        Presence(std::sync::Arc::new(tokio::sync::Semaphore::new(
            PRESENCE_WRITES,
        )))
    }
}

/// Marks `account` seen at `now` (online for the next minutes). Being
/// shown online is worth no failed or slow request: the write runs on its
/// own task, waited for at most [`PRESENCE_WAIT`] (a database that makes
/// writes wait, SQLite's writer held by a backup say, delays nothing more),
/// and past [`PRESENCE_WRITES`] waiting at once it is skipped (the next
/// request marks the account). A failure is logged.
pub async fn mark_seen(app: &App, account: &str, now: i64) {
    let Ok(permit) = app.presence.0.clone().try_acquire_owned() else {
        return;
    };
    let store = app.store.clone();
    let account = account.to_string();
    let write = tokio::spawn(async move {
        let _permit = permit;
        if let Err(e) = store.seen(&account, now).await {
            tracing::warn!(error = ?e, "cannot mark an account seen");
        }
    });
    let _ = tokio::time::timeout(PRESENCE_WAIT, write).await;
}

/// Some of `account`'s sessions ended (a logout, a password changed, the
/// account deleted): its user sockets on every process look at once, and
/// those whose session ended close (4401).
pub async fn sessions_ended(app: &App, account: &str) -> Result<(), StoreError> {
    app.doorbells.ring(account);
    app.store.ring_elsewhere(account).await?;
    Ok(())
}

/// Whether `session` is still a session of `account` (not logged out, here
/// or everywhere, nor ended by a ban).
pub async fn lasts(app: &App, session: &str, account: &str) -> bool {
    matches!(
        app.store.session_account(session).await,
        Ok(Some((a, _))) if a.id == account
    )
}

/// A socket's hold on its page's player being online: each message heard
/// from the page marks the account seen, at most once a minute, and only
/// while its session lasts (a browser answers the server's pings by
/// itself, so an open page keeps its player online).
pub struct Heard {
    account: String,
    session: String,
    seen_ms: i64,
}

impl Heard {
    /// For a socket opened at `opened_ms` (the account was marked seen
    /// then, as its session was read): from then, not from when the first
    /// message went out, which could be later than the page's next one.
    pub fn new(account: &str, session: &str, opened_ms: i64) -> Heard {
        Heard {
            account: account.to_string(),
            session: session.to_string(),
            seen_ms: opened_ms,
        }
    }

    /// The page spoke: marks its player seen where a minute has passed.
    /// False where the session has ended (then nothing is marked).
    pub async fn heard(&mut self, app: &App) -> bool {
        let now = app.clock.now_ms() as i64;
        if now - self.seen_ms < crate::store::SEEN_EVERY_MS {
            return true;
        }
        self.seen_ms = now;
        if !lasts(app, &self.session, &self.account).await {
            return false;
        }
        mark_seen(app, &self.account, now).await;
        true
    }
}

/// The account logged in, or `401 login_needed`.
pub async fn logged_in(app: &App, headers: &HeaderMap) -> Result<Viewer, SessionError> {
    viewer(app, headers).await?.ok_or(SessionError::LoginNeeded)
}

/// A new session for `account`, made with its password of generation
/// `gen`, replacing the session this device held before (if any): stored
/// (its hash), and the cookie that carries it. `401 wrong_login` if the
/// password changed since it was checked.
pub async fn start(
    app: &App,
    account: &AccountRow,
    headers: &HeaderMap,
) -> Result<HeaderValue, SessionError> {
    let token = ids::token();
    let replaces = cookie_token(app, headers).map_or(String::new(), |t| ids::token_hash(&t));
    let made = app
        .store
        .insert_session(
            &ids::token_hash(&token),
            &account.id,
            account.password_gen,
            app.clock.now_ms() as i64,
            &replaces,
        )
        .await?;
    if !made {
        return Err(SessionError::PasswordChanged);
    }
    Ok(set_cookie(app, &token))
}

/// The `Set-Cookie` value for a session token ('' clears it).
pub fn set_cookie(app: &App, token: &str) -> HeaderValue {
    let mut c = Cookie::new(cookie_name(app), token.to_string());
    c.set_http_only(true);
    c.set_same_site(SameSite::Lax);
    c.set_path("/");
    c.set_secure(app.secure_cookies);
    c.set_max_age(cookie::time::Duration::days(if token.is_empty() {
        0
    } else {
        SESSION_DAYS
    }));
    HeaderValue::from_str(&c.to_string()).unwrap_or(HeaderValue::from_static(""))
}

/// The origin a request came from: its `Origin`, or lacking it, its
/// `Referer`'s scheme, host and port.
pub fn origin_of(headers: &HeaderMap) -> Option<String> {
    if let Some(o) = headers.get(header::ORIGIN).and_then(|v| v.to_str().ok()) {
        return Some(o.trim_end_matches('/').to_string());
    }
    let referer = headers.get(header::REFERER)?.to_str().ok()?;
    let (scheme, rest) = referer.split_once("://")?;
    let host = rest.split(['/', '?', '#']).next()?;
    Some(format!("{scheme}://{host}"))
}

/// Whether `origin` is the server's own: its public URL's when one is set,
/// else the host the request was sent to.
pub fn own_origin(app: &App, origin: &str, headers: &HeaderMap) -> bool {
    if let Some(public) = &app.public_url {
        return origin.eq_ignore_ascii_case(public.trim_end_matches('/'));
    }
    let host = headers.get(header::HOST).and_then(|v| v.to_str().ok());
    let Some((_, origin_host)) = origin.split_once("://") else {
        return false;
    };
    host.is_some_and(|h| h.eq_ignore_ascii_case(origin_host))
}
