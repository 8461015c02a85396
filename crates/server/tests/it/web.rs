//! The browser UI is served from the binary: the page, every file of
//! `web/`, with its type; and the state carries what the page draws.

use crate::common::{code, create, fresh_sqlite, join, play, state, Server};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_and_every_web_file_are_served() {
    let server = Server::start(fresh_sqlite("web")).await;
    let (status, page) = server.raw("GET", "/", None, None).await;
    assert_eq!(status, 200);
    assert!(
        page.contains(r#"<script type="module" src="/web/js/app.js">"#),
        "{page}"
    );
    // Every file in web/ is compiled in and served.
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../web");
    let mut files = Vec::new();
    let mut dirs = vec![std::path::PathBuf::from(root)];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                if !path.ends_with("node_modules") && !path.ends_with("tests") {
                    dirs.push(path);
                }
            } else if matches!(
                path.extension().and_then(|e| e.to_str()),
                Some("js" | "css" | "html" | "svg" | "png" | "webmanifest")
            ) {
                files.push(
                    path.strip_prefix(root)
                        .unwrap()
                        .to_string_lossy()
                        .replace('\\', "/"),
                );
            }
        }
    }
    assert!(files.len() >= 7, "{files:?}");
    for file in &files {
        let listed = virus_wars_server::web::FILES
            .iter()
            .find(|(p, _, _)| p == file);
        let (_, kind, text) = listed.unwrap_or_else(|| panic!("web/{file} is not in web::FILES"));
        let on_disk = std::fs::read(format!("{root}/{file}")).unwrap();
        assert_eq!(*text, on_disk.as_slice(), "web/{file} is served as it is");
        let (status, served) = server.bytes("GET", &format!("/web/{file}")).await;
        assert_eq!(status, 200, "/web/{file}");
        assert_eq!(served, on_disk);
        let expected = match file.rsplit('.').next() {
            Some("js") => "text/javascript",
            Some("css") => "text/css",
            Some("svg") => "image/svg+xml",
            Some("png") => "image/png",
            Some("webmanifest") => "application/manifest+json",
            _ => "text/html",
        };
        assert!(kind.starts_with(expected), "{file}: {kind}");
    }
    let (status, v) = server.call("GET", "/web/nothing.js", None, None).await;
    assert_eq!(code(status, &v), (404, "not_found"));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_state_carries_the_board_the_turns_and_the_steps_left() {
    let server = Server::start(fresh_sqlite("board")).await;
    let (id, _, x) = create(&server, r#"{"size":"5x5","side":"x"}"#).await;
    let (_, o) = join(&server, &id, None).await;
    play(&server, &id, &x, 0, &["a1", "b2", "c3"]).await;
    let (status, _) = play(&server, &id, o["token"].as_str().unwrap(), 3, &["e5"]).await;
    assert_eq!(status, 200);
    let s = state(&server, &id).await;
    assert_eq!(
        s["board"],
        serde_json::json!(["....O", ".....", "..X..", ".X...", "X...."])
    );
    assert_eq!(s["turns"], serde_json::json!(["1. X a1-b2-c3", "2. O e5"]));
    assert_eq!(s["last_turn"], serde_json::json!(["e5"]));
    assert_eq!(s["steps_left"], 2);
    assert_eq!(s["abortable"], false, "both sides have stepped");
    // While O plays its turn, X's whole turn stays the one to mark.
    assert_eq!(s["previous_turn"], serde_json::json!(["a1", "b2", "c3"]));
    let s = state(&server, &create(&server, r#"{"size":"5x5"}"#).await.0).await;
    assert_eq!(s["previous_turn"], serde_json::json!([]), "nothing played");
    assert_eq!(s["abortable"], true);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_app_installs_its_manifest_and_service_worker_name_what_exists() {
    let server = Server::start(fresh_sqlite("pwa")).await;
    let (status, manifest) = server
        .call("GET", "/manifest.webmanifest", None, None)
        .await;
    assert_eq!(status, 200, "{manifest}");
    assert_eq!(manifest["start_url"], "/");
    let icons = manifest["icons"].as_array().unwrap();
    assert!(icons.iter().any(|i| i["sizes"] == "512x512"), "{manifest}");
    for icon in icons {
        let src = icon["src"].as_str().unwrap();
        let (status, bytes) = server.bytes("GET", src).await;
        assert_eq!(status, 200, "{src}");
        if icon["type"] == "image/png" {
            assert!(bytes.starts_with(b"\x89PNG"), "{src} is a PNG");
        }
    }
    let (status, worker) = server.raw("GET", "/sw.js", None, None).await;
    assert_eq!(status, 200);
    let first = worker.lines().next().unwrap();
    assert!(first.starts_with("self.VW_VERSION = '"), "{first}");
    // Every file the worker keeps is served, and every UI file is kept.
    let list = first
        .split("self.VW_FILES = ")
        .nth(1)
        .unwrap()
        .trim_end_matches(';');
    let kept: Vec<String> = serde_json::from_str(list).unwrap();
    for url in &kept {
        let (status, _) = server.bytes("GET", url).await;
        assert_eq!(status, 200, "{url}");
    }
    for (path, _, _) in virus_wars_server::web::FILES {
        if *path != "sw.js" {
            assert!(
                kept.contains(&virus_wars_server::web::url_of(path)),
                "{path} is kept"
            );
        }
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_link_is_checked_resigning_needs_an_opponent_and_the_clock_stops_at_the_end() {
    let server = Server::start_with(fresh_sqlite("seat"), |c| {
        c.clock = virus_wars_server::Clock::stopped();
    })
    .await;
    let clocked = r#"{"size":"5x5","side":"x","clock":{"base_s":60,"inc_s":0}}"#;
    let (id, _, x) = create(&server, clocked).await;
    let seat = format!("/api/games/{id}/seat");
    let (status, v) = server.call("GET", &seat, Some(&x), None).await;
    assert_eq!((status, v["seat"].as_str()), (200, Some("x")), "{v}");
    let (status, v) = server.call("GET", &seat, Some("not-a-token"), None).await;
    assert_eq!(code(status, &v), (403, "wrong_token"));
    let (status, v) = server.call("GET", &seat, None, None).await;
    assert_eq!(code(status, &v), (401, "no_token"));
    let (status, v) = server
        .call("GET", "/api/games/nosuchgame/seat", Some(&x), None)
        .await;
    assert_eq!(code(status, &v), (404, "not_found"));
    // Alone in the game: resigning is refused (abort it instead).
    let resign = format!("/api/games/{id}/resign");
    let (status, v) = server.call("POST", &resign, Some(&x), None).await;
    assert_eq!(code(status, &v), (409, "waiting"), "{v}");
    assert_eq!(state(&server, &id).await["status"], "X to move");
    let (_, o) = join(&server, &id, None).await;
    let o = o["token"].as_str().unwrap().to_string();
    let (status, v) = server.call("GET", &seat, Some(&o), None).await;
    assert_eq!((status, v["seat"].as_str()), (200, Some("o")));
    // The clocks start once both first turns are played.
    play(&server, &id, &x, 0, &["a1", "b2", "c3"]).await;
    let (status, v) = play(&server, &id, &o, 3, &["e5", "d4", "e4"]).await;
    assert_eq!(
        (status, v["clocks"]["x_ms"].as_u64()),
        (200, Some(60_000)),
        "{v}"
    );
    server.advance(300);
    let (status, v) = server.call("POST", &resign, Some(&x), None).await;
    assert_eq!((status, v["status"].as_str()), (200, Some("O wins")), "{v}");
    // The clock stopped where it was at the end: X's thinking time is charged.
    let x_ms = v["clocks"]["x_ms"].as_u64().unwrap();
    assert!(
        (50_000..=59_700).contains(&x_ms),
        "X's clock at the end: {x_ms}"
    );
    assert_eq!(v["clocks"]["running"], serde_json::Value::Null);
    server.advance(100);
    assert_eq!(
        state(&server, &id).await["clocks"]["x_ms"].as_u64(),
        Some(x_ms),
        "stopped"
    );
    server.stop().await;
}
