//! Taking connections: each is served by hyper (HTTP/1.1, upgrades to
//! WebSocket) with timeouts on a client that is slow to send or to take,
//! and at most so many connections from one address and in all.
//!
//! axum's own `serve` sets no timer, so hyper's header timeout never runs,
//! and it has no cap on connections: this loop is that `serve` with both
//! (as hyper-util's own examples serve connections).
//!
//! When file descriptors would run out, new connections are refused (a
//! short JSON `503` and closed) while the open ones are served: the cap in
//! all is the process's limit on open files less a reserve for the
//! database and the server's own files.

use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::ConnectInfo;
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tower::Service;

use crate::connection::{Counted, Guarded, Open};
use crate::App;

use crate::code::Code;

/// Limits on connections.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Connections {
    /// Most connections open from one address at once (0: no cap).
    pub per_address: usize,
    /// Most connections open in all; `None`: the limit on open files less
    /// [`RESERVED_FILES`], and at most [`MAX_CONNECTIONS`].
    pub total: Option<usize>,
    /// A request's line and headers must arrive within this, and a kept-
    /// alive connection with no new request for this long is closed.
    pub header_timeout: Duration,
    /// A request's body must arrive within this.
    pub body_timeout: Duration,
    /// An answer (or a socket's message) the client does not take within
    /// this closes the connection.
    pub write_timeout: Duration,
}

impl Default for Connections {
    fn default() -> Self {
        Connections {
            per_address: 128,
            total: None,
            header_timeout: Duration::from_secs(30),
            body_timeout: Duration::from_secs(15),
            write_timeout: Duration::from_secs(30),
        }
    }
}

/// The client's address for a request: the connection's, or the one a
/// trusted proxy names (see `proxy`). What every per-address limit counts.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Client(pub std::net::IpAddr);

/// Files kept for what is not a client's connection: the database's
/// connections, the listener, the log.
pub const RESERVED_FILES: usize = 64;
/// Most connections in all unless `--max-connections` says otherwise (with
/// [`MAX_HEAD`], what unfinished requests can hold is at most 512 MiB).
pub const MAX_CONNECTIONS: usize = 8192;
/// Most bytes of a request's line and headers the server reads and holds.
pub const MAX_HEAD: usize = 64 * 1024;
/// A server stopping waits this long for connections to finish.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(10);
/// A stopping server's connection that answers no request is closed after
/// this long (what it already wrote is flushed meanwhile).
const FLUSH_GRACE: Duration = Duration::from_millis(500);

/// How many requests one connection is answering now.
#[derive(Clone, Default)]
struct Answering(Arc<std::sync::atomic::AtomicUsize>);

/// One request being answered; done when dropped.
struct Busy(Arc<std::sync::atomic::AtomicUsize>);

impl Answering {
    fn start(&self) -> Busy {
        self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        Busy(self.0.clone())
    }

    fn any(&self) -> bool {
        self.0.load(std::sync::atomic::Ordering::SeqCst) > 0
    }
}

impl Busy {
    /// `response`, whose body holds this request busy until hyper has
    /// taken its last byte (or dropped it).
    fn until_sent(self, response: axum::response::Response) -> axum::response::Response {
        use http_body_util::BodyExt;
        response.map(|body| {
            axum::body::Body::new(body.map_frame(move |frame| {
                let _held = &self;
                frame
            }))
        })
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
    }
}

/// The limit on open files (raised to the hard limit first, as servers do).
fn open_files_limit() -> Option<usize> {
    // SAFETY: getrlimit and setrlimit read and write the struct passed.
    unsafe {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
            return None;
        }
        if limit.rlim_cur < limit.rlim_max {
            let raised = libc::rlimit {
                rlim_cur: limit.rlim_max,
                rlim_max: limit.rlim_max,
            };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                limit = raised;
            }
        }
        usize::try_from(limit.rlim_cur).ok()
    }
}

/// Why a connection is refused, as a whole HTTP answer.
fn refusal(status: &str, code: Code, message: &str) -> Vec<u8> {
    let body = serde_json::json!({"error": {"code": code.name(), "message": message}}).to_string();
    format!(
        "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
         connection: close\r\nretry-after: 5\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// Refused connections being closed gently at once, at most.
const MAX_REFUSING: usize = 64;

/// Answers a refused connection and closes it. Closed at once, a socket
/// whose request is still unread would be reset, and the client would
/// never read the answer: so the answer is sent, the writing side shut,
/// and what the client sent read and dropped for up to half a second
/// (for at most [`MAX_REFUSING`] connections at once; past that, closed at
/// once).
fn refuse(
    stream: tokio::net::TcpStream,
    answer: Vec<u8>,
    refusing: &Arc<std::sync::atomic::AtomicUsize>,
) {
    use std::sync::atomic::Ordering::Relaxed;
    let _ = stream.try_write(&answer);
    if refusing.fetch_add(1, Relaxed) >= MAX_REFUSING {
        refusing.fetch_sub(1, Relaxed);
        return;
    }
    let refusing = refusing.clone();
    tokio::spawn(async move {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let mut stream = stream;
        let _ = stream.shutdown().await;
        let mut sink = [0u8; 4096];
        let _ = tokio::time::timeout(Duration::from_millis(500), async {
            while matches!(stream.read(&mut sink).await, Ok(n) if n > 0) {}
        })
        .await;
        refusing.fetch_sub(1, Relaxed);
    });
}

/// Counts a new connection from `ip` in `open`, or the answer that refuses
/// it: the server holds `total_cap` already (503), or the address
/// `per_address` (429; none for a `trusted` proxy, which carries every
/// player's connections).
fn admit(
    open: &Mutex<Open>,
    ip: std::net::IpAddr,
    total_cap: usize,
    per_address: usize,
    trusted: bool,
) -> Option<Vec<u8>> {
    let mut o = open.lock().unwrap_or_else(|e| e.into_inner());
    let mine = o.by_address.get(&ip).copied().unwrap_or(0);
    if o.total >= total_cap {
        Some(refusal(
            "503 Service Unavailable",
            Code::Busy,
            &format!("the server holds as many connections as it can ({total_cap}): try again in a few seconds"),
        ))
    } else if per_address > 0
        && mine >= per_address
        // A trusted proxy carries every player's connections.
        && !trusted
    {
        Some(refusal(
            "429 Too Many Requests",
            Code::TooManyConnections,
            &format!(
                "your address has {mine} connections open, the most one address may have: close some and try again"
            ),
        ))
    } else {
        o.total += 1;
        *o.by_address.entry(ip).or_insert(0) += 1;
        None
    }
}

/// HTTP/1.1 as every connection is served: a head read within the
/// header timeout, and never larger than [`MAX_HEAD`].
fn http_builder(limits: &Connections) -> hyper::server::conn::http1::Builder {
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        // What an unfinished request may make the server hold: its line and
        // headers read so far (a whole head past it is refused, 431).
        .max_buf_size(MAX_HEAD)
        // ... and a whole head, however it came: the buffer's limit is
        // checked only between reads, so one large read could take a head
        // up to twice it.
        .max_header_size(MAX_HEAD)
        .keep_alive(true);
    http
}

/// Serves `router` on `listener` until `shutdown` completes; then stops
/// taking connections and lets the open ones finish (for up to
/// [`SHUTDOWN_GRACE`]).
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: Connections,
    app: Arc<App>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let total_cap = limits.total.unwrap_or_else(|| {
        open_files_limit()
            .map_or(MAX_CONNECTIONS, |n| {
                n.saturating_sub(RESERVED_FILES).max(16)
            })
            .min(MAX_CONNECTIONS)
    });
    tracing::info!(
        total = total_cap,
        per_address = limits.per_address,
        "connection limits"
    );
    let open = Arc::new(Mutex::new(Open::default()));
    let refusing = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let mut tasks = tokio::task::JoinSet::new();
    let http = http_builder(&limits);
    tokio::pin!(shutdown);
    let mut said_out_of_files = None::<tokio::time::Instant>;
    loop {
        let (stream, peer) = tokio::select! {
            _ = &mut shutdown => break,
            // Finished connections' tasks are reaped as they end.
            Some(_) = tasks.join_next(), if !tasks.is_empty() => continue,
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    // Out of files (or another passing error): the open
                    // connections go on; new ones wait a moment.
                    if said_out_of_files.is_none_or(|t| t.elapsed() > Duration::from_secs(1)) {
                        tracing::warn!(error = %e, "cannot take a connection");
                        said_out_of_files = Some(tokio::time::Instant::now());
                    }
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        // Counted as per-address limits count (an IPv6 host by its /64).
        let ip = crate::proxy::limited_as(peer.ip());
        let trusted = app.proxies.trusts(peer.ip());
        let refused = admit(&open, ip, total_cap, limits.per_address, trusted);
        if let Some(answer) = refused {
            app.metrics.connections_refused.inc();
            refuse(stream, answer, &refusing);
            continue;
        }
        let counted = Counted::new(open.clone(), ip, app.metrics.connections.clone());
        let conn = Conn {
            stream,
            peer,
            counted,
        };
        spawn_connection(
            &mut tasks,
            &http,
            conn,
            &limits,
            &app,
            &router,
            stop_rx.clone(),
        );
    }
    drop(listener);
    stop(&app, tasks, stop_tx).await;
    Ok(())
}

/// A connection taken and counted.
struct Conn {
    stream: tokio::net::TcpStream,
    peer: SocketAddr,
    counted: Counted,
}

/// Serves connection `conn` on a task of `tasks` until it ends, or until
/// `stop` says the server stops: then its request in progress is finished
/// and no other is taken.
fn spawn_connection(
    tasks: &mut tokio::task::JoinSet<()>,
    http: &hyper::server::conn::http1::Builder,
    conn: Conn,
    limits: &Connections,
    app: &Arc<App>,
    router: &Router,
    stop_rx: tokio::sync::watch::Receiver<bool>,
) {
    let Conn {
        stream,
        peer,
        counted,
    } = conn;
    let _ = stream.set_nodelay(true);
    unacked_limit(&stream, limits.write_timeout);
    // Whether bytes written wait for the client to take them.
    let waiting = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let io = TokioIo::new(Guarded::new(
        stream,
        limits.write_timeout,
        app.clone(),
        counted,
        waiting.clone(),
    ));
    let router = router.clone();
    let proxies = app.clone();
    // Requests of this connection being answered (from a whole head
    // read to the answer's last byte handed to hyper).
    let answering = Answering::default();
    let answering_here = answering.clone();
    let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
        // Who the client is: this connection's address, or the one a
        // trusted proxy names (read once a request, here).
        let client = proxies.proxies.client(peer.ip(), request.headers());
        let extensions = request.extensions_mut();
        extensions.insert(ConnectInfo::<SocketAddr>(peer));
        extensions.insert(Client(client));
        let mut router = router.clone();
        let busy = answering_here.start();
        async move {
            let response = router.call(request).await.unwrap_or_else(|e| match e {});
            Ok::<_, Infallible>(busy.until_sent(response))
        }
    });
    let connection = http.serve_connection(io, service).with_upgrades();
    let mut stop = stop_rx;
    tasks.spawn(async move {
        tokio::pin!(connection);
        tokio::select! {
            result = connection.as_mut() => {
                if let Err(e) = result {
                    tracing::debug!(error = %e, "a connection ended with an error");
                }
                return;
            }
            _ = stop.wait_for(|s| *s) => {}
        }
        // Stopping: finish the request in progress, take no more. A
        // connection with none (idle, or still sending a head) and
        // nothing waiting to be taken by its client is given a moment
        // to flush, then closed: a client that sends its head slowly
        // does not hold the stop, and a slow reader's answer is whole.
        connection.as_mut().graceful_shutdown();
        let flushed = tokio::time::timeout(FLUSH_GRACE, connection.as_mut()).await;
        let sending = waiting.load(std::sync::atomic::Ordering::SeqCst);
        if flushed.is_err() && (answering.any() || sending) {
            let _ = tokio::time::timeout(SHUTDOWN_GRACE - FLUSH_GRACE, connection).await;
        }
    });
}

/// The stop, once no connection is taken any more: live sockets are told,
/// then every connection's task is given [`SHUTDOWN_GRACE`] to end.
async fn stop(
    app: &App,
    mut tasks: tokio::task::JoinSet<()>,
    stop_tx: tokio::sync::watch::Sender<bool>,
) {
    // Live sockets are told to connect again (1012, service restart): to
    // another process, or to this one's next start.
    app.stopping.send_replace(true);
    let _ = stop_tx.send(true);
    // Each socket writes its close before the process ends (a socket's
    // close waits at most 2 s for the client's answer).
    let _ = tokio::time::timeout(SHUTDOWN_GRACE, async {
        while app.metrics.sockets.get() > 0 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;
    let _ = tokio::time::timeout(SHUTDOWN_GRACE, async {
        while tasks.join_next().await.is_some() {}
    })
    .await;
}

/// The kernel ends the connection once bytes it sent stay unacknowledged
/// for `within` (TCP_USER_TIMEOUT; since Linux 5.1 also while the client
/// keeps its window shut): a client that stops reading is closed that long
/// after the last byte it took, however much its buffers and the server's
/// had room for (a write that completes into a buffer is not taken).
fn unacked_limit(stream: &tokio::net::TcpStream, within: std::time::Duration) {
    use std::os::fd::AsRawFd;
    let ms = libc::c_uint::try_from(within.as_millis()).unwrap_or(libc::c_uint::MAX);
    // SAFETY: a valid socket descriptor, an option of its documented type
    // and size.
    let set = unsafe {
        libc::setsockopt(
            stream.as_raw_fd(),
            libc::IPPROTO_TCP,
            libc::TCP_USER_TIMEOUT,
            std::ptr::addr_of!(ms).cast(),
            std::mem::size_of::<libc::c_uint>() as libc::socklen_t,
        )
    };
    if set != 0 {
        tracing::debug!(error = %std::io::Error::last_os_error(), "TCP_USER_TIMEOUT not set");
    }
}
