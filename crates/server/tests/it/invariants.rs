//! A property test: random sequences of client requests from both seats,
//! a stranger and a watcher, over HTTP and a live socket, never break the
//! server's invariants: a refused request changes nothing, every step
//! number is stored once, the stored game replays to the live state (also
//! after a restart), and every socket ends on the same state.

use crate::common::{connect, create, fresh_sqlite, next, send, stored_record, Server};
use proptest::prelude::*;
use serde_json::{json, Value};

#[derive(Clone, Debug)]
enum Request {
    /// `count` steps chosen from the legal list (or a random cell), sent
    /// with the game's seq moved by `seq_shift`, by `who` (0 X, 1 O, 2 a
    /// stranger), over the socket or HTTP.
    Steps {
        who: usize,
        picks: Vec<u8>,
        seq_shift: i8,
        socket: bool,
    },
    Resign(usize),
    Abort(usize),
    Draw(usize),
    Join,
}

fn request() -> impl Strategy<Value = Request> {
    prop_oneof![
        8 => (0..3usize, prop::collection::vec(any::<u8>(), 1..4), prop_oneof![4 => Just(0i8), 1 => -1i8..=1], any::<bool>())
            .prop_map(|(who, picks, seq_shift, socket)| Request::Steps { who, picks, seq_shift, socket }),
        1 => (0..3usize).prop_map(Request::Resign),
        1 => (0..3usize).prop_map(Request::Abort),
        1 => (0..3usize).prop_map(Request::Draw),
        1 => Just(Request::Join),
    ]
}

async fn state(server: &Server, id: &str) -> Value {
    server
        .call("GET", &format!("/api/games/{id}"), None, None)
        .await
        .1
}

/// The stored record replays to exactly the live steps and position.
async fn stored_matches(server: &Server, id: &str, live: &Value) {
    let r = stored_record(server, id).await;
    let steps: Vec<String> = r.game.steps().iter().map(|s| s.to_string()).collect();
    assert_eq!(
        json!(steps),
        live["steps"],
        "one stored step per sequence number"
    );
    assert_eq!(live["seq"].as_u64(), Some(steps.len() as u64));
    assert_eq!(
        virus_wars_rules::position_string::write(r.game.position()),
        live["position"].as_str().unwrap()
    );
}

async fn run(variant: &str, requests: Vec<Request>) {
    let server = Server::start(fresh_sqlite("invariants")).await;
    let (id, _, x) = create(
        &server,
        &format!(r#"{{"variant":"{variant}","size":"5x5","side":"x"}}"#),
    )
    .await;
    let (_, joined) = server
        .call("POST", &format!("/api/games/{id}/join"), None, None)
        .await;
    let o = joined["token"].as_str().unwrap().to_string();
    let tokens = [x, o, "stranger".to_string()];
    let mut sockets = [
        connect(&server, &id, Some(&tokens[0])).await,
        connect(&server, &id, Some(&tokens[1])).await,
        // A stranger's socket: a wrong token is refused at connect, so it
        // watches without one (and its steps are refused `no_token`).
        connect(&server, &id, None).await,
    ];
    let mut watcher = connect(&server, &id, None).await;
    for ws in sockets.iter_mut().chain([&mut watcher]) {
        next(ws).await;
    }
    for r in requests {
        let before = state(&server, &id).await;
        let seq = before["seq"].as_i64().unwrap();
        // The socket that already read the change as its answer.
        let mut answered = None;
        let changed = match r {
            Request::Steps {
                who,
                picks,
                seq_shift,
                socket,
            } => {
                let legal: Vec<String> = before["legal"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|s| s.as_str().unwrap().to_string())
                    .collect();
                let steps: Vec<String> = picks
                    .iter()
                    .map(|p| match legal.get(*p as usize % legal.len().max(1)) {
                        Some(s) if p % 7 != 0 => s.clone(),
                        _ => format!("{}{}", (b'a' + p % 6) as char, 1 + p % 6),
                    })
                    .collect();
                let body = json!({"seq": seq + i64::from(seq_shift), "steps": steps});
                if socket {
                    let mut m = body.clone();
                    m["type"] = json!("steps");
                    send(&mut sockets[who], m).await;
                    // An answer only on refusal; a change reaches everyone.
                    let reply = next(&mut sockets[who]).await;
                    answered = Some(who);
                    reply["type"] == "state"
                } else {
                    let (status, _) = server
                        .call(
                            "POST",
                            &format!("/api/games/{id}/steps"),
                            Some(&tokens[who]),
                            Some(&body.to_string()),
                        )
                        .await;
                    status == 200
                }
            }
            Request::Resign(who) | Request::Abort(who) | Request::Draw(who) => {
                let action = match r {
                    Request::Resign(_) => "resign",
                    Request::Abort(_) => "abort",
                    _ => "draw",
                };
                let (status, _) = server
                    .call(
                        "POST",
                        &format!("/api/games/{id}/{action}"),
                        Some(&tokens[who]),
                        None,
                    )
                    .await;
                status == 200
            }
            Request::Join => {
                let (status, _) = server
                    .call("POST", &format!("/api/games/{id}/join"), None, None)
                    .await;
                assert_eq!(status, 409, "both seats are taken");
                false
            }
        };
        let after = state(&server, &id).await;
        // An accepted request that changes nothing (a draw offered again
        // while it stands) is not announced.
        let changed = changed && after != before;
        if !changed {
            assert_eq!(before, after, "a refused request changes nothing");
        } else {
            // Every socket hears of the change.
            for (k, ws) in sockets.iter_mut().chain([&mut watcher]).enumerate() {
                if answered == Some(k) {
                    continue;
                }
                let mut heard = next(ws).await;
                while heard["type"] != "state" {
                    heard = next(ws).await;
                }
                assert_eq!(heard["seq"], after["seq"]);
            }
        }
        stored_matches(&server, &id, &after).await;
    }
    let live = state(&server, &id).await;
    let db = server.db.clone();
    server.stop().await;
    let server = Server::start(db).await;
    let restored = state(&server, &id).await;
    assert_eq!(live, restored, "the stored game is the live game");
    server.stop().await;
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, .. ProptestConfig::default() })]

    #[test]
    fn random_requests_keep_the_invariants(
        pass in any::<bool>(),
        requests in prop::collection::vec(request(), 1..40),
    ) {
        let variant = if pass { "classic-pass" } else { "classic" };
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap()
            .block_on(run(variant, requests));
    }
}
