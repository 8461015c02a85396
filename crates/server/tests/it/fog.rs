//! Fog of war on the server (docs/rules.md §8, docs/api.md): each seat is
//! shown only its view, the watchers what both sides see, over HTTP and
//! the live socket, on one process or two sharing one PostgreSQL; nothing
//! a viewer does not see is in anything it is sent; the record waits for
//! the end; a step on a hidden cell is refused like one on any cell out
//! of reach, before any step sent with it is played; at the end everyone
//! sees everything.

use std::collections::HashSet;

use serde_json::{json, Value};
use virus_wars_rules::fog::{Known, Viewer};
use virus_wars_rules::notation::parse_step;
use virus_wars_rules::rng::SplitMix64;
use virus_wars_rules::{diagram, Cell, Game, Side, Variant};

use super::common::*;

/// What `viewer` must be shown of `game` (the truth the test keeps): the
/// board rows with `?` where it does not see.
fn board_for(game: &Game, viewer: Viewer) -> Vec<String> {
    let p = game.position();
    let cells = Known::of_game(game).cells(p, viewer);
    let w = p.width() as usize;
    (0..p.height() as usize)
        .rev()
        .map(|r| {
            (0..w)
                .map(|f| cells[r * w + f].map_or('?', diagram::letter))
                .collect()
        })
        .collect()
}

/// The cells `viewer` does not see now.
fn hidden(game: &Game, viewer: Viewer) -> Vec<Cell> {
    let p = game.position();
    let w = p.width() as usize;
    Known::of_game(game)
        .cells(p, viewer)
        .iter()
        .enumerate()
        .filter(|(_, c)| c.is_none())
        .map(|(i, _)| Cell::new((i % w) as u8, (i / w) as u8))
        .collect()
}

/// Every word of a JSON text (letters and digits between other signs).
fn words(text: &str) -> HashSet<String> {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

/// Checks what `viewer` was sent (`state`) against the truth: its board,
/// and no word naming a cell it does not see.
fn check_view(game: &Game, viewer: Viewer, state: &Value) {
    let what = format!("{viewer:?} at step {}", game.steps().len());
    assert_eq!(state["seq"], json!(game.steps().len()), "{what}");
    let rows: Vec<String> = serde_json::from_value(state["board"].clone()).unwrap();
    assert_eq!(rows, board_for(game, viewer), "{what}: {state}");
    assert_eq!(state["position"], Value::Null, "{what}: no position string");
    let told = words(&state.to_string());
    for c in hidden(game, viewer) {
        assert!(
            !told.contains(&c.to_string()),
            "{what}: hidden {c} is named in {state}"
        );
    }
    let fog = &state["fog"];
    let name = match viewer {
        Viewer::Player(s) => s.to_string().to_lowercase(),
        Viewer::Watcher => "watchers".into(),
    };
    assert_eq!(fog["viewer"], json!(name), "{what}");
    let legal = state["legal"].as_array().unwrap();
    if viewer != Viewer::Player(game.position().side()) {
        assert!(legal.is_empty(), "{what}: only the mover is told its steps");
        assert_eq!(fog["view"], Value::Null, "{what}");
        assert_eq!(fog["hidden_enemy_pieces"], Value::Null, "{what}");
    } else {
        // The mover's view position reads back as its view, and it is
        // told how many enemy pieces are hidden, as the rules count them.
        let text = fog["view"].as_str().expect("the mover's view position");
        let view = virus_wars_rules::fog::read_view(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let unknown = view.unknown.iter().filter(|u| **u).count();
        assert_eq!(json!(unknown), fog["unknown"], "{what}");
        let seen = virus_wars_rules::fog::Seen::of_game(game);
        assert_eq!(view, seen.view, "{what}");
        assert_eq!(fog["hidden_enemy_pieces"], json!(seen.hidden_enemy_pieces));
    }
}

/// X and O play a 6x6 paper-tactics game in fog, each through its own
/// seat (X on `a`, O on `b`: one process, or two on one database),
/// random legal steps from what each is told; after every turn each seat,
/// the watchers and the sockets are shown exactly their views.
async fn played_in_fog(a: &Server, b: &Server) {
    let body = r#"{"variant":"paper-tactics","size":"6x6","fog":true,"side":"x"}"#;
    let (id, _, x) = create(a, body).await;
    let (status, joined) = join(b, &id, None).await;
    assert_eq!(status, 200, "{joined}");
    let o = joined["token"].as_str().unwrap().to_string();
    let first = state(a, &id).await;
    let variant = Variant::from_options_text(first["variant"]["options"].as_str().unwrap())
        .expect("the variant reads");
    assert!(variant.fog, "{}", first["variant"]);
    let mut game = Game::new(variant).unwrap();
    let mut sockets = [
        (Viewer::Player(Side::X), connect(a, &id, Some(&x)).await),
        (Viewer::Player(Side::O), connect(b, &id, Some(&o)).await),
        (Viewer::Watcher, connect(a, &id, None).await),
    ];
    for (viewer, ws) in &mut sockets {
        check_view(&game, *viewer, &next(ws).await);
    }
    let mut rng = SplitMix64::new(5);
    let mut refused_hidden = 0;
    while game.outcome().is_none() {
        let mover = game.position().side();
        let (server, token) = if mover == Side::X { (a, &x) } else { (b, &o) };
        let path = format!("/api/games/{id}");
        // The other process hears of the last step through PostgreSQL's
        // notifications, a moment after it was committed: wait for it.
        let seq = game.steps().len();
        state_until(server, &id, (10, 10), "the mover's process hears", |s| {
            s["seq"] == json!(seq)
        })
        .await;
        let (_, mine) = server.call("GET", &path, Some(token), None).await;
        check_view(&game, Viewer::Player(mover), &mine);
        // A step on a cell the mover does not see: refused as out of reach.
        if let Some(c) = hidden(&game, Viewer::Player(mover)).first() {
            let seq = game.steps().len() as u64;
            let (status, e) = play(server, &id, token, seq, &[&c.to_string()]).await;
            assert_eq!(code(status, &e), (422, "illegal_step"), "{e}");
            assert_eq!(e["error"]["detail"]["reason"], "not_accessible", "{e}");
            assert_eq!(
                e["error"]["message"],
                json!(format!(
                    "step {} ({c}): not accessible for {mover}",
                    seq + 1
                ))
            );
            refused_hidden += 1;
        }
        let legal = mine["legal"].as_array().unwrap();
        let step = legal[rng.below(legal.len() as u32) as usize]
            .as_str()
            .unwrap()
            .to_string();
        let seq = game.steps().len() as u64;
        // A legal step and then one on a cell hidden now (which the first
        // might bring into sight): refused before either is played, so
        // that no batch probes what a hidden cell holds.
        if let Some(c) = hidden(&game, Viewer::Player(mover)).last() {
            let (status, e) = play(server, &id, token, seq, &[&step, &c.to_string()]).await;
            assert_eq!(code(status, &e), (422, "illegal_step"), "{e}");
            assert_eq!(
                e["error"]["message"],
                json!(format!(
                    "step {} ({c}): not accessible for {mover}",
                    seq + 2
                ))
            );
            assert_eq!(state(a, &id).await["seq"], json!(seq), "nothing played");
        }
        let (status, after) = play(server, &id, token, seq, &[&step]).await;
        assert_eq!(status, 200, "{after}");
        game.play(parse_step(&step).unwrap()).unwrap();
        if game.outcome().is_some() {
            break;
        }
        check_view(&game, Viewer::Player(mover), &after);
        // Every viewer: by HTTP (either process) and on its socket.
        for (viewer, ws) in &mut sockets {
            let sent = next(ws).await;
            check_view(&game, *viewer, &sent);
            let token = match viewer {
                Viewer::Player(Side::X) => Some(x.as_str()),
                Viewer::Player(Side::O) => Some(o.as_str()),
                Viewer::Watcher => None,
            };
            for server in [a, b] {
                // The other process hears of a change a moment later: its
                // answer of the same version shows the same view.
                let mut asked = Value::Null;
                for _ in 0..250 {
                    asked = server.call("GET", &path, token, None).await.1;
                    if asked["version"].as_i64() >= sent["version"].as_i64() {
                        break;
                    }
                    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
                }
                assert_eq!(asked["version"], sent["version"], "{viewer:?}");
                assert_eq!(asked["board"], sent["board"], "{viewer:?}");
                assert_eq!(asked["steps"], sent["steps"], "{viewer:?}");
            }
        }
        // The record would tell all: not before the end.
        let (status, e) = a.call("GET", &format!("{path}/record"), None, None).await;
        assert_eq!(code(status, &e), (409, "hidden_until_end"));
    }
    assert!(refused_hidden > 0);
    // Over: everyone sees the whole game, and the record is served.
    let end = state(b, &id).await;
    assert_eq!(end["fog"], Value::Null);
    assert!(end["position"].is_string(), "{end}");
    assert!(!end["board"].to_string().contains('?'), "{end}");
    let played: Vec<String> = game.steps().iter().map(|s| s.to_string()).collect();
    assert_eq!(end["steps"], json!(played));
    for (_, ws) in &mut sockets {
        let last = next(ws).await;
        assert_eq!(last["board"], end["board"]);
        assert_eq!(last["fog"], Value::Null);
    }
    let record = stored_record(a, &id).await;
    assert_eq!(record.game.steps(), game.steps());
    assert!(record.game.variant().fog, "the record keeps fog");
    // Its replay, as each side saw every position of it.
    super::presented::replays_as_each_viewer(a, b, &id, &game).await;
}

async fn a_fog_game_shows_each_viewer_its_view(db: String) {
    let server = Server::start(db).await;
    played_in_fog(&server, &server).await;
    server.stop().await;
}

on_both_databases!(a_fog_game_shows_each_viewer_its_view);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_show_each_seat_the_same_view() {
    let Some((a, b)) = two_servers("fog_two_processes").await else {
        return;
    };
    played_in_fog(&a, &b).await;
    a.stop().await;
    b.stop().await;
}

/// The computer plays a fog game from its side's view, a step at a time:
/// at the lowest level and the highest, each to the end against a person
/// who steps at random among the steps it is told.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_computer_plays_fog_games_step_by_step() {
    let server = Server::start(fresh_sqlite("fog_computer")).await;
    let mut rng = SplitMix64::new(9);
    for level in [1, 9] {
        let body = json!({"variant": "classic", "size": "5x5", "fog": true,
            "opponent": format!("level:{level}"), "side": "x"})
        .to_string();
        let (id, _, x) = create(&server, &body).await;
        let path = format!("/api/games/{id}");
        let mut computer_steps = 0;
        loop {
            let s = state_until(&server, &id, (60, 20), "X to move or the end", |s| {
                s["to_move"] != "o"
            })
            .await;
            if s["to_move"].is_null() {
                break;
            }
            let (_, mine) = server.call("GET", &path, Some(&x), None).await;
            assert_eq!(mine["fog"]["viewer"], "x", "{mine}");
            computer_steps = mine["turns"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|t| t.as_str().unwrap().contains(". O "))
                .count();
            let legal = mine["legal"].as_array().unwrap();
            let step = legal[rng.below(legal.len() as u32) as usize]
                .as_str()
                .unwrap();
            let seq = mine["seq"].as_u64().unwrap();
            let (status, after) = play(&server, &id, &x, seq, &[step]).await;
            assert_eq!(status, 200, "{after}");
        }
        let end = state(&server, &id).await;
        assert!(end["ending"]["reason"].is_string(), "{end}");
        assert_eq!(end["fog"], Value::Null);
        assert!(computer_steps > 0, "level {level} played turns");
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_without_fog_hide_nothing() {
    let server = Server::start(fresh_sqlite("fog_refusals")).await;
    let (status, e) = server
        .call("POST", "/api/games", None, Some(r#"{"fog":"maybe"}"#))
        .await;
    assert_eq!(code(status, &e), (400, "malformed"));
    assert_eq!(e["error"]["message"], "fog is yes or no, not 'maybe'");
    // Without fog: the whole board, the position string, no fog field.
    let (id, _, _) = create(&server, r#"{"size":"5x5","side":"x"}"#).await;
    let s = state(&server, &id).await;
    assert!(s["position"].is_string());
    assert_eq!(s["fog"], Value::Null);
    assert!(!s["variant"]["options"].as_str().unwrap().contains("fog"));
    // A fog game's preset is its preset's, fog aside.
    let (fog, _, _) = create(&server, r#"{"variant":"gcr","fog":true}"#).await;
    let s = state(&server, &fog).await;
    assert_eq!(s["variant"]["preset"], "gcr");
    assert!(s["variant"]["options"]
        .as_str()
        .unwrap()
        .ends_with(";fog=yes"));
    // A fog game's watchers: a wrong token is refused, not taken for one.
    let (status, e) = server
        .call("GET", &format!("/api/games/{fog}"), Some("nope"), None)
        .await;
    assert_eq!(code(status, &e), (403, "wrong_token"));
    server.stop().await;
}

/// A fog game's trenches and random bases are laid out from a seed nobody
/// sees: shown as hidden, refused when given, drawn anew for each game
/// (and so not paired by quick play); the record tells it at the end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fog_games_layout_is_laid_out_from_a_hidden_seed() {
    let server = Server::start(fresh_sqlite("fog_layout")).await;
    let body = r#"{"variant":"paper-tactics","size":"8x8","fog":true,"trenches":40,"side":"x"}"#;
    let (id, _, x) = create(&server, body).await;
    let s = state(&server, &id).await;
    let options = s["variant"]["options"].as_str().unwrap();
    assert!(options.contains(";seed=hidden;"), "{options}");
    let (status, e) = server
        .call(
            "POST",
            "/api/games",
            None,
            Some(r#"{"fog":true,"trenches":40,"seed":0}"#),
        )
        .await;
    assert_eq!(code(status, &e), (400, "malformed"));
    assert!(e["error"]["message"]
        .as_str()
        .unwrap()
        .starts_with("seed: "));
    let (status, e) = server.call("POST", "/api/quick", None, Some(body)).await;
    assert_eq!(code(status, &e), (400, "malformed"), "{e}");
    // Without fog the seed is shown as before.
    let (plain, _, _) = create(&server, r#"{"size":"8x8","trenches":40,"seed":7}"#).await;
    let s = state(&server, &plain).await;
    assert!(s["variant"]["options"]
        .as_str()
        .unwrap()
        .contains(";seed=7"));
    // Over: the record has the seed the board was laid out from.
    let (status, _) = join(&server, &id, None).await;
    assert_eq!(status, 200);
    let (status, _) = act(&server, &id, &x, "resign").await;
    assert_eq!(status, 200);
    let record = stored_record(&server, &id).await;
    let laid = Game::new(record.game.variant().clone()).unwrap();
    assert_eq!(
        laid.start(),
        record.game.start(),
        "the seed lays the board out"
    );
    server.stop().await;
}

/// Steps sent past the one that ends a fog game are dropped, not refused:
/// a refusal would tell, with no step made, that the other side had no
/// live virus left (the pass end rule's annihilation).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn steps_past_a_fog_games_end_are_dropped_not_refused() {
    let variant = "size=5x5;steps=3;first=3;start=corner-entry;end=pass;fog=yes";
    // A game (found by the rules) whose mover can end it with a step
    // while more of its turn is left.
    let mut rng = SplitMix64::new(1);
    let (played, ending) = 'found: loop {
        let mut game = Game::new(Variant::from_options_text(variant).unwrap()).unwrap();
        while game.outcome().is_none() {
            let p = *game.position();
            if p.steps_left() >= 2 {
                for step in p.legal_steps() {
                    if step == virus_wars_rules::Step::Pass {
                        continue;
                    }
                    let mut q = p;
                    if q.play(step).is_ok() && q.outcome().is_some() {
                        break 'found (game.steps().to_vec(), step);
                    }
                }
            }
            let legal = p.legal_steps();
            game.play(legal[rng.below(legal.len() as u32) as usize])
                .unwrap();
        }
    };
    let server = Server::start(fresh_sqlite("fog_past_the_end")).await;
    let body = json!({"variant": "custom", "size": "5x5", "end": "pass", "fog": true, "side": "x"});
    let (id, _, x) = create(&server, &body.to_string()).await;
    let (_, joined) = join(&server, &id, None).await;
    let o = joined["token"].as_str().unwrap().to_string();
    let mut game = Game::new(Variant::from_options_text(variant).unwrap()).unwrap();
    for step in &played {
        let token = if game.position().side() == Side::X {
            &x
        } else {
            &o
        };
        let seq = game.steps().len() as u64;
        let (status, v) = play(&server, &id, token, seq, &[&step.to_string()]).await;
        assert_eq!(status, 200, "{v}");
        game.play(*step).unwrap();
    }
    let token = if game.position().side() == Side::X {
        &x
    } else {
        &o
    };
    let seq = game.steps().len() as u64;
    let e = ending.to_string();
    let (status, end) = play(&server, &id, token, seq, &[&e, &e]).await;
    assert_eq!(status, 200, "{end}");
    assert_eq!(end["seq"], json!(seq + 1), "played up to the end");
    assert_eq!(end["ending"]["reason"], "annihilation", "{end}");
    server.stop().await;
}
