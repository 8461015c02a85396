//! Training a generation's net: the buffer's positions grouped by board
//! size, batches drawn from them through random symmetries, AdamW steps
//! from the previous generation's net, and the result checked before it is
//! kept.

use std::path::Path;

use virus_wars_net::train::Trainer;
use virus_wars_net::Network;
use virus_wars_rules::rng::SplitMix64;

use super::games::{example, read_games, samples, write_atomically, Sample};
use super::{net_of, Event, LearnError, TrainConfig};
use crate::search::StopFlag;

/// Trains the newest net on the buffer; returns the samples seen and the
/// mean losses over the generation's last quarter of steps.
pub(super) fn train(
    config: &TrainConfig,
    generation: u32,
    stop: &StopFlag,
    on: &(dyn Fn(Event) + Sync),
    path: &Path,
) -> Result<(usize, (f32, f32)), LearnError> {
    let first = generation.saturating_sub(config.window.max(1)) + 1;
    let mut by_size: Vec<Vec<Sample>> = Vec::new();
    for g in first..=generation {
        let file = config.file(format!("games-{g:04}.txt"));
        for (k, game) in read_games(&file)?.into_iter().enumerate() {
            // A fog run learns views, another whole boards: a game of the
            // other kind would teach the net the wrong input.
            if game.fog != config.fog {
                let (kind, run) = match game.fog {
                    true => ("a fog game", "this run is not a fog run"),
                    false => ("not a fog game", "this is a fog run"),
                };
                return Err(LearnError::Run(format!(
                    "{}: game {} is {kind}, and {run}: train into another folder",
                    file.display(),
                    k + 1
                )));
            }
            let s = samples(&game);
            match by_size.iter_mut().find(|b| size(&b[0]) == game_size(&s)) {
                Some(bucket) => bucket.extend(s),
                None if !s.is_empty() => by_size.push(s),
                None => {}
            }
        }
    }
    let total: usize = by_size.iter().map(Vec::len).sum();
    if total == 0 {
        return Err(LearnError::Run(format!(
            "generations {first} to {generation} hold no positions to learn from"
        )));
    }
    let start = match net_of(config, generation - 1)? {
        Some(net) => (*net).clone(),
        None => Network::random(config.net, config.seed),
    };
    let mut trainer = Trainer::new(&start, config.lr, 1e-4)?;
    on(Event::Phase {
        generation,
        phase: "training",
        total: config.steps as u64,
    });
    let mut rng = SplitMix64::new(config.seed ^ (generation as u64) << 32);
    let mut recent = Vec::new();
    for step in 0..config.steps {
        if stop.is_stopped() {
            return Err(LearnError::Stopped);
        }
        // A bucket in proportion to its samples, then a batch from it.
        let mut pick = rng.next_u64() as usize % total;
        let bucket = by_size
            .iter()
            .find(|b| {
                let inside = pick < b.len();
                pick = pick.saturating_sub(b.len());
                inside
            })
            .unwrap_or(&by_size[0]);
        let batch: Vec<_> = (0..config.batch.max(1))
            .map(|_| example(&bucket[rng.below(bucket.len() as u32) as usize], &mut rng))
            .collect();
        let losses = trainer.step(&batch)?;
        if step >= config.steps - config.steps.div_ceil(4) {
            recent.push(losses);
        }
        on(Event::Progress);
    }
    let n = recent.len().max(1) as f32;
    let mean = (
        recent.iter().map(|l| l.0).sum::<f32>() / n,
        recent.iter().map(|l| l.1).sum::<f32>() / n,
    );
    let bytes = trainer.network()?.to_bytes();
    // The inference code's own checks (shapes, finite values) before the
    // net is kept: a diverged net must not become a file a resume trusts.
    if let Err(e) = Network::from_bytes(&bytes) {
        return Err(LearnError::Run(format!(
            "training generation {generation} gave an unusable net ({e}): lower --lr and start a new run"
        )));
    }
    write_atomically(path, &bytes)?;
    Ok((total, mean))
}

fn size(s: &Sample) -> (u8, u8) {
    (s.position.width(), s.position.height())
}

fn game_size(s: &[Sample]) -> (u8, u8) {
    s.first().map_or((0, 0), size)
}
