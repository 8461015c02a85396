//! A client connection's socket, as hyper and the WebSockets see it, with
//! two duties hyper has no setting for:
//!
//! - a write the client does not take within the write timeout fails (the
//!   connection closes), so a client that never reads cannot hold a
//!   connection or its buffers;
//! - hyper answers a request it cannot parse (a path over 64 KiB, a byte a
//!   request line may not hold, too many headers) itself, with an empty
//!   body; such answers are rewritten here into the API's JSON errors and
//!   counted like every refused request. They are recognised by their
//!   head: an error status, `content-length: 0` and no `content-type`,
//!   which no answer of the API has (every error the router sends is JSON).

use prometheus_client::metrics::gauge::Gauge;
use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;

use crate::App;

use crate::code::Code;

/// Open connections, by address.
#[derive(Default)]
pub struct Open {
    pub by_address: HashMap<IpAddr, usize>,
    pub total: usize,
}

/// One open connection, counted out when it closes (its socket is held by
/// the connection's IO, so a connection upgraded to a WebSocket counts
/// until the socket closes).
pub struct Counted {
    open: Arc<Mutex<Open>>,
    ip: IpAddr,
    /// The gauge of open connections, counted down with this one.
    gauge: Gauge,
}

impl Counted {
    /// Counts a connection from `ip` that `open` has counted in already
    /// (and in `gauge`).
    pub fn new(open: Arc<Mutex<Open>>, ip: IpAddr, gauge: Gauge) -> Counted {
        gauge.inc();
        Counted { open, ip, gauge }
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        self.gauge.dec();
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        open.total -= 1;
        if let Some(n) = open.by_address.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                open.by_address.remove(&self.ip);
            }
        }
    }
}

/// The first line of HTTP/2's connection preface.
const H2_PREFACE_LINE: &[u8] = b"PRI * HTTP/2.0";

pub struct Guarded {
    stream: TcpStream,
    write_timeout: Duration,
    /// Running while a write waits for the client to take bytes.
    stalled: Option<Pin<Box<tokio::time::Sleep>>>,
    /// A rewritten answer being written: its bytes, how many are written,
    /// and the length of what hyper asked to write in its place.
    rewrite: Option<(Vec<u8>, usize, usize)>,
    /// Whether the client has sent anything yet.
    heard: bool,
    /// Whether a write waits for the client to take bytes (told to whoever
    /// stops the connection: what hyper holds is not yet sent).
    waiting: Arc<std::sync::atomic::AtomicBool>,
    app: Arc<App>,
    _counted: Counted,
}

impl Guarded {
    pub fn new(
        stream: TcpStream,
        write_timeout: Duration,
        app: Arc<App>,
        counted: Counted,
        waiting: Arc<std::sync::atomic::AtomicBool>,
    ) -> Guarded {
        Guarded {
            stream,
            write_timeout,
            stalled: None,
            rewrite: None,
            heard: false,
            waiting,
            app,
            _counted: counted,
        }
    }

    /// A write went through: nothing waits for the client.
    fn wrote(&mut self) {
        self.stalled = None;
        self.waiting
            .store(false, std::sync::atomic::Ordering::SeqCst);
    }

    /// Counts a connection the kernel ended because the client left what
    /// was sent unacknowledged for the write timeout (`listen.rs`,
    /// TCP_USER_TIMEOUT) as a slow client closed.
    fn note_unacked(&self, e: &io::Error) {
        if e.raw_os_error() == Some(libc::ETIMEDOUT) {
            self.app.metrics.slow_clients_closed.inc();
        }
    }

    /// Pending: whether the client has kept it waiting too long.
    fn poll_stalled(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<usize>> {
        self.waiting
            .store(true, std::sync::atomic::Ordering::SeqCst);
        let timeout = self.write_timeout;
        let timer = self
            .stalled
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(timeout)));
        if timer.as_mut().poll(cx).is_ready() {
            self.app.metrics.slow_clients_closed.inc();
            return Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the client took nothing of what was sent for too long",
            )));
        }
        Poll::Pending
    }
}

/// hyper's own answer to a request it could not parse, as JSON: the same
/// status, a body the API's clients read like any error.
fn rewritten(head: &[u8]) -> Option<Vec<u8>> {
    let end = head.windows(4).position(|w| w == b"\r\n\r\n")? + 4;
    if end != head.len() {
        return None;
    }
    let text = std::str::from_utf8(head).ok()?;
    let status_line = text.lines().next()?;
    let status: u16 = status_line
        .strip_prefix("HTTP/1.1 ")?
        .get(..3)?
        .parse()
        .ok()?;
    let lower = text.to_ascii_lowercase();
    if status < 400
        || !lower.contains("\r\ncontent-length: 0\r\n")
        || lower.contains("content-type:")
    {
        return None;
    }
    let (code, message) = match status {
        414 => (
            Code::TooLarge,
            "the request's path is too long: the API's paths are at most 4 KiB",
        ),
        431 => (
            Code::TooLarge,
            "the request's line and headers are too large: at most 64 KiB in all and 100 headers",
        ),
        505 => (Code::Malformed, "only HTTP/1.0 and HTTP/1.1 are served"),
        408 => (Code::Timeout, "the request did not arrive in time"),
        _ => (
            Code::Malformed,
            "the request is not valid HTTP/1.1: a byte the request line or a header may not hold, or a malformed line",
        ),
    };
    let body = serde_json::json!({"error": {"code": code.name(), "message": message}}).to_string();
    Some(
        format!(
            "{status_line}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
            body.len()
        )
        .into_bytes(),
    )
}

impl AsyncRead for Guarded {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let read = Pin::new(&mut self.stream).poll_read(cx, buf);
        if !self.heard && buf.filled().len() > before {
            self.heard = true;
            // HTTP/2's preface: hyper (HTTP/1.1 only here) would close
            // without a word. Read as a request line of a version it does
            // not serve, it is refused (400), in JSON like every refusal.
            let new = &mut buf.filled_mut()[before..];
            if new.starts_with(H2_PREFACE_LINE) {
                new[H2_PREFACE_LINE.len() - 3] = b'9';
            }
        }
        if let Poll::Ready(Err(e)) = &read {
            self.note_unacked(e);
        }
        read
    }
}

impl AsyncWrite for Guarded {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        if this.rewrite.is_none() {
            if let Some(answer) = rewritten(buf) {
                this.app.metrics.requests_refused.inc();
                this.rewrite = Some((answer, 0, buf.len()));
            }
        }
        if let Some((answer, written, instead)) = &mut this.rewrite {
            while *written < answer.len() {
                match Pin::new(&mut this.stream).poll_write(cx, &answer[*written..]) {
                    Poll::Ready(Ok(n)) => {
                        *written += n;
                        this.stalled = None;
                        this.waiting
                            .store(false, std::sync::atomic::Ordering::SeqCst);
                    }
                    Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                    Poll::Pending => return this.poll_stalled(cx),
                }
            }
            let instead = *instead;
            this.rewrite = None;
            return Poll::Ready(Ok(instead));
        }
        match Pin::new(&mut this.stream).poll_write(cx, buf) {
            Poll::Pending => this.poll_stalled(cx),
            ready => {
                this.wrote();
                if let Poll::Ready(Err(e)) = &ready {
                    this.note_unacked(e);
                }
                ready
            }
        }
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }

    fn is_write_vectored(&self) -> bool {
        // hyper then writes an answer's head in one piece, which the
        // rewrite above needs to see whole.
        false
    }
}

#[cfg(test)]
mod tests {
    use super::rewritten;

    #[test]
    fn only_hypers_empty_error_answers_are_rewritten() {
        let hyper = b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\ndate: Wed, 25 Nov 2026 10:00:00 GMT\r\n\r\n";
        let answer = String::from_utf8(rewritten(hyper).unwrap()).unwrap();
        assert!(answer.starts_with("HTTP/1.1 431 "), "{answer}");
        assert!(
            answer.contains("content-type: application/json"),
            "{answer}"
        );
        let body = answer.split("\r\n\r\n").nth(1).unwrap();
        let v: serde_json::Value = serde_json::from_str(body).unwrap();
        assert_eq!(v["error"]["code"], "too_large");
        let length: usize = answer
            .lines()
            .find_map(|l| l.strip_prefix("content-length: "))
            .unwrap()
            .parse()
            .unwrap();
        assert_eq!(length, body.len());
        // The API's own answers: a JSON error, a success, a body after the head.
        for ours in [
            &b"HTTP/1.1 404 Not Found\r\ncontent-type: application/json\r\ncontent-length: 0\r\n\r\n"[..],
            b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n",
            b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n{}",
            b"HTTP/1.1 400 Bad Request\r\ncontent-length: 2\r\n\r\n",
        ] {
            assert_eq!(rewritten(ours), None, "{}", String::from_utf8_lossy(ours));
        }
    }
}
