//! A small client of the server's API (HTTP/1.1 and the live socket), for
//! the load test and for bots (`virus-wars bot`).

use futures_util::StreamExt;
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message;

/// One HTTP request; the status and the JSON body.
pub async fn http(
    addr: &str,
    method: &str,
    path: &str,
    body: &str,
) -> Result<(u16, Value), String> {
    http_as(addr, method, path, None, body).await
}

/// One HTTP request with a bearer token; the status and the JSON body.
pub async fn http_as(
    addr: &str,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: &str,
) -> Result<(u16, Value), String> {
    let auth = token.map_or(String::new(), |t| format!("authorization: Bearer {t}\r\n"));
    let (status, _, value) = exchange(addr, method, path, &auth, body).await?;
    Ok((status, value))
}

/// One HTTP request with a session cookie (if any, sent from the server's
/// own origin); the status, the JSON body and the session cookie the
/// answer sets.
pub async fn http_session(
    addr: &str,
    method: &str,
    path: &str,
    cookie: Option<&str>,
    body: &str,
) -> Result<(u16, Value, Option<String>), String> {
    let headers = cookie.map_or(String::new(), |c| {
        format!("cookie: vw_session={c}\r\norigin: http://{addr}\r\n")
    });
    let (status, head, value) = exchange(addr, method, path, &headers, body).await?;
    let set = head.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        let value = v.trim().strip_prefix("vw_session=")?;
        k.eq_ignore_ascii_case("set-cookie")
            .then(|| value.split(';').next().unwrap_or_default().to_string())
    });
    Ok((status, value, set))
}

/// One request with these extra header lines; the status, the answer's
/// head and its JSON body.
async fn exchange(
    addr: &str,
    method: &str,
    path: &str,
    headers: &str,
    body: &str,
) -> Result<(u16, String, Value), String> {
    let mut s = TcpStream::connect(addr)
        .await
        .map_err(|e| format!("connect {addr}: {e}"))?;
    let req = format!(
        "{method} {path} HTTP/1.1\r\nhost: {addr}\r\nconnection: close\r\n{headers}content-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes())
        .await
        .map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    s.read_to_end(&mut out).await.map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&out);
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .ok_or_else(|| format!("no HTTP status from {addr}"))?;
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    Ok((
        status,
        head.to_string(),
        serde_json::from_str(body).unwrap_or(Value::Null),
    ))
}

pub type Inbox = mpsc::UnboundedReceiver<Value>;
pub type Outbox = futures_util::stream::SplitSink<
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>,
    Message,
>;

/// A socket for `token`: a sink to send on and an inbox of JSON messages.
pub async fn socket(addr: &str, id: &str, token: &str) -> Result<(Outbox, Inbox), String> {
    let url = format!("ws://{addr}/api/games/{id}/live?token={token}");
    // Small buffers: thousands of sockets in one process.
    let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
        .read_buffer_size(8 * 1024)
        .write_buffer_size(8 * 1024);
    let (ws, _) = tokio_tungstenite::connect_async_with_config(url, Some(config), false)
        .await
        .map_err(|e| format!("socket: {e}"))?;
    let (sink, mut stream) = ws.split();
    let (tx, rx) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        while let Some(Ok(m)) = stream.next().await {
            if let Message::Text(t) = m {
                if let Ok(v) = serde_json::from_str::<Value>(&t) {
                    if tx.send(v).is_err() {
                        break;
                    }
                }
            }
        }
    });
    Ok((sink, rx))
}
