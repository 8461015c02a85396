//! What the crate's own tests share.

use virus_wars_rules::AnyPosition;

use crate::{Budget, Player, StopFlag};

/// `player` against itself from `p` for at most `turns` turns, checking
/// that each turn it chooses is whole steps of the side to move; the
/// position it reaches.
pub fn self_play(
    player: &mut dyn Player,
    mut p: AnyPosition,
    budget: &Budget,
    turns: usize,
) -> AnyPosition {
    for _ in 0..turns {
        if p.outcome().is_some() {
            break;
        }
        let r = player.choose(&p, budget, &StopFlag::new(), &mut |_| {});
        assert!(!r.steps.is_empty());
        let side = p.side();
        for s in r.steps {
            assert_eq!(p.side(), side, "all the steps are the mover's");
            p.play(s).unwrap();
        }
    }
    p
}
