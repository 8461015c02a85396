//! Determinization for fog of war (docs/rules.md §8): a whole position
//! sampled to agree with everything a side knows — every cell it sees, and
//! how many steps the other side has made — its hidden enemy viruses grown
//! at random from the enemy's known pieces through the cells it does not
//! see. Every cell the side may step on is one it sees, so a sample's legal
//! steps for that side are the true ones; what differs is what lies beyond.

use virus_wars_rules::fog::ViewPosition;
use virus_wars_rules::rng::SplitMix64;
use virus_wars_rules::{AnyPosition, Content};

/// Tries made before a sample is given up.
const TRIES: usize = 16;

/// A position that agrees with `view` (whose side is the side to move),
/// the other side having made `enemy_steps` steps from `enemy_bases`
/// pre-placed bases; `None` if no try gave a valid position.
pub fn sample(
    view: &ViewPosition,
    enemy_steps: u64,
    enemy_bases: u64,
    rng: &mut SplitMix64,
) -> Option<AnyPosition> {
    let s = &view.setup;
    let enemy = !s.side;
    let (w, h) = (s.width as i64, s.height as i64);
    let count = |c: Content| s.cells.iter().filter(|&&x| x == c).count() as u64;
    let known = count(Content::Virus(enemy)) + count(Content::Zombie(enemy));
    let hidden: Vec<usize> = (0..s.cells.len()).filter(|&i| view.unknown[i]).collect();
    let k = ((enemy_steps + enemy_bases).saturating_sub(known) as usize).min(hidden.len());
    let around = |i: usize| {
        let (f, r) = ((i as i64) % w, (i as i64) / w);
        (-1..=1)
            .flat_map(move |df| (-1..=1).map(move |dr| (f + df, r + dr)))
            .filter(move |&(a, b)| (a, b) != (f, r) && (0..w).contains(&a) && (0..h).contains(&b))
            .map(move |(a, b)| (b * w + a) as usize)
    };
    for _ in 0..TRIES {
        let mut cells = s.cells.clone();
        // Unknown cells next to the enemy's pieces: where its hidden viruses grow.
        let mut frontier: Vec<usize> = hidden
            .iter()
            .copied()
            .filter(|&i| {
                around(i).any(
                    |j| matches!(cells[j], Content::Virus(x) | Content::Zombie(x) if x == enemy),
                )
            })
            .collect();
        let mut free: Vec<usize> = hidden.clone();
        for _ in 0..k {
            let pool = if frontier.is_empty() {
                &mut free
            } else {
                &mut frontier
            };
            let i = pool.swap_remove(rng.below(pool.len() as u32) as usize);
            frontier.retain(|&j| j != i);
            free.retain(|&j| j != i);
            cells[i] = Content::Virus(enemy);
            for j in around(i) {
                if view.unknown[j] && cells[j] == Content::Empty && !frontier.contains(&j) {
                    frontier.push(j);
                }
            }
        }
        let mut setup = s.clone();
        setup.cells = cells;
        if let Ok(p) = AnyPosition::from_setup(&setup) {
            return Some(p);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use virus_wars_rules::fog::Sight;
    use virus_wars_rules::{Game, Preset, Side, StartRule};

    #[test]
    fn samples_agree_with_what_the_side_sees_and_keep_its_legal_steps() {
        let mut rng = SplitMix64::new(3);
        let mut sampled = 0;
        for preset in [
            Preset::Classic,
            Preset::PaperTactics,
            Preset::Gcr,
            Preset::Feup,
            Preset::ClassicPass,
        ] {
            let variant = preset.sized(7, 7);
            let bases = u64::from(variant.rules.start == StartRule::Corners);
            for _ in 0..4 {
                let mut game = Game::new(variant.clone()).unwrap();
                let mut sight = Sight::start(game.position());
                while game.outcome().is_none() {
                    let legal = game.position().legal_steps();
                    let step = legal[rng.below(legal.len() as u32) as usize];
                    game.play(step).unwrap();
                    sight.look(game.position());
                    let p = *game.position();
                    if p.outcome().is_some() {
                        break;
                    }
                    let me = p.side();
                    let view = ViewPosition::of(&p, &sight.view(&p, me));
                    let enemy_steps = game
                        .turns()
                        .iter()
                        .filter(|t| t.side == !me)
                        .map(|t| {
                            t.steps
                                .iter()
                                .filter(|s| **s != virus_wars_rules::Step::Pass)
                                .count() as u64
                        })
                        .sum();
                    let q = sample(&view, enemy_steps, bases, &mut rng).unwrap_or_else(|| {
                        panic!(
                            "no sample of {}",
                            virus_wars_rules::position_string::write(&p)
                        )
                    });
                    sampled += 1;
                    let truth = p.to_setup();
                    let got = q.to_setup();
                    for (i, &hidden) in view.unknown.iter().enumerate() {
                        if !hidden {
                            assert_eq!(got.cells[i], truth.cells[i], "a known cell kept");
                        }
                    }
                    assert_eq!(q.legal_steps(), p.legal_steps(), "the same legal steps");
                    let viruses = |s: &virus_wars_rules::Setup| {
                        s.cells
                            .iter()
                            .filter(|&&c| c == Content::Virus(!me))
                            .count()
                    };
                    assert_eq!(viruses(&got), viruses(&truth), "as many enemy viruses");
                    assert_eq!(
                        (q.side(), q.turn(), q.steps_left()),
                        (me, p.turn(), p.steps_left())
                    );
                    let _ = Side::X;
                }
            }
        }
        assert!(sampled > 100, "{sampled} positions sampled");
    }
}
