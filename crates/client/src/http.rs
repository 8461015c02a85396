//! A client of the server's API (HTTP and the live socket), for the load
//! test and for bots (`virus-wars bot`): `http://` or `https://` (through
//! a TLS proxy), by `reqwest` and `tokio-tungstenite` over rustls. Server
//! certificates are checked against the system's roots, and against the
//! file `SSL_CERT_FILE` names (as curl does), for a private authority.

use std::sync::Arc;

use futures_util::StreamExt;
use serde_json::Value;
use tokio::net::TcpStream;
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message;

/// A server to talk to: its base address and one connection pool.
#[derive(Clone, Debug)]
pub struct Server {
    /// `http://host:port` or `https://host[:port]`, no trailing slash.
    base: String,
    client: reqwest::Client,
    /// Authorities trusted beside the system's (PEM), for the socket too.
    extra_roots: Vec<Vec<u8>>,
}

impl Server {
    /// The server at `url` (`http://…` or `https://…`; a bare `host:port`
    /// is taken as `http://host:port`).
    pub fn new(url: &str) -> Result<Server, String> {
        Server::with_roots(url, Vec::new())
    }

    /// As [`Server::new`], trusting the certificate authorities in
    /// `roots` (PEM) too.
    pub fn with_roots(url: &str, roots: Vec<Vec<u8>>) -> Result<Server, String> {
        let url = url.trim();
        let full = if url.contains("://") {
            url.to_string()
        } else {
            format!("http://{url}")
        };
        let refuse = |why: &str| Err(format!("the server's address '{url}': {why}"));
        let parsed = match reqwest::Url::parse(&full) {
            Ok(parsed) => parsed,
            Err(e) if e.to_string() == "empty host" => return refuse("it names no host"),
            Err(_) => return refuse("it does not read as a URL (like https://example.org)"),
        };
        let scheme = parsed.scheme();
        if !matches!(scheme, "http" | "https") {
            return refuse("it must start with http:// or https://");
        }
        let Some(host) = parsed.host_str().filter(|h| !h.is_empty()) else {
            return refuse("it names no host");
        };
        if !parsed.username().is_empty() || parsed.password().is_some() {
            return refuse("it may not hold a user or password (a bot sends its token)");
        }
        if parsed.path() != "/" || parsed.query().is_some() || parsed.fragment().is_some() {
            return refuse("give the server's origin alone (like https://example.org), no path");
        }
        let base = match parsed.port() {
            Some(port) => format!("{scheme}://{host}:{port}"),
            None => format!("{scheme}://{host}"),
        };
        let mut builder = reqwest::Client::builder()
            .use_rustls_tls()
            .connect_timeout(std::time::Duration::from_secs(10))
            // No answer of the API takes long: a server that never answers
            // is given up on.
            .timeout(std::time::Duration::from_secs(60));
        for pem in &roots {
            let cert = reqwest::Certificate::from_pem(pem)
                .map_err(|e| format!("a certificate authority that does not read: {e}"))?;
            builder = builder.add_root_certificate(cert);
        }
        let client = builder
            .build()
            .map_err(|e| format!("cannot set up HTTPS: {e}"))?;
        Ok(Server {
            base,
            client,
            extra_roots: roots,
        })
    }

    /// The server's origin, as its pages are served from (`https://host`).
    pub fn origin(&self) -> &str {
        &self.base
    }

    /// One HTTP request; the status and the JSON body.
    pub async fn http(&self, method: &str, path: &str, body: &str) -> Result<(u16, Value), String> {
        self.http_as(method, path, None, body).await
    }

    /// One HTTP request with a bearer token; the status and the JSON body.
    pub async fn http_as(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: &str,
    ) -> Result<(u16, Value), String> {
        let mut request = self.request(method, path, body)?;
        if let Some(t) = token {
            request = request.bearer_auth(t);
        }
        let (status, value, _) = self.send(request).await?;
        Ok((status, value))
    }

    /// One HTTP request with a session cookie (if any, sent from the
    /// server's own origin); the status, the JSON body and the session
    /// cookie the answer sets.
    pub async fn http_session(
        &self,
        method: &str,
        path: &str,
        cookie: Option<&str>,
        body: &str,
    ) -> Result<(u16, Value, Option<String>), String> {
        let mut request = self.request(method, path, body)?;
        if let Some(c) = cookie {
            // Over https the server names its cookie `__Host-vw_session`.
            let name = if self.base.starts_with("https://") {
                "__Host-vw_session"
            } else {
                "vw_session"
            };
            request = request
                .header("cookie", format!("{name}={c}"))
                .header("origin", &self.base);
        }
        self.send(request).await
    }

    fn request(
        &self,
        method: &str,
        path: &str,
        body: &str,
    ) -> Result<reqwest::RequestBuilder, String> {
        let method = reqwest::Method::from_bytes(method.as_bytes())
            .map_err(|_| format!("'{method}' is no HTTP method"))?;
        let mut request = self.client.request(method, format!("{}{path}", self.base));
        if !body.is_empty() {
            request = request
                .header("content-type", "application/json")
                .body(body.to_string());
        }
        Ok(request)
    }

    async fn send(
        &self,
        request: reqwest::RequestBuilder,
    ) -> Result<(u16, Value, Option<String>), String> {
        let answer = request
            .send()
            .await
            .map_err(|e| format!("{}: {}", self.base, error_chain(&e)))?;
        let status = answer.status().as_u16();
        let cookie = answer
            .headers()
            .get_all("set-cookie")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .find_map(|v| {
                let (name, rest) = v.split_once('=')?;
                name.ends_with("vw_session")
                    .then(|| rest.split(';').next().unwrap_or_default().to_string())
            });
        let text = answer
            .text()
            .await
            .map_err(|e| format!("{}: {}", self.base, error_chain(&e)))?;
        Ok((
            status,
            serde_json::from_str(&text).unwrap_or(Value::Null),
            cookie,
        ))
    }

    /// A socket on game `id` for `token`: a sink to send on and an inbox of
    /// JSON messages.
    pub async fn socket(&self, id: &str, token: &str) -> Result<(Outbox, Inbox), String> {
        self.connect(&format!("/api/games/{id}/live?token={token}"), None)
            .await
    }

    /// The user socket of the account whose session is `cookie` (`GET
    /// /api/me/live`), sent the notifications numbered after `after`
    /// first.
    pub async fn user_socket(&self, cookie: &str, after: u64) -> Result<(Outbox, Inbox), String> {
        self.connect(&format!("/api/me/live?after={after}"), Some(cookie))
            .await
    }

    async fn connect(&self, path: &str, cookie: Option<&str>) -> Result<(Outbox, Inbox), String> {
        use tokio_tungstenite::tungstenite::client::IntoClientRequest;
        let ws_base = match self.base.strip_prefix("https://") {
            Some(rest) => format!("wss://{rest}"),
            None => format!("ws://{}", self.base.trim_start_matches("http://")),
        };
        let mut request = format!("{ws_base}{path}")
            .into_client_request()
            .map_err(|e| format!("socket: {e}"))?;
        if let Some(c) = cookie {
            let name = if ws_base.starts_with("wss://") {
                "__Host-vw_session"
            } else {
                "vw_session"
            };
            let header = |v: String| {
                v.parse()
                    .map_err(|_| "socket: a session that is no header value".to_string())
            };
            let headers = request.headers_mut();
            headers.insert("cookie", header(format!("{name}={c}"))?);
            headers.insert("origin", header(self.base.clone())?);
        }
        // Small buffers: thousands of sockets in one process.
        let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
            .read_buffer_size(8 * 1024)
            .write_buffer_size(8 * 1024);
        let connector = ws_base
            .starts_with("wss://")
            .then(|| tls_config(&self.extra_roots).map(tokio_tungstenite::Connector::Rustls))
            .transpose()?;
        let (ws, _) = tokio_tungstenite::connect_async_tls_with_config(
            request,
            Some(config),
            false,
            connector,
        )
        .await
        .map_err(|e| format!("socket: {e}"))?;
        let (sink, mut stream) = ws.split();
        let (tx, rx) = mpsc::unbounded_channel();
        tokio::spawn(async move {
            while let Some(Ok(m)) = stream.next().await {
                match m {
                    Message::Text(t) => {
                        if let Ok(v) = serde_json::from_str::<Value>(&t) {
                            if tx.send(v).is_err() {
                                break;
                            }
                        }
                    }
                    // The server restarts: the reader is told, in the
                    // messages' own form, to connect again. Reading on
                    // sends the answer to the close (the server waits for
                    // it before it stops) and ends with the stream.
                    Message::Close(Some(frame)) if u16::from(frame.code) == 1012 => {
                        let _ = tx.send(serde_json::json!({"type": "restart"}));
                    }
                    _ => {}
                }
            }
        });
        Ok((sink, rx))
    }
}

/// The TLS settings of the live socket: the same roots as HTTP's (the
/// system's, `SSL_CERT_FILE`'s, and `extra`).
fn tls_config(extra: &[Vec<u8>]) -> Result<Arc<rustls::ClientConfig>, String> {
    use rustls::pki_types::pem::PemObject;
    let mut roots = rustls::RootCertStore::empty();
    let found = rustls_native_certs::load_native_certs();
    for cert in found.certs {
        // A certificate the store cannot take is skipped, as curl does.
        let _ = roots.add(cert);
    }
    for pem in extra {
        for cert in rustls::pki_types::CertificateDer::pem_slice_iter(pem) {
            let cert =
                cert.map_err(|e| format!("a certificate authority that does not read: {e}"))?;
            roots
                .add(cert)
                .map_err(|e| format!("a certificate authority rustls refuses: {e}"))?;
        }
    }
    if roots.is_empty() {
        return Err(format!(
            "no trusted certificate authority found (the system's, or SSL_CERT_FILE's): {:?}",
            found.errors
        ));
    }
    Ok(Arc::new(
        rustls::ClientConfig::builder()
            .with_root_certificates(roots)
            .with_no_client_auth(),
    ))
}

/// An error with its causes: `error sending request: … certificate not trusted`.
fn error_chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    with_hint(text)
}

/// A failure's words, and what to do where the words alone do not say it.
pub fn with_hint(text: String) -> String {
    if text.contains("UnknownIssuer") || text.contains("invalid peer certificate") {
        format!(
            "{text}\n  hint: the server's certificate is not signed by an authority this machine \
             trusts. For a server with a certificate of its own authority (a private or test \
             server), point SSL_CERT_FILE at that authority's certificate (PEM), as \
             SSL_CERT_FILE=/path/to/root.crt virus-wars bot …"
        )
    } else {
        text
    }
}

pub type Inbox = mpsc::UnboundedReceiver<Value>;
pub type Outbox = futures_util::stream::SplitSink<
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>,
    Message,
>;

#[cfg(test)]
mod tests {
    use super::Server;

    #[test]
    fn a_server_is_its_origin_alone() {
        for (url, base) in [
            ("127.0.0.1:8080", "http://127.0.0.1:8080"),
            ("http://127.0.0.1:8080/", "http://127.0.0.1:8080"),
            ("https://vw.example.org", "https://vw.example.org"),
            ("https://[::1]:8443", "https://[::1]:8443"),
        ] {
            assert_eq!(Server::new(url).unwrap().origin(), base, "{url}");
        }
        for (url, why) in [
            ("https://", "names no host"),
            ("https:///", "names no host"),
            ("ftp://x", "http:// or https://"),
            ("https://user:pw@host", "user or password"),
            ("https://host/path", "no path"),
            ("https://host?x=1", "no path"),
            ("http://exa mple.org", "does not read"),
        ] {
            let e = Server::new(url).unwrap_err();
            assert!(e.contains(why), "{url}: {e}");
        }
    }
}
