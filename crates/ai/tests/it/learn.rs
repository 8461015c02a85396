//! The learning loop end to end, on a tiny net and a few games: files,
//! resuming, refusing another run's folder, a damaged buffer.
#![cfg(feature = "train")]

use std::path::PathBuf;

use virus_wars_ai::learn::{run, Event, LearnError, TrainConfig};
use virus_wars_ai::StopFlag;
use virus_wars_net::{Config, Network};
use virus_wars_rules::Preset;

fn config(dir: PathBuf, generations: u32) -> TrainConfig {
    TrainConfig {
        dir,
        presets: vec![Preset::Korobkov],
        generations,
        games: 2,
        playouts: 16,
        net: Config {
            channels: 4,
            blocks: 1,
            value_channels: 2,
            value_hidden: 4,
        },
        batch: 4,
        steps: 3,
        lr: 0.01,
        window: 2,
        gate_games: 2,
        gate_score: 0.5,
        mix: 0.5,
        after: 1,
        threads: 2,
        seed: 5,
        start: None,
        fog: false,
    }
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("vw-learn-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn generations_write_their_files_and_a_second_start_resumes() {
    let dir = temp_dir("resume");
    let generations = std::sync::Mutex::new(Vec::new());
    let on = |e: Event| {
        if let Event::Generation(g) = e {
            generations.lock().unwrap().push(g);
        }
    };
    run(&config(dir.clone(), 1), &StopFlag::new(), &on).unwrap();
    for f in [
        "run.txt",
        "state.txt",
        "log.tsv",
        "games-0001.txt",
        "net-0001.safetensors",
    ] {
        assert!(dir.join(f).exists(), "{f} is written");
    }
    let net = Network::load(&dir.join("net-0001.safetensors"), None).unwrap();
    assert_eq!(net.config.channels, 4);
    let first_games = std::fs::read(dir.join("games-0001.txt")).unwrap();

    // Asked for two generations, the run goes on from the first.
    run(&config(dir.clone(), 2), &StopFlag::new(), &on).unwrap();
    let done: Vec<u32> = generations
        .lock()
        .unwrap()
        .iter()
        .map(|g| g.generation)
        .collect();
    assert_eq!(done, [1, 2], "generation 1 is not played again");
    assert_eq!(
        std::fs::read(dir.join("games-0001.txt")).unwrap(),
        first_games
    );
    let log = std::fs::read_to_string(dir.join("log.tsv")).unwrap();
    assert_eq!(
        log.lines().count(),
        3,
        "a header and a line a generation:\n{log}"
    );
    assert!(dir.join("games-0002.txt").exists());

    // The same settings give the same games in a fresh folder.
    let twin = temp_dir("twin");
    run(&config(twin.clone(), 1), &StopFlag::new(), &|_| {}).unwrap();
    assert_eq!(
        std::fs::read(twin.join("games-0001.txt")).unwrap(),
        first_games
    );

    // Other settings in the same folder are refused, not mixed in.
    let mut other = config(dir.clone(), 3);
    other.playouts = 99;
    let err = run(&other, &StopFlag::new(), &|_| {}).unwrap_err();
    assert!(matches!(err, LearnError::OtherRun { .. }), "{err}");
    assert!(err.to_string().contains("playouts=99"), "{err}");

    // Without run.txt the settings of the nets there are unknown: refused.
    std::fs::remove_file(dir.join("run.txt")).unwrap();
    let err = run(&config(dir.clone(), 3), &StopFlag::new(), &|_| {}).unwrap_err();
    assert!(err.to_string().contains("no run.txt"), "{err}");
    // A state that names a best net newer than the run is refused.
    std::fs::write(
        dir.join("run.txt"),
        std::fs::read(twin.join("run.txt")).unwrap(),
    )
    .unwrap();
    std::fs::write(dir.join("state.txt"), "2 5 0\n").unwrap();
    let err = run(&config(dir.clone(), 3), &StopFlag::new(), &|_| {}).unwrap_err();
    assert!(err.to_string().contains("state.txt, line 1"), "{err}");
    for d in [dir, twin] {
        std::fs::remove_dir_all(d).unwrap();
    }
}

#[test]
fn a_stopped_run_leaves_no_half_files_and_a_damaged_buffer_is_named() {
    let dir = temp_dir("stop");
    let stop = StopFlag::new();
    stop.stop();
    let err = run(&config(dir.clone(), 1), &stop, &|_| {}).unwrap_err();
    assert!(matches!(err, LearnError::Stopped), "{err}");
    assert!(!dir.join("games-0001.txt").exists());
    assert!(!dir.join("state.txt").exists());

    std::fs::write(
        dir.join("games-0001.txt"),
        "virus-wars self-play 1\ngame korobkov x\nq9\nend\n",
    )
    .unwrap();
    let err = run(&config(dir.clone(), 1), &StopFlag::new(), &|_| {}).unwrap_err();
    let text = err.to_string();
    assert!(text.contains("games-0001.txt, line 3"), "{text}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_run_from_a_start_net_plays_trains_and_gates_from_it() {
    let dir = temp_dir("start");
    let plain = temp_dir("plain");
    let base = config(dir.clone(), 1);
    let start = std::sync::Arc::new(Network::random(base.net, 77));
    let from_start = TrainConfig {
        // So small a rate that the trained net stays next to where it began.
        lr: 1e-9,
        start: Some(start.clone()),
        ..base
    };
    run(&from_start, &StopFlag::new(), &|_| {}).unwrap();
    assert_eq!(
        std::fs::read(dir.join("net-0000.safetensors")).unwrap(),
        start.to_bytes(),
        "the start net is kept as generation 0"
    );
    let run_txt = std::fs::read_to_string(dir.join("run.txt")).unwrap();
    assert!(
        run_txt.contains(&format!(
            " start={}",
            virus_wars_net::sha256(&start.to_bytes())
        )),
        "{run_txt}"
    );
    // Training went on from the start net, not from a random one.
    let trained = Network::load(&dir.join("net-0001.safetensors"), None).unwrap();
    let distance = trained
        .stem
        .weight
        .iter()
        .zip(start.stem.weight.iter())
        .map(|(a, b)| (a - b).abs())
        .fold(0.0f32, f32::max);
    assert!(
        distance < 1e-4,
        "the stem moved {distance} from the start net"
    );
    // The start net guided the self-play: the same settings without it
    // play other games.
    run(&config(plain.clone(), 1), &StopFlag::new(), &|_| {}).unwrap();
    assert_ne!(
        std::fs::read(dir.join("games-0001.txt")).unwrap(),
        std::fs::read(plain.join("games-0001.txt")).unwrap()
    );

    // Resumed with another start net: another run, refused.
    let other = TrainConfig {
        generations: 2,
        start: Some(std::sync::Arc::new(Network::random(from_start.net, 78))),
        ..from_start.clone()
    };
    let err = run(&other, &StopFlag::new(), &|_| {}).unwrap_err();
    assert!(matches!(err, LearnError::OtherRun { .. }), "{err}");
    // The run's copy of its start net changed by hand: refused, not played.
    std::fs::write(
        dir.join("net-0000.safetensors"),
        Network::random(from_start.net, 79).to_bytes(),
    )
    .unwrap();
    let resumed = TrainConfig {
        generations: 2,
        ..from_start.clone()
    };
    let err = run(&resumed, &StopFlag::new(), &|_| {}).unwrap_err();
    assert!(
        err.to_string()
            .contains("is not the net this run started from"),
        "{err}"
    );
    assert!(!dir.join("games-0002.txt").exists());
    // A start net of another shape is refused, with both shapes named.
    let wide = TrainConfig {
        dir: temp_dir("wide"),
        start: Some(std::sync::Arc::new(Network::random(
            Config {
                channels: 6,
                ..from_start.net
            },
            1,
        ))),
        ..from_start
    };
    let err = run(&wide, &StopFlag::new(), &|_| {}).unwrap_err();
    assert!(
        err.to_string().contains("the start net has 6 channels"),
        "{err}"
    );
    assert!(!wide.dir.join("net-0000.safetensors").exists());
    for d in [dir, plain, wide.dir] {
        let _ = std::fs::remove_dir_all(d);
    }
}

#[test]
fn a_fog_run_learns_views_on_top_of_its_start_net() {
    let dir = temp_dir("fog");
    let base = config(dir.clone(), 2);
    let e = run(
        &TrainConfig {
            fog: true,
            ..base.clone()
        },
        &StopFlag::new(),
        &|_| {},
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("--start"), "{e}");
    assert!(!dir.exists(), "nothing written for a refused run");
    // A start net that does not read the unknown plane (as one from before
    // fog of war, read with that plane's weights zero).
    let mut start = Network::random(base.net, 78);
    for mut row in start.stem.weight.rows_mut() {
        row.iter_mut().skip(11 * 9).for_each(|w| *w = 0.0);
    }
    let start = std::sync::Arc::new(start);
    let fog = TrainConfig {
        fog: true,
        start: Some(start),
        ..base
    };
    let logged = std::sync::Mutex::new(Vec::new());
    run(&fog, &StopFlag::new(), &|e| {
        if let Event::Generation(g) = e {
            logged.lock().unwrap().push(g.samples);
        }
    })
    .unwrap();
    assert_eq!(logged.lock().unwrap().len(), 2, "two generations gated");
    let games = std::fs::read_to_string(dir.join("games-0001.txt")).unwrap();
    assert!(games.lines().nth(1).unwrap().ends_with(" fog"), "{games}");
    let run_txt = std::fs::read_to_string(dir.join("run.txt")).unwrap();
    assert!(run_txt.trim_end().ends_with(" fog"), "{run_txt}");
    // The nets trained read the unknown plane: its weights moved from zero.
    let trained = Network::load(&dir.join("net-0001.safetensors"), None).unwrap();
    let reads_unknown = trained
        .stem
        .weight
        .rows()
        .into_iter()
        .any(|row| row.iter().skip(11 * 9).any(|&w| w != 0.0));
    assert!(reads_unknown);
    // A game of the other kind in its buffer is refused by name.
    let games_file = dir.join("games-0002.txt");
    let text = std::fs::read_to_string(&games_file).unwrap();
    std::fs::write(
        &games_file,
        text.replacen(
            " fog
", "
", 1,
        ),
    )
    .unwrap();
    std::fs::remove_file(dir.join("net-0002.safetensors")).unwrap();
    std::fs::write(
        dir.join("state.txt"),
        "1 1 0
",
    )
    .unwrap();
    let e = run(&fog, &StopFlag::new(), &|_| {})
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("games-0002.txt: game 1 is not a fog game"),
        "{e}"
    );
    // A fog run's folder is another run's to a plain one.
    let e = run(&config(dir.clone(), 2), &StopFlag::new(), &|_| {})
        .unwrap_err()
        .to_string();
    assert!(e.contains("other settings"), "{e}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_run_started_before_the_unknown_plane_resumes() {
    let dir = temp_dir("before-fog");
    let base = config(dir.clone(), 1);
    // A start net as an older build read it: no unknown plane.
    let mut start = Network::random(base.net, 79);
    for mut row in start.stem.weight.rows_mut() {
        row.iter_mut().skip(11 * 9).for_each(|w| *w = 0.0);
    }
    let old_bytes = start.to_bytes_before_fog().expect("reads no unknown plane");
    let start = std::sync::Arc::new(start);
    let first = TrainConfig {
        start: Some(start.clone()),
        ..base.clone()
    };
    run(&first, &StopFlag::new(), &|_| {}).unwrap();
    // What that older build left: its run.txt named the 11-plane file's
    // hash, and net-0000 was that file.
    let new_hash = virus_wars_net::sha256(&start.to_bytes());
    let old_hash = virus_wars_net::sha256(&old_bytes);
    let run_txt = std::fs::read_to_string(dir.join("run.txt")).unwrap();
    assert!(run_txt.contains(&new_hash), "{run_txt}");
    std::fs::write(dir.join("run.txt"), run_txt.replace(&new_hash, &old_hash)).unwrap();
    std::fs::write(dir.join("net-0000.safetensors"), &old_bytes).unwrap();
    let resumed = TrainConfig {
        generations: 2,
        ..first
    };
    run(&resumed, &StopFlag::new(), &|_| {}).unwrap();
    assert!(dir.join("net-0002.safetensors").exists(), "it went on");
    std::fs::remove_dir_all(dir).unwrap();
}
