//! Player specs: parsing, printing, and what they refuse.

use std::time::Duration;

use virus_wars_ai::budget::Budget;
use virus_wars_ai::levels;
use virus_wars_ai::neural::{
    NetChoice, BUILTIN_SHA256, BUILTIN_VIEW_SHA256, BUILTIN_VIEW_WEIGHTS, BUILTIN_WEIGHTS,
};
use virus_wars_ai::PlayerSpec;

#[test]
fn specs_parse_and_print() {
    let s: PlayerSpec = "alphabeta:depth=6".parse().unwrap();
    assert_eq!(s.to_string(), "alphabeta:depth=6");
    let s: PlayerSpec = "ab:time=1.5s,hash=16".parse().unwrap();
    assert_eq!(
        s,
        PlayerSpec::AlphaBeta {
            budget: Budget::time(Duration::from_millis(1500)),
            hash_mb: 16
        }
    );
    assert_eq!(
        "level:5".parse::<PlayerSpec>().unwrap(),
        PlayerSpec::Level(5)
    );
    assert_eq!(
        "greedy:noise=0.5"
            .parse::<PlayerSpec>()
            .unwrap()
            .to_string(),
        "greedy:noise=0.5"
    );
    let s: PlayerSpec = "mcts:playouts=500,threads=1,playout=random,rave=0"
        .parse()
        .unwrap();
    assert_eq!(
        s.to_string(),
        "mcts:playouts=500,threads=1,playout=random,rave=0"
    );
    assert_eq!(
        "mcts".parse::<PlayerSpec>().unwrap().to_string(),
        "mcts:time=1000ms"
    );
    let s: PlayerSpec = "turns:time=3s,width=12,hash=8".parse().unwrap();
    assert_eq!(
        s,
        PlayerSpec::Turns {
            budget: Budget::time(Duration::from_secs(3)),
            width: 12,
            hash_mb: 8
        }
    );
    // The hash size is written too (it read back as 64 before).
    assert_eq!(s.to_string(), "turns:time=3000ms,width=12,hash=8");
    assert_eq!(s.resources(), (8, 1));
    assert_eq!(
        "turns".parse::<PlayerSpec>().unwrap().to_string(),
        "turns:time=1000ms"
    );
}

#[test]
fn bad_specs_say_why() {
    let e = |s: &str| s.parse::<PlayerSpec>().unwrap_err().to_string();
    assert!(e("chess").starts_with("unknown player 'chess'"));
    #[rustfmt::skip]
    let exact = [
        ("level:10", "player 'level:10': level must be between 1 and 9, not 10"),
        ("level:1,level:2", "player 'level:1,level:2': option 'level:2' needs a value, like depth=6"),
        ("level:1,level=2", "player 'level:1,level=2': option 'level' is given twice"),
        ("alphabeta:depth=x", "player 'alphabeta:depth=x': depth must be a whole number between 1 and 64, not 'x'"),
        ("alphabeta:depth=99999999999", "player 'alphabeta:depth=99999999999': depth must be between 1 and 64, not 99999999999"),
        ("mcts:hash=5000", "player 'mcts:hash=5000': hash must be between 1 and 4096, not 5000"),
        ("mcts:time=1s,time=2s", "player 'mcts:time=1s,time=2s': option 'time' is given twice"),
        ("alphabeta:speed=3", "player 'alphabeta:speed=3': unknown option 'speed': alphabeta takes time, nodes, depth, hash"),
        ("turns:width=0", "player 'turns:width=0': width must be between 1 and 10000, not 0"),
        ("turns:threads=2", "player 'turns:threads=2': unknown option 'threads': turns takes time, nodes, depth, hash, width"),
        ("mcts:playout=smart", "player 'mcts:playout=smart': playout is random or moo, not 'smart'"),
    ];
    for (spec, want) in exact {
        assert_eq!(e(spec), want);
    }
    #[rustfmt::skip]
    let within = [
        ("alphabeta:time=3h", "unknown unit"),
        ("greedy:noise=2", "noise is a chance"),
        ("mcts:noise=-1", "noise is a chance"),
        ("mcts:c=-1", "c must be a number of 0 or more"),
    ];
    for (spec, words) in within {
        let said = e(spec);
        assert!(said.contains(words), "{spec}: {said}");
    }
    // Linear in the text: a megabyte of options is refused at once.
    let many: Vec<String> = (0..100_000).map(|k| format!("k{k}=1")).collect();
    let long = e(&format!("mcts:{}", many.join(",")));
    assert!(long.contains("unknown option 'k0'"), "{long}");
    assert!(
        long.len() < 200,
        "errors do not echo megabytes: {}",
        long.len()
    );
    assert_eq!(
        e("random:depth=3"),
        "player 'random:depth=3': unknown option 'depth': random takes seed"
    );
    assert!(e("greedy:hash=5000").contains("unknown option 'hash'"));
    assert!(e("foo:ls").starts_with("unknown player 'foo'"));
}

#[test]
fn the_budget_is_read_without_building_the_player() {
    for text in [
        "random",
        "greedy",
        "alphabeta:depth=3",
        "mcts:playouts=50,hash=1",
    ] {
        let spec: PlayerSpec = text.parse().unwrap();
        assert_eq!(spec.budget(), spec.build().1, "{text}");
    }
    for n in 1..=levels::LEVELS.len() as u8 {
        let spec = PlayerSpec::Level(n);
        assert_eq!(spec.budget(), spec.build().1, "level {n}");
    }
}

#[test]
fn net_specs_name_the_built_in_net_or_a_file() {
    let s: PlayerSpec = "nn:time=1s".parse().unwrap();
    let PlayerSpec::Net {
        net, mix, after, ..
    } = &s
    else {
        panic!("{s:?}")
    };
    assert_eq!(net, &NetChoice::builtin());
    assert_eq!((*mix, *after), (0.5, 32));
    assert_eq!(s.to_string(), "nn:time=1000ms");
    let batched: PlayerSpec = "nn:time=1s,batch=2".parse().unwrap();
    assert!(
        matches!(batched, PlayerSpec::Net { batch: 2, .. }),
        "{batched:?}"
    );
    assert_eq!(batched.to_string(), "nn:time=1000ms,batch=2");
    for bad in ["nn:batch=0", "nn:batch=257", "nn:batch=two", "mcts:batch=2"] {
        let e = bad.parse::<PlayerSpec>().unwrap_err().to_string();
        assert!(e.contains("batch"), "{bad}: {e}");
    }
    assert!(!s.reads_files());
    assert_eq!(
        "policy".parse::<PlayerSpec>().unwrap().to_string(),
        "policy"
    );

    let dir = std::env::temp_dir().join(format!("vw-spec-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("net.safetensors");
    std::fs::write(&file, BUILTIN_WEIGHTS).unwrap();
    let text = format!(
        "nn:playouts=50,threads=1,weights={},mix=0.25,after=8",
        file.display()
    );
    let s: PlayerSpec = text.parse().unwrap();
    assert!(s.reads_files());
    assert_eq!(s.to_string(), text, "the spec prints as it was written");
    assert_eq!(s.resources(), (256, 1));
    let again: PlayerSpec = s.to_string().parse().unwrap();
    assert_eq!(again, s);
    for text in [
        "mcts:playouts=50,seed=5",
        "nn:playouts=50,seed=5,mix=0.25,after=3",
    ] {
        let s: PlayerSpec = text.parse().unwrap();
        assert_eq!(s.to_string(), text, "the seed is kept");
    }

    // A network peer may not name files: refused before anything is read.
    let e = PlayerSpec::parse_without_files(&text)
        .unwrap_err()
        .to_string();
    assert!(e.contains("weights files cannot be named here"), "{e}");
    let e = PlayerSpec::parse_without_files("policy:weights=/dev/zero")
        .unwrap_err()
        .to_string();
    assert!(e.contains("cannot be named"), "{e}");
    assert_eq!(
        PlayerSpec::parse_without_files("level:9").unwrap(),
        PlayerSpec::Level(9)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_net_specs_say_why() {
    let e = |s: &str| s.parse::<PlayerSpec>().unwrap_err().to_string();
    assert!(e("nn:weights=/no/such/file").contains("/no/such/file"));
    assert!(e("nn:mix=2").contains("mix is a weight from 0 to 1"));
    assert!(e("nn:after=0").contains("after must be between 1"));
    assert!(e("policy:time=1s").contains("unknown option 'time': policy takes weights"));
    let dir = std::env::temp_dir().join(format!("vw-badnet-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cut = dir.join("cut.safetensors");
    std::fs::write(&cut, &BUILTIN_WEIGHTS[..BUILTIN_WEIGHTS.len() / 2]).unwrap();
    let msg = e(&format!("nn:weights={}", cut.display()));
    assert!(msg.starts_with("player 'nn:weights="), "{msg}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_built_in_weights_are_the_recorded_ones() {
    let net = NetChoice::builtin();
    assert_eq!(
        net.hash, BUILTIN_SHA256,
        "update BUILTIN_SHA256 and the weights README together"
    );
    let readme = include_str!("../../../net/weights/README.md");
    assert!(
        readme.contains(BUILTIN_SHA256),
        "the weights README records the hash"
    );
}

#[test]
fn the_built_in_view_net_is_the_recorded_one_and_level_9_reads_views_with_it() {
    let net = NetChoice::builtin_view();
    assert_eq!(
        net.hash, BUILTIN_VIEW_SHA256,
        "update BUILTIN_VIEW_SHA256 and the weights README together"
    );
    let readme = include_str!("../../../net/weights/README.md");
    assert!(
        readme.contains(BUILTIN_VIEW_SHA256),
        "the README records it"
    );
    let PlayerSpec::Net { view, .. } = PlayerSpec::Level(9).resolved() else {
        panic!("level 9 is a net")
    };
    assert_eq!(view, Some(Box::new(net)));
}

#[test]
fn a_view_net_is_named_by_view_weights_and_a_peer_names_no_file() {
    for text in ["nn:time=1000ms,view-weights=builtin", "nn:time=1000ms"] {
        let s: PlayerSpec = text.parse().unwrap();
        assert_eq!(s.to_string(), text, "prints as it reads");
        assert!(!s.reads_files());
        assert_eq!(PlayerSpec::parse_without_files(text).unwrap(), s);
    }
    let none: PlayerSpec = "nn:time=1s,view-weights=none".parse().unwrap();
    assert_eq!(none.to_string(), "nn:time=1000ms");
    let dir = std::env::temp_dir().join(format!("vw-view-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("view.safetensors");
    std::fs::write(&file, BUILTIN_VIEW_WEIGHTS).unwrap();
    let text = format!("nn:time=1000ms,view-weights={}", file.display());
    let s: PlayerSpec = text.parse().unwrap();
    assert!(s.reads_files());
    assert_eq!(s.to_string(), text);
    let e = PlayerSpec::parse_without_files(&text)
        .unwrap_err()
        .to_string();
    assert!(e.contains("weights files cannot be named here"), "{e}");
    let e = "nn:view-weights=a,b.safetensors"
        .parse::<PlayerSpec>()
        .unwrap_err()
        .to_string();
    assert!(e.contains("view-weights=\"a,b.safetensors\""), "{e}");
    let e = format!("nn:view-weights={}", dir.join("missing").display())
        .parse::<PlayerSpec>()
        .unwrap_err()
        .to_string();
    assert!(e.contains("cannot read the weights file"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_weights_path_with_a_comma_is_written_in_quotes() {
    let dir = std::env::temp_dir().join(format!("vw-comma-{}", std::process::id()));
    let nested = dir.join("run 1,b");
    std::fs::create_dir_all(&nested).unwrap();
    let file = nested.join("net,2.safetensors");
    std::fs::write(&file, BUILTIN_WEIGHTS).unwrap();
    let path = file.display().to_string();

    let text = format!("nn:playouts=50,weights=\"{path}\",mix=0.25");
    let s: PlayerSpec = text.parse().unwrap();
    let PlayerSpec::Net { net, mix, .. } = &s else {
        panic!("{s:?}")
    };
    assert_eq!(net.path(), Some(file.as_path()));
    assert_eq!(*mix, 0.25);
    assert_eq!(s.to_string(), text, "the path prints in its quotes");
    assert_eq!(s.to_string().parse::<PlayerSpec>().unwrap(), s);

    // Unquoted, the comma ends the path, and the rest is named.
    let e = format!("nn:weights={path}")
        .parse::<PlayerSpec>()
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("b/net") && e.contains("goes in double quotes"),
        "{e}"
    );
    let e = |s: &str| s.parse::<PlayerSpec>().unwrap_err().to_string();
    let open = e("nn:weights=\"a,b");
    assert!(open.contains("never closed"), "{open}");
    let after = e("nn:weights=\"a\"b");
    assert!(after.contains("quotes go around a whole value"), "{after}");
    // A quote inside a path, not in front, is part of it.
    let odd = dir.join("a\"b.safetensors");
    std::fs::write(&odd, BUILTIN_WEIGHTS).unwrap();
    let text = format!("policy:weights={}", odd.display());
    let s: PlayerSpec = text.parse().unwrap();
    let PlayerSpec::Policy { net } = &s else {
        panic!("{s:?}")
    };
    assert_eq!(net.path(), Some(odd.as_path()));
    assert_eq!(s.to_string(), text);
    assert_eq!(s.to_string().parse::<PlayerSpec>().unwrap(), s);
    // Quotes around a value that needs none are taken off.
    let s: PlayerSpec = "mcts:time=\"1s\"".parse().unwrap();
    assert_eq!(s.to_string(), "mcts:time=1000ms");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn what_is_printed_reads_back_as_the_same_player() {
    // A helper's fuzzing found seeds, hash sizes and sub-millisecond times
    // lost on the way out.
    for text in [
        "random:seed=5",
        "greedy:noise=0.25,seed=7",
        "alphabeta:depth=4,hash=256",
        "turns:depth=2,width=12,hash=1",
        "mcts:time=1001ms,seed=9,hash=8",
        "mcts:playouts=3,threads=1,noise=0.3",
        "alphabeta:time=1.0005s",
    ] {
        let spec: PlayerSpec = text.parse().unwrap();
        let again: PlayerSpec = spec.to_string().parse().unwrap();
        assert_eq!(again, spec, "{text} printed as {spec}");
    }
    assert_eq!(
        "alphabeta:time=1.0005s"
            .parse::<PlayerSpec>()
            .unwrap()
            .to_string(),
        "alphabeta:time=1001ms"
    );
    let e = |s: &str| s.parse::<PlayerSpec>().unwrap_err().to_string();
    assert!(e("alphabeta:time=0.0001s").contains("at least 1ms"));
    assert!(e("mcts:playouts=1,nodes=2").contains("one limit"));
}
