//! The perft vectors of the independent referee (shared/spec), reproduced exactly,
//! plus our own vectors for every preset.

use virus_wars_rules::notation::parse_steps;
use virus_wars_rules::perft::perft_any;
use virus_wars_rules::variant::parse_size;
use virus_wars_rules::{AnyPosition, EndRule, Rules, Variant};

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
            let (w, h) = parse_size(v["size"].as_str().unwrap()).unwrap();
            let end = v.get("end").and_then(|e| e.as_str()).unwrap_or("standard");
            let variant = Variant {
                width: w,
                height: h,
                rules: Rules {
                    steps_per_turn: v["steps"].as_u64().unwrap() as u8,
                    first_turn_steps: v["first_turn_steps"].as_u64().unwrap() as u8,
                    start: v["start"].as_str().unwrap().parse().unwrap(),
                    end: end.parse::<EndRule>().unwrap(),
                    deathmatch: false,
                },
                ..Variant::default()
            };
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

fn check(path: &str) {
    let vectors = load(path);
    assert!(!vectors.is_empty());
    for v in vectors {
        for (k, &want) in v.perft.iter().enumerate() {
            let got = perft_any(&v.position, k as u32 + 1);
            assert_eq!(got, want, "{} depth {}", v.name, k + 1);
            eprintln!("{} depth {} = {}", v.name, k + 1, got);
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
