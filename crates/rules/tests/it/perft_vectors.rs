//! The perft vectors of the independent referee (shared/spec), reproduced exactly,
//! plus our own vectors for every preset.

use virus_wars_rules::notation::parse_steps;
use virus_wars_rules::perft::perft_any;
use virus_wars_rules::variant::parse_size;
use virus_wars_rules::{AnyPosition, Cell, EndRule, Preset, Variant};

struct Vector {
    name: String,
    position: AnyPosition,
    perft: Vec<u64>,
}

fn load(path: &str) -> Vec<Vector> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let variant = variant_of(&v);
            let mut position = variant.start().unwrap();
            for step in parse_steps(v["moves"].as_str().unwrap()).unwrap() {
                position.play(step).unwrap();
            }
            let perft = v["perft"]
                .as_array()
                .unwrap()
                .iter()
                .map(|n| n.as_u64().unwrap())
                .collect();
            Vector {
                name: v["name"].as_str().unwrap().to_string(),
                position,
                perft,
            }
        })
        .collect()
}

/// The variant a vector names: a preset (default classic) with overrides.
fn variant_of(v: &serde_json::Value) -> Variant {
    let s = |k: &str| v.get(k).and_then(|x| x.as_str());
    let n = |k: &str| v.get(k).and_then(|x| x.as_u64());
    let b = |k: &str| v.get(k).and_then(|x| x.as_bool()).unwrap_or(false);
    let mut variant = s("variant").map_or(Variant::default(), |p| {
        p.parse::<Preset>().unwrap().variant()
    });
    if let Some(size) = s("size") {
        (variant.width, variant.height) = parse_size(size).unwrap();
    }
    let r = &mut variant.rules;
    if let Some(x) = n("steps") {
        r.steps_per_turn = x as u8;
    }
    if let Some(x) = n("first_turn_steps") {
        r.first_turn_steps = x as u8;
    }
    if let Some(x) = s("start") {
        r.start = x.parse().unwrap();
    }
    if let Some(x) = s("end") {
        r.end = x.parse::<EndRule>().unwrap();
    }
    r.deathmatch = b("deathmatch");
    variant.trench_percent = n("trenches").unwrap_or(0) as u8;
    variant.double_base = b("double_base");
    variant.random_bases = b("random_bases");
    variant.seed = n("seed").unwrap_or(0);
    if let Some(cells) = s("obstacles") {
        variant.obstacles = cells
            .split_whitespace()
            .map(|c| c.parse::<Cell>().unwrap())
            .collect();
    }
    variant
}

fn check(path: &str) {
    let vectors = load(path);
    assert!(!vectors.is_empty());
    for v in vectors {
        for (k, &want) in v.perft.iter().enumerate() {
            let got = perft_any(&v.position, k as u32 + 1);
            assert_eq!(got, want, "{} depth {}", v.name, k + 1);
        }
    }
}

#[test]
fn referee_vectors() {
    check(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/perft-vectors.jsonl"
    ));
}

/// Our own vectors for every preset and layout option: the fast engine must
/// match them at every depth, and the slow referee at the shallow ones.
#[test]
fn preset_vectors() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/preset-perft.jsonl");
    check(path);
    for v in load(path) {
        let setup = v.position.to_setup();
        for (k, &want) in v.perft.iter().take(3).enumerate() {
            assert_eq!(
                crate::common::referee_perft(&setup, k as u32 + 1),
                want,
                "referee, {} depth {}",
                v.name,
                k + 1
            );
        }
    }
}
