//! Criterion benchmarks of the rules engine (one thread):
//! `cargo bench -p virus-wars-rules`. Throughput is reported per game and
//! per perft leaf; `virus-wars bench` prints the same measurements plainly.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use virus_wars_rules::notation::parse_steps;
use virus_wars_rules::perft::perft_any;
use virus_wars_rules::rng::SplitMix64;
use virus_wars_rules::{with_position, Game, Preset};

fn random_games(c: &mut Criterion) {
    let mut group = c.benchmark_group("random_game");
    group.throughput(Throughput::Elements(1));
    let sizes = [(5, 5), (8, 8), (19, 19)];
    let starts = [Preset::Classic, Preset::Gcr]
        .map(|p| (p.name().to_string(), p.variant().start().unwrap()))
        .into_iter()
        .chain(sizes.map(|(w, h)| {
            let name = format!("classic {w}x{h}");
            (name, Preset::Classic.sized(w, h).start().unwrap())
        }));
    for (name, start) in starts {
        let mut rng = SplitMix64::new(1);
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut p = start;
                with_position!(&mut p, q => q.random_playout(&mut rng))
            })
        });
    }
    group.finish();
}

/// The referee's `midgame-0` (classic, 40 steps in).
const MIDGAME: &str = "a1 b1 c2 j10 j9 j8 d1 d3 e1 i7 j7 h7 b2 f1 d4 h8 g6 i6 c5 d2 c3 h9 g9 f10 b5 b4 d6 h5 j5 h6 b6 d5 e3 i9 g5 h4 a7 f3 f4 f5";

fn perft(c: &mut Criterion) {
    let mut game = Game::new(Preset::Classic.variant()).unwrap();
    for s in parse_steps(MIDGAME).unwrap() {
        game.play(s).unwrap();
    }
    let p = *game.position();
    let depth = 5;
    let mut group = c.benchmark_group("perft");
    group.throughput(Throughput::Elements(perft_any(&p, depth)));
    group.bench_function("midgame-0/depth-5", |b| b.iter(|| perft_any(&p, depth)));
    group.finish();
}

criterion_group!(benches, random_games, perft);
criterion_main!(benches);
