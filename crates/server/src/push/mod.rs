//! Web Push: a notification reaches a player's browser when no page of
//! theirs is open (docs/api.md, Web Push). Each message is encrypted for
//! its subscription as RFC 8291 `aes128gcm` and signed with the server's
//! VAPID key (RFC 8292) by the `web-push` crate, then posted to the push
//! service with `reqwest`. An endpoint must be `https://` on a public
//! address (a host name is resolved at each send, and every address it
//! gives must be public, so that no subscription makes the server post to
//! its own network); `serve --push-allow-loopback` also allows
//! `http://` on loopback, for tests only. A subscription the service
//! answers 404 or 410 is dropped, and so is one that failed
//! [`DROPPED_AFTER`] times in a row (no answer in time, a refused
//! connection, a 5xx). Sends wait in a fair queue (`queue.rs`): one
//! account's dead endpoints never hold another's first push back by more
//! than one send.

mod queue;

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use web_push::{ContentEncoding, SubscriptionInfo, VapidSignatureBuilder, WebPushMessageBuilder};

use crate::store::{PushRow, Store, StoreError};

/// Most pushes sent at once by a process (its senders); past it, a push
/// waits its turn.
const IN_FLIGHT: usize = 8;
/// Longest a push service may take to take the connection.
const CONNECT_WITHIN: Duration = Duration::from_secs(2);
/// Longest a push service may take to answer, in all.
const WITHIN: Duration = Duration::from_secs(5);
/// Sends waiting for one account (past it, its oldest goes).
const MOST_WAITING_EACH: usize = 32;
/// Accounts with sends waiting (past it, a new one's push is refused).
const MOST_ACCOUNTS_WAITING: usize = 10_000;
/// A subscription that failed this many times in a row is dropped.
pub const DROPPED_AFTER: i64 = 5;
/// How long a push service keeps a message for a browser that is away.
const TTL_S: u32 = 24 * 3600;

/// What sends pushes: the server's VAPID key, an HTTP client.
pub struct Pusher {
    /// The VAPID private key, base64url.
    private: String,
    /// Its public key, base64url: the page subscribes with it.
    pub public: String,
    client: reqwest::Client,
    allow_loopback: bool,
    /// The sends waiting, and what wakes a sender when one is added.
    waiting: std::sync::Mutex<queue::Queue<(Store, PushRow, Arc<serde_json::Value>)>>,
    wake: tokio::sync::Notify,
    /// The `sub` claim: the server's public URL, or a placeholder.
    contact: String,
}

/// Why an endpoint is refused.
pub fn check_endpoint(endpoint: &str, allow_loopback: bool) -> Result<(), String> {
    let Ok(url) = reqwest::Url::parse(endpoint) else {
        return Err("endpoint is not a URL".into());
    };
    let host = url.host_str().unwrap_or("");
    let loopback = host == "localhost"
        || host
            .trim_matches(|c| c == '[' || c == ']')
            .parse::<IpAddr>()
            .is_ok_and(|ip| ip.is_loopback());
    match url.scheme() {
        "http" if allow_loopback && loopback => Ok(()),
        "https" if loopback && allow_loopback => Ok(()),
        "https" if loopback || host.is_empty() => {
            Err("endpoint is a push service's public https:// address, not this machine".into())
        }
        "https" => match host
            .trim_matches(|c| c == '[' || c == ']')
            .parse::<IpAddr>()
        {
            Ok(ip) if !public(ip) => Err("endpoint's address is not public".into()),
            _ => Ok(()),
        },
        _ => Err("endpoint is an https:// address".into()),
    }
}

/// Whether `ip` is a public address: IPv4 outside loopback, private,
/// link-local, shared (100.64/10), benchmarking (198.18/15), IETF
/// (192.0.0/24), documentation, reserved (240/4), multicast, broadcast and
/// 0/8; IPv6 only in global unicast (2000::/3), less documentation
/// (2001:db8::/32), Teredo (2001::/32) and 6to4 (2002::/16), which carry
/// IPv4 addresses inside (so do NAT64's 64:ff9b::/96, IPv4-compatible
/// ::a.b.c.d and mapped ::ffff:a.b.c.d, all outside 2000::/3).
fn public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => {
            let [a, b, c, _] = v4.octets();
            !(v4.is_loopback()
                || v4.is_private()
                || v4.is_link_local()
                || v4.is_unspecified()
                || v4.is_broadcast()
                || v4.is_multicast()
                || v4.is_documentation()
                || a == 0
                || a >= 240
                || (a == 100 && (64..128).contains(&b))
                || (a == 198 && (18..20).contains(&b))
                || (a == 192 && b == 0 && c == 0))
        }
        IpAddr::V6(v6) => {
            let [first, second, ..] = v6.segments();
            (first & 0xe000) == 0x2000
                && !(first == 0x2001 && second == 0x0db8)
                && !(first == 0x2001 && second == 0)
                && first != 0x2002
        }
    }
}

/// A new VAPID private key: a P-256 scalar as 32 bytes, base64url. OpenSSL
/// gives the scalar without its leading zero bytes (one key in 256 has
/// one), and the signer takes exactly 32 (it panicked on 31).
fn new_key() -> Result<String, StoreError> {
    let made = |e: ece::Error| StoreError::Io(format!("cannot make a VAPID key: {e}"));
    let (pair, _) = ece::generate_keypair_and_auth_secret().map_err(made)?;
    let raw = pair.raw_components().map_err(made)?;
    let d = raw.private_key();
    let mut key = [0u8; 32];
    key[32 - d.len().min(32)..].copy_from_slice(&d[d.len().saturating_sub(32)..]);
    Ok(URL_SAFE_NO_PAD.encode(key))
}

impl Pusher {
    /// The pusher of a server on `store`: its VAPID key read, or made and
    /// stored if none is.
    pub async fn new(
        store: &Store,
        allow_loopback: bool,
        contact: Option<&str>,
    ) -> Result<Pusher, StoreError> {
        let made = new_key()?;
        let private = store.server_key("vapid", &made).await?;
        // A stored key of another length (a damaged row) is said, not a panic.
        if URL_SAFE_NO_PAD
            .decode(&private)
            .map_or(true, |k| k.len() != 32)
        {
            return Err(StoreError::Io(
                "the stored VAPID key (server_keys, vapid) is not 32 bytes of base64url".into(),
            ));
        }
        let public = VapidSignatureBuilder::from_base64_no_sub(&private)
            .map_err(|e| StoreError::Io(format!("the stored VAPID key does not read: {e}")))?
            .get_public_key();
        let client = reqwest::Client::builder()
            .connect_timeout(CONNECT_WITHIN)
            .timeout(WITHIN)
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|e| StoreError::Io(format!("cannot make the push client: {e}")))?;
        Ok(Pusher {
            private,
            public: URL_SAFE_NO_PAD.encode(public),
            client,
            allow_loopback,
            waiting: std::sync::Mutex::new(queue::Queue::new(
                MOST_WAITING_EACH,
                MOST_ACCOUNTS_WAITING,
            )),
            wake: tokio::sync::Notify::new(),
            contact: contact.map_or_else(|| "https://virus-wars.invalid".into(), str::to_string),
        })
    }

    pub fn allows_loopback(&self) -> bool {
        self.allow_loopback
    }

    /// Starts the senders (`IN_FLIGHT` of them), which run until the
    /// process ends.
    pub fn start(self: &Arc<Self>) {
        for _ in 0..IN_FLIGHT {
            tokio::spawn(self.clone().sender());
        }
    }

    /// Sends `payload` (JSON) to every subscription of `account`: each a
    /// send in the account's line of the fair queue.
    pub fn push(self: &Arc<Self>, store: &Store, account: &str, payload: serde_json::Value) {
        let (me, store, account) = (self.clone(), store.clone(), account.to_string());
        tokio::spawn(async move {
            let subscriptions = match store.pushes_of(&account).await {
                Ok(s) => s,
                Err(e) => {
                    tracing::warn!(error = %e, "cannot read push subscriptions");
                    return;
                }
            };
            let payload = Arc::new(payload);
            for s in subscriptions {
                let added = {
                    let mut waiting = me.waiting.lock().unwrap_or_else(|e| e.into_inner());
                    waiting.add(&account, (store.clone(), s, payload.clone()))
                };
                match added {
                    queue::Added::Queued => {}
                    queue::Added::DroppedOldest => {
                        tracing::info!(
                            "an account's pushes pile up: its oldest waiting one is dropped"
                        )
                    }
                    queue::Added::Refused => {
                        tracing::warn!("too many accounts' pushes wait: this one is not sent");
                        return;
                    }
                }
                me.wake.notify_one();
            }
        });
    }

    /// One sender: takes the next send in turn, sends it, and tells the
    /// store what came of it.
    async fn sender(self: Arc<Self>) {
        loop {
            let next = {
                let mut waiting = self.waiting.lock().unwrap_or_else(|e| e.into_inner());
                waiting.next()
            };
            let Some((account, (store, s, payload))) = next else {
                self.wake.notified().await;
                continue;
            };
            // Another sender may take what waits behind this one.
            self.wake.notify_one();
            let outcome = self.send(&s, &payload).await;
            self.settle(&store, &s, outcome).await;
            let mut waiting = self.waiting.lock().unwrap_or_else(|e| e.into_inner());
            waiting.done(&account);
        }
    }

    /// What a send's outcome does to its subscription: gone (404, 410) or
    /// failing [`DROPPED_AFTER`] times in a row, dropped; delivered, its
    /// failures forgotten.
    async fn settle(&self, store: &Store, s: &PushRow, outcome: Result<u16, String>) {
        let failed = match outcome {
            Ok(status) if status == 404 || status == 410 => {
                tracing::info!(status, "a push subscription is gone: dropped");
                if let Err(e) = store.remove_push(&s.endpoint, None).await {
                    tracing::warn!(error = %e, "cannot drop a push subscription");
                }
                return;
            }
            Ok(status) if (200..300).contains(&status) => false,
            Ok(status) => {
                tracing::warn!(status, "a push service refused a message");
                status >= 500 || status == 429
            }
            Err(why) => {
                tracing::warn!(%why, "cannot send a push");
                true
            }
        };
        match store.push_outcome(&s.endpoint, failed, DROPPED_AFTER).await {
            Ok(true) => tracing::info!(
                failures = DROPPED_AFTER,
                "a push subscription that keeps failing is dropped"
            ),
            Ok(false) => {}
            Err(e) => tracing::warn!(error = %e, "cannot record a push's outcome"),
        }
    }

    /// One message to one subscription: the push service's status.
    pub async fn send(&self, s: &PushRow, payload: &serde_json::Value) -> Result<u16, String> {
        check_endpoint(&s.endpoint, self.allow_loopback)?;
        let url = reqwest::Url::parse(&s.endpoint).map_err(|e| e.to_string())?;
        let host = url.host_str().unwrap_or("").to_string();
        let port = url.port_or_known_default().unwrap_or(443);
        // Every address the name gives must be public (unless loopback is
        // allowed for tests), and the request goes to those checked.
        let addrs: Vec<SocketAddr> =
            tokio::net::lookup_host((host.trim_matches(|c| c == '[' || c == ']'), port))
                .await
                .map_err(|e| format!("cannot resolve {host}: {e}"))?
                .collect();
        let allowed =
            |a: &SocketAddr| public(a.ip()) || (self.allow_loopback && a.ip().is_loopback());
        if addrs.is_empty() || !addrs.iter().all(allowed) {
            return Err(format!("{host} resolves to an address that is not public"));
        }
        let info = SubscriptionInfo::new(s.endpoint.as_str(), s.p256dh.as_str(), s.auth.as_str());
        let mut vapid =
            VapidSignatureBuilder::from_base64(&self.private, &info).map_err(|e| e.to_string())?;
        vapid.add_claim("sub", self.contact.as_str());
        let signature = vapid.build().map_err(|e| e.to_string())?;
        let content = payload.to_string();
        let mut builder = WebPushMessageBuilder::new(&info);
        builder.set_payload(ContentEncoding::Aes128Gcm, content.as_bytes());
        builder.set_vapid_signature(signature);
        builder.set_ttl(TTL_S);
        let message = builder.build().map_err(|e| e.to_string())?;
        let request = web_push::request_builder::build_request::<Vec<u8>>(message);
        let client = if host.parse::<IpAddr>().is_ok() || host.starts_with('[') {
            self.client.clone()
        } else {
            // Pinned to the addresses checked above.
            reqwest::Client::builder()
                .connect_timeout(CONNECT_WITHIN)
                .timeout(WITHIN)
                .redirect(reqwest::redirect::Policy::none())
                .resolve_to_addrs(&host, &addrs)
                .build()
                .map_err(|e| e.to_string())?
        };
        let mut out = client.post(url);
        for (name, value) in request.headers() {
            out = out.header(name.as_str(), value.as_bytes());
        }
        let answer = out
            .body(request.into_body())
            .send()
            .await
            .map_err(|e| e.to_string())?;
        Ok(answer.status().as_u16())
    }
}

#[cfg(test)]
mod tests {
    use super::check_endpoint;

    /// Keys made many times all read back as signing keys: the one in 256
    /// whose scalar starts with a zero byte too.
    #[test]
    fn every_key_made_is_32_bytes_and_signs() {
        for _ in 0..1000 {
            let text = super::new_key().unwrap();
            assert!(web_push::VapidSignatureBuilder::from_base64_no_sub(&text).is_ok());
        }
    }

    #[test]
    fn endpoints_are_public_https_unless_loopback_is_allowed() {
        for ok in [
            "https://push.example.com/send/abc",
            "https://fcm.googleapis.com/fcm/send/x",
        ] {
            assert_eq!(check_endpoint(ok, false), Ok(()), "{ok}");
        }
        for bad in [
            "http://push.example.com/x",
            "https://127.0.0.1/x",
            "https://localhost/x",
            "https://10.1.2.3/x",
            "https://192.168.0.1/x",
            "https://169.254.169.254/latest",
            "https://[::1]/x",
            "https://[fd00::1]/x",
            "https://[::ffff:10.0.0.1]/x",
            "https://[::127.0.0.1]/x",
            "https://[64:ff9b::7f00:1]/x",
            "https://[2002:7f00:1::1]/x",
            "https://[2001:db8::1]/x",
            "https://[2001::1]/x",
            "https://[fec0::1]/x",
            "https://192.0.0.1/x",
            "https://240.0.0.1/x",
            "ftp://push.example.com/x",
            "not a url",
        ] {
            assert!(check_endpoint(bad, false).is_err(), "{bad}");
        }
        assert_eq!(check_endpoint("http://127.0.0.1:9/x", true), Ok(()));
        assert!(check_endpoint("http://10.0.0.1/x", true).is_err());
    }
}
