//! `virus-wars bot` against a real `serve`: engines become bots, meet by
//! quick play and play games to their end, fog games among them.

use std::process::{Command, Stdio};

use super::serve::{call, serve, Served};

/// Two engines become bots (named after `tag`), meet by quick play with
/// `options` and play a game to its end; both report the same game and
/// result. The game's state at the end, the server, its address and the
/// engine command.
fn bots_meet(tag: &str, options: &[&str]) -> (serde_json::Value, Served, String, String) {
    let data = std::env::temp_dir().join(format!("vw-serve-bots-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    let server = serve(&data);
    let engine = format!("{} engine", env!("CARGO_BIN_EXE_virus-wars"));
    let url = format!("http://{}", server.addr);
    let bot = |name: &str| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_virus-wars"));
        c.args([
            "bot",
            "--server",
            &url,
            "--engine",
            &engine,
            "--register",
            name,
        ])
        .args(["--option", "size=5x5", "--move-time-ms", "30"]);
        for o in options {
            c.args(["--option", o]);
        }
        c.stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the bot starts")
    };
    let first = bot(&format!("first-{tag}"));
    // The second starts once the first waits in its seek, so that the first
    // is shown its game before anyone joins it (and waits, not steps).
    let listed = std::time::Instant::now();
    while call(&server, "GET", "/api/games", None, "").1 == serde_json::json!([]) {
        assert!(
            listed.elapsed().as_secs() < 30,
            "the first bot's seek is listed"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let second = bot(&format!("second-{tag}"));
    let (a, b) = (
        first.wait_with_output().unwrap(),
        second.wait_with_output().unwrap(),
    );
    let lines: Vec<String> = [&a, &b]
        .iter()
        .map(|o| {
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            assert!(String::from_utf8_lossy(&o.stderr).contains("its token, shown only this once"));
            String::from_utf8_lossy(&o.stdout).trim().to_string()
        })
        .collect();
    // "game ID: played N turn(s) as x; X wins (O has no legal step)"
    let game = |l: &str| l.split(':').next().unwrap().to_string();
    let result = |l: &str| l.split("; ").nth(1).unwrap().to_string();
    assert_eq!(game(&lines[0]), game(&lines[1]), "{lines:?}");
    assert_eq!(result(&lines[0]), result(&lines[1]), "{lines:?}");
    assert!(
        lines[0].contains(" as x;") != lines[1].contains(" as x;"),
        "{lines:?}"
    );
    let id = game(&lines[0]).trim_start_matches("game ").to_string();
    let (_, state) = call(&server, "GET", &format!("/api/games/{id}"), None, "");
    let players = [
        state["players"]["x"]["name"].as_str().unwrap(),
        state["players"]["o"]["name"].as_str().unwrap(),
    ];
    assert!(
        players.contains(&format!("first-{tag}").as_str())
            && players.contains(&format!("second-{tag}").as_str()),
        "{state}"
    );
    assert_eq!(state["players"]["x"]["kind"], "bot", "{state}");
    assert!(
        matches!(state["status"].as_str(), Some("X wins" | "O wins")),
        "{state}"
    );
    (state, server, url, engine)
}

/// Two engines become bots, meet by quick play and play a game to its
/// end; both report the same game and result. A bot without a token is
/// told how to get one.
#[test]
fn two_bots_meet_by_quick_play_and_finish_a_game() {
    let (_, server, url, engine) = bots_meet("bot", &[]);
    let out = Command::new(env!("CARGO_BIN_EXE_virus-wars"))
        .args(["bot", "--server", &url, "--engine", &engine])
        .env_remove("VW_BOT_TOKEN")
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--register NAME"));
    drop(server);
}

/// Two bots meet in a fog game by quick play: each plays from the view
/// its seat is sent (a view position a step at a time), to the end.
#[test]
fn two_bots_play_a_fog_game_to_its_end() {
    let (state, server, _, _) = bots_meet("fogbot", &["fog=yes"]);
    assert!(
        state["variant"]["options"]
            .as_str()
            .unwrap()
            .ends_with(";fog=yes"),
        "{state}"
    );
    drop(server);
}
