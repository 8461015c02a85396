//! Closed by default (docs/architecture.md, "What a viewer is shown"):
//! over random fog games, every field of every answer that a fog seat (a
//! person's account on X), a bot (on O) and a watcher receive is walked
//! and checked against the rules' own view: the game's state over HTTP and
//! on the live socket, the open games and games to watch, the bot's games,
//! the player's page and its games, the account's own games, and the
//! replays once the game is over. Nothing is added by hand: a field this
//! test does not know fails it, and each known one is either built from
//! what that viewer saw (checked against `Known`) or a fact no viewer is
//! denied (checked against the game where the rules tell it). No answer
//! names a cell its viewer does not see.

use std::collections::HashSet;

use serde_json::{json, Value};
use virus_wars_rules::fog::{read_view, Known, Seen, Viewer};
use virus_wars_rules::rng::SplitMix64;
use virus_wars_rules::{diagram, position_string, Cell, Game, Side, Step};

use super::accounts::{sign_up, with_cookie};
use super::common::*;

/// Every leaf of `v` with its path (`fog.viewer`, `players.x.kind`; an
/// array of objects as `[]`, an array of plain values as one leaf).
fn leaves(v: &Value, path: &str, out: &mut Vec<(String, Value)>) {
    let join = |key: &str| {
        if path.is_empty() {
            key.to_string()
        } else {
            format!("{path}.{key}")
        }
    };
    match v {
        Value::Object(map) => map.iter().for_each(|(k, v)| leaves(v, &join(k), out)),
        Value::Array(items) if items.iter().any(Value::is_object) => items
            .iter()
            .for_each(|v| leaves(v, &format!("{path}[]"), out)),
        _ => out.push((path.to_string(), v.clone())),
    }
}

/// The truth the test keeps: the game, and what each viewer saw of it.
struct Truth<'a> {
    game: &'a Game,
    known: Known,
}

impl Truth<'_> {
    fn cells(&self, viewer: Viewer) -> Vec<Option<virus_wars_rules::Content>> {
        self.known.cells(self.game.position(), viewer)
    }

    fn board(&self, viewer: Viewer) -> Value {
        let p = self.game.position();
        let (w, cells) = (p.width() as usize, self.cells(viewer));
        let rows: Vec<String> = (0..p.height() as usize)
            .rev()
            .map(|r| {
                (0..w)
                    .map(|f| cells[r * w + f].map_or('?', diagram::letter))
                    .collect()
            })
            .collect();
        json!(rows)
    }

    fn hidden(&self, viewer: Viewer) -> HashSet<String> {
        let w = self.game.position().width() as usize;
        self.cells(viewer)
            .iter()
            .enumerate()
            .filter(|(_, c)| c.is_none())
            .map(|(i, _)| Cell::new((i % w) as u8, (i / w) as u8).to_string())
            .collect()
    }

    fn turns(&self, viewer: Viewer) -> Vec<(Side, Vec<String>)> {
        let word = |s: &Option<Step>| s.map_or("?".to_string(), |s| s.to_string());
        self.known
            .turns_seen(self.game, viewer)
            .into_iter()
            .map(|(side, steps)| (side, steps.iter().map(word).collect()))
            .collect()
    }
}

fn side_word(s: Side) -> String {
    s.to_string().to_lowercase()
}

/// No word of `answer` names a cell `viewer` does not see.
fn names_no_hidden_cell(truth: &Truth, viewer: Viewer, answer: &Value, what: &str) {
    let hidden = truth.hidden(viewer);
    let text = answer.to_string();
    for word in text.split(|c: char| !c.is_ascii_alphanumeric()) {
        assert!(
            !hidden.contains(word),
            "{what}: hidden {word} named in {text}"
        );
    }
}

/// Checks one of the facts no viewer is denied, where a list or a state
/// shows it; false for a path that is none of them.
fn public_fact(path: &str, v: &Value, truth: &Truth, id: &str) -> bool {
    let p = truth.game.position();
    let mover = side_word(p.side());
    let leaf = path.rsplit('.').next().unwrap_or(path);
    let under = |prefix: &str| path.starts_with(prefix);
    match path {
        "id" => assert_eq!(v, id),
        "seq" => assert_eq!(v, &json!(truth.game.steps().len())),
        "to_move" => assert_eq!(v, &json!(mover)),
        "status" => assert_eq!(v, &json!(format!("{} to move", p.side()))),
        "variant.preset" => {
            let preset = truth.game.variant().preset();
            assert_eq!(v, &json!(preset.map_or("custom", |p| p.name())))
        }
        "variant.size" => assert_eq!(v, &json!(format!("{}x{}", p.width(), p.height()))),
        "variant.options" => {
            let options = v.as_str().unwrap();
            let variant = truth.game.variant();
            if variant.hides_layout() {
                assert!(options.contains("seed=hidden"), "{options}");
            }
            assert!(
                !options.contains(&format!("seed={}", variant.seed)) || !variant.hides_layout()
            );
        }
        "clock" | "clocks" | "ending" | "draw_offer" | "rematch" | "rating" | "category" => {
            assert_eq!(v, &Value::Null, "{path}: an untimed, unrated game in play")
        }
        "created_ms" | "last_active_ms" | "version" => assert!(v.is_i64(), "{path}"),
        "steps_left" => assert_eq!(v, &json!(p.steps_left())),
        "abortable" => {
            let stepped = |s: Side| truth.game.turns().iter().any(|t| t.side == s);
            assert_eq!(v, &json!(!(stepped(Side::X) && stepped(Side::O))), "{path}")
        }
        "rated" => assert_eq!(v, &json!(false)),
        "listed" | "draws_allowed" => assert!(v.is_boolean()),
        "seats_free.x" | "seats_free.o" => assert_eq!(v, &json!(false)),
        "time_control" => assert_eq!(v, &Value::Null),
        "result" => assert_eq!(v, "playing"),
        _ if under("players.") || under("opponent.") || under("waiting.") => {
            assert!(
                ["kind", "level", "name", "account"].contains(&leaf),
                "{path}"
            )
        }
        _ => return false,
    }
    true
}

/// Checks every field of a game's state as `viewer` was sent it.
fn check_state(truth: &Truth, viewer: Viewer, id: &str, state: &Value, what: &str) {
    let p = truth.game.position();
    let mover = Viewer::Player(p.side()) == viewer;
    let turns = truth.turns(viewer);
    let mut all = Vec::new();
    leaves(state, "", &mut all);
    for (path, v) in all {
        let what = format!("{what}: {path}");
        match path.as_str() {
            "type" => assert_eq!(v, "state", "{what}"),
            "board" => assert_eq!(v, truth.board(viewer), "{what}"),
            "position" => assert_eq!(v, Value::Null, "{what}"),
            "steps" => {
                let steps: Vec<&String> = turns.iter().flat_map(|(_, s)| s).collect();
                assert_eq!(v, json!(steps), "{what}")
            }
            "turns" => {
                let words: Vec<String> = (turns.iter().enumerate())
                    .map(|(k, (side, s))| format!("{}. {side} {}", k + 1, s.join("-")))
                    .collect();
                assert_eq!(v, json!(words), "{what}")
            }
            "last_turn" => assert_eq!(v, json!(turns.last().unwrap().1), "{what}"),
            "previous_turn" => {
                let in_progress = turns.last().unwrap().0 == p.side();
                let k = turns.len() - usize::from(in_progress);
                let whole = k.checked_sub(1).map_or(vec![], |k| turns[k].1.clone());
                assert_eq!(v, json!(whole), "{what}")
            }
            "legal" => {
                let legal: Vec<String> = if mover {
                    p.legal_steps().iter().map(|s| s.to_string()).collect()
                } else {
                    vec![]
                };
                assert_eq!(v, json!(legal), "{what}")
            }
            "fog.viewer" => {
                let name = match viewer {
                    Viewer::Player(s) => side_word(s),
                    Viewer::Watcher => "watchers".into(),
                };
                assert_eq!(v, json!(name), "{what}")
            }
            "fog.unknown" => assert_eq!(v, json!(truth.hidden(viewer).len()), "{what}"),
            "fog.remembered" => {
                let cells: Vec<String> = match viewer {
                    Viewer::Player(side) => (truth.known.remembered(p, side).iter())
                        .map(Cell::to_string)
                        .collect(),
                    Viewer::Watcher => vec![],
                };
                assert_eq!(v, json!(cells), "{what}")
            }
            "fog.view" if mover => {
                let view = read_view(v.as_str().unwrap()).unwrap();
                assert_eq!(view, Seen::of_game(truth.game).view, "{what}")
            }
            "fog.hidden_enemy_pieces" if mover => {
                let seen = Seen::of_game(truth.game);
                assert_eq!(v, json!(seen.hidden_enemy_pieces), "{what}")
            }
            "fog.view" | "fog.hidden_enemy_pieces" => assert_eq!(v, Value::Null, "{what}"),
            _ if public_fact(&path, &v, truth, id) => {}
            _ => panic!("{what}: a field this test does not know; say who may see it"),
        }
    }
    names_no_hidden_cell(truth, viewer, state, what);
}

/// Checks every field of a list's entries for game `id`, as `viewer`
/// (who may see only the facts no viewer is denied) was sent them.
fn check_entries(truth: &Truth, viewer: Viewer, id: &str, entries: &[&Value], what: &str) {
    assert!(!entries.is_empty(), "{what}: game {id} is listed");
    for entry in entries {
        let mut all = Vec::new();
        leaves(entry, "", &mut all);
        for (path, v) in all {
            let what = format!("{what}: {path}");
            match path.as_str() {
                // The bot's games: its seat, taken.
                "seat" => assert_eq!(v, "o", "{what}"),
                "seated" => assert_eq!(v, true, "{what}"),
                // The account's games: its side, and whether it is to move.
                "side" => assert_eq!(v, "x", "{what}"),
                "your_turn" => {
                    assert_eq!(v, json!(truth.game.position().side() == Side::X), "{what}")
                }
                _ if public_fact(&path, &v, truth, id) => {}
                _ => panic!("{what}: a field this test does not know; say who may see it"),
            }
        }
        names_no_hidden_cell(truth, viewer, entry, what);
    }
}

/// The entries of a list that are game `id`.
fn entries_of<'a>(list: &'a Value, id: &str) -> Vec<&'a Value> {
    list.as_array()
        .expect("a list")
        .iter()
        .filter(|e| e["id"] == id)
        .collect()
}

/// What a viewer was sent, to be checked once the game's layout is known.
struct Sent {
    seq: usize,
    viewer: Viewer,
    what: String,
    answer: Value,
    /// A state (every field of it) or a list's entries for the game.
    state: bool,
}

/// One random fog game from `seed`: X an account's seat, O a bot's. After
/// every step, every answer of every viewer is kept; at the end the
/// record (with the seed nobody was told) lays the board out, and each
/// answer is checked against what its viewer saw at that step.
async fn walked(server: &Server, seed: u64, options: &str) {
    let (walker, bot) = (format!("walker{seed}"), format!("fogbot{seed}"));
    let cookie = sign_up(server, &walker).await;
    let bot_token = register_bot(server, &bot).await;
    let body = format!(
        r#"{{"variant":"paper-tactics","size":"7x7","fog":true,"side":"x","listed":true{options}}}"#
    );
    let (status, _, created) =
        with_cookie(server, "POST", "/api/games", Some(&cookie), Some(&body)).await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let x = created["token"].as_str().unwrap().to_string();
    let (status, joined) = join(server, &id, Some(&bot_token)).await;
    assert_eq!(status, 200, "{joined}");
    let mut sockets = [
        (
            Viewer::Player(Side::X),
            connect(server, &id, Some(&x)).await,
        ),
        (
            Viewer::Player(Side::O),
            connect(server, &id, Some(&bot_token)).await,
        ),
        (Viewer::Watcher, connect(server, &id, None).await),
    ];
    for (_, ws) in &mut sockets {
        next(ws).await; // the state before any step (no step to check it at yet)
    }
    let mut rng = SplitMix64::new(seed);
    let mut sent: Vec<Sent> = Vec::new();
    let mut seq = 0usize;
    let game_path = format!("/api/games/{id}");
    loop {
        let (_, mine) = server.call("GET", &game_path, Some(&x), None).await;
        let (_, theirs) = server.call("GET", &game_path, Some(&bot_token), None).await;
        let mover = if mine["to_move"] == "x" {
            &mine
        } else {
            &theirs
        };
        let token = if mine["to_move"] == "x" {
            &x
        } else {
            &bot_token
        };
        let legal = mover["legal"].as_array().unwrap();
        let step = legal[rng.below(legal.len() as u32) as usize]
            .as_str()
            .unwrap()
            .to_string();
        let (status, after) = play(server, &id, token, seq as u64, &[&step]).await;
        assert_eq!(status, 200, "{after}");
        seq += 1;
        if after["fog"].is_null() {
            break; // over: everyone is shown everything
        }
        let keep = |sent: &mut Vec<Sent>, viewer, what: &str, answer: Value, state| {
            sent.push(Sent {
                seq,
                viewer,
                what: format!("{what} after step {seq}"),
                answer,
                state,
            })
        };
        let mover_side = if token == &x { Side::X } else { Side::O };
        keep(
            &mut sent,
            Viewer::Player(mover_side),
            "the step's answer",
            after,
            true,
        );
        for (viewer, ws) in &mut sockets {
            keep(&mut sent, *viewer, "socket", next(ws).await, true);
        }
        for (viewer, token) in [
            (Viewer::Player(Side::X), Some(&x)),
            (Viewer::Player(Side::O), Some(&bot_token)),
            (Viewer::Watcher, None),
        ] {
            let (_, v) = server
                .call("GET", &game_path, token.map(|t| t.as_str()), None)
                .await;
            keep(&mut sent, viewer, "GET the game", v, true);
        }
        let watcher = Viewer::Watcher;
        let (_, watch) = server.call("GET", "/api/watch", None, None).await;
        keep(&mut sent, watcher, "/api/watch", watch, false);
        let (_, open) = server.call("GET", "/api/games", None, None).await;
        assert!(
            entries_of(&open, &id).is_empty(),
            "both seats are taken: {open}"
        );
        let (_, page) = server
            .call("GET", &format!("/api/players/{walker}"), None, None)
            .await;
        keep(
            &mut sent,
            watcher,
            "the player's page",
            page["playing"].clone(),
            false,
        );
        let (_, bot_games) = server
            .call("GET", "/api/bots/games", Some(&bot_token), None)
            .await;
        keep(
            &mut sent,
            Viewer::Player(Side::O),
            "the bot's games",
            bot_games,
            false,
        );
        let (_, _, own) = with_cookie(server, "GET", "/api/me/games", Some(&cookie), None).await;
        keep(
            &mut sent,
            Viewer::Player(Side::X),
            "/api/me/games",
            own["games"].clone(),
            false,
        );
    }
    // The record, served now, names the seed: the truth at every step.
    let record = stored_record(server, &id).await;
    let whole = record.game;
    assert_eq!(whole.steps().len(), seq);
    for s in &sent {
        let mut game = Game::new(whole.variant().clone()).unwrap();
        for step in &whole.steps()[..s.seq] {
            game.play(*step).unwrap();
        }
        let truth = Truth {
            known: Known::of_game(&game),
            game: &game,
        };
        if s.state {
            check_state(&truth, s.viewer, &id, &s.answer, &s.what);
        } else {
            check_entries(&truth, s.viewer, &id, &entries_of(&s.answer, &id), &s.what);
        }
    }
    let seed_text = format!("seed={}", whole.variant().seed);
    if whole.variant().hides_layout() {
        for s in &sent {
            assert!(!s.answer.to_string().contains(&seed_text), "{}", s.what);
        }
    }
    // Over: the replays of the record, as each viewer saw every position.
    replays_as_each_viewer(server, server, &id, &whole).await;
}

/// Game `id` (over, `whole`) replayed from its record (read on `from`, the
/// replay asked of `to`) as each side and the watchers saw it: every field
/// of every frame checked ([`check_replay`]).
pub async fn replays_as_each_viewer(from: &Server, to: &Server, id: &str, whole: &Game) {
    let (_, text) = from
        .raw("GET", &format!("/api/games/{id}/record"), None, None)
        .await;
    for (viewer, name) in [
        (Viewer::Player(Side::X), "x"),
        (Viewer::Player(Side::O), "o"),
        (Viewer::Watcher, "watchers"),
    ] {
        let body = json!({"record": text, "view": name}).to_string();
        let (status, r) = to.call("POST", "/api/replay", None, Some(&body)).await;
        assert_eq!(status, 200, "{r}");
        assert_eq!(r["fog"], true);
        assert_eq!(
            r["frames"].as_array().unwrap().len(),
            whole.steps().len() + 1
        );
        check_replay(whole, viewer, &r, name);
    }
}

/// Every field of a replay as `viewer` asked for it: each frame's board
/// and step as that viewer saw them then (the asker sent the whole
/// record, so the position string and the legal steps are no secret).
fn check_replay(whole: &Game, viewer: Viewer, replay: &Value, name: &str) {
    let known = Known::of_game(whole);
    let mut game = Game::new(whole.variant().clone()).unwrap();
    for (k, frame) in replay["frames"].as_array().unwrap().iter().enumerate() {
        if k > 0 {
            game.play(whole.steps()[k - 1]).unwrap();
        }
        let over = game.outcome().is_some();
        let truth = Truth {
            known: Known::of_game(&game),
            game: &game,
        };
        let what = format!("replay as {name}, frame {k}");
        let mut all = Vec::new();
        leaves(frame, "", &mut all);
        for (path, v) in all {
            let what = format!("{what}: {path}");
            match path.as_str() {
                "seq" => assert_eq!(v, json!(k), "{what}"),
                "step" if k == 0 => assert_eq!(v, Value::Null, "{what}"),
                "step" if known.step_seen(viewer, k - 1) || over => {
                    assert_eq!(v, json!(whole.steps()[k - 1].to_string()), "{what}")
                }
                "step" => assert_eq!(v, "?", "{what}"),
                "board" if !over => assert_eq!(v, truth.board(viewer), "{what}"),
                // Once over, everyone sees everything.
                p if over
                    && ([
                        "position",
                        "board",
                        "legal",
                        "to_move",
                        "status",
                        "steps_left",
                    ]
                    .contains(&p)
                        || p.starts_with("ending")) => {}
                // The asker sent the whole record: the position is theirs.
                "position" => assert_eq!(v, json!(position_string::write(game.position()))),
                "legal" => {
                    let legal: Vec<String> = (game.position().legal_steps().iter())
                        .map(|s| s.to_string())
                        .collect();
                    assert_eq!(v, json!(legal), "{what}")
                }
                "to_move" | "status" | "steps_left" | "ending" => {
                    assert!(public_fact(&path, &v, &truth, ""), "{what}")
                }
                // Where turns end follows from the number of steps, which
                // everyone knows.
                "turn" => assert_eq!(v, json!(game.position().turn() + 1), "{what}"),
                "turn_start" => assert_eq!(v, json!(game.position().at_turn_start()), "{what}"),
                _ => panic!("{what}: a field this test does not know; say who may see it"),
            }
        }
    }
    for (path, _) in replay.as_object().unwrap() {
        assert!(
            ["frames", "next", "fog", "declared"].contains(&path.as_str()),
            "replay: {path}"
        );
    }
}

async fn every_field_is_built_from_what_its_viewer_saw(db: String) {
    let server = Server::start(db).await;
    walked(&server, 1, "").await;
    walked(&server, 2, r#","trenches":20"#).await;
    walked(&server, 3, r#","random-bases":true,"double-base":true"#).await;
    server.stop().await;
}

on_both_databases!(every_field_is_built_from_what_its_viewer_saw);
