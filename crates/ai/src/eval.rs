//! Static evaluation of a position for the side to step, in integer units
//! (about 100 per cell of mobility). Each feature is "mine minus theirs".

use virus_wars_rules::{Bitboard, Position, Side};

/// One number for each feature of the evaluation: a position's features
/// ([`Features`], each "mine minus theirs") or their weights ([`Weights`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct PerFeature {
    /// Cells each side could step on now.
    pub mobility: i32,
    /// Enemy viruses each side could kill now.
    pub threats: i32,
    /// Viruses no enemy can ever reach (every neighbour is the owner's own
    /// cell or an obstacle): a group with one never dies.
    pub bunkers: i32,
    /// Cells in each side's live region.
    pub live: i32,
    /// Cells each side reaches first when both spread through free cells.
    pub territory: i32,
    /// Steps the side to step still has in this turn.
    pub tempo: i32,
}

/// Feature weights; [`PerFeature::TUNED`] holds the tuned values.
pub type Weights = PerFeature;

/// The features of a position, each as (side to step) minus (opponent).
pub type Features = PerFeature;

impl PerFeature {
    /// The tuned weights.
    pub const TUNED: Weights = PerFeature {
        mobility: 100,
        threats: 250,
        bunkers: 250,
        live: 20,
        territory: 30,
        tempo: 80,
    };

    pub const NAMES: [&'static str; 6] = [
        "mobility",
        "threats",
        "bunkers",
        "live",
        "territory",
        "tempo",
    ];

    pub fn as_array(&self) -> [i32; 6] {
        [
            self.mobility,
            self.threats,
            self.bunkers,
            self.live,
            self.territory,
            self.tempo,
        ]
    }

    pub fn from_array(a: [i32; 6]) -> PerFeature {
        PerFeature {
            mobility: a[0],
            threats: a[1],
            bunkers: a[2],
            live: a[3],
            territory: a[4],
            tempo: a[5],
        }
    }
}

/// Most rounds of the territory race (cells further than this count for nobody).
const TERRITORY_ROUNDS: usize = 10;

pub fn features<const N: usize>(p: &Position<N>) -> Features {
    let me = p.side();
    let them = !me;
    let geo = p.geometry();
    let (reach_me, reach_them) = (p.reach(me), p.reach(them));
    let (live_me, live_them) = (p.live_region_of(me), p.live_region_of(them));
    let blocked = p.zombies(Side::X) | p.zombies(Side::O) | p.obstacles();
    let bunkers = |s: Side| {
        let own = p.viruses(s) | p.zombies(s) | p.obstacles();
        (p.viruses(s) & !geo.dilate(geo.board() & !own)).count() as i32
    };
    // Both sides spread one ring a round through cells that are not walls;
    // cells both reach in the same round belong to nobody.
    let free = geo.board() & !blocked;
    let (mut mine, mut theirs) = (live_me, live_them);
    let mut seen = mine | theirs;
    for _ in 0..TERRITORY_ROUNDS {
        let grow_me = geo.dilate(mine) & free & !seen;
        let grow_them = geo.dilate(theirs) & free & !seen;
        if (grow_me | grow_them).is_empty() {
            break;
        }
        let both = grow_me & grow_them;
        mine |= grow_me & !both;
        theirs |= grow_them & !both;
        seen |= grow_me | grow_them;
    }
    let count = |b: Bitboard<N>| b.count() as i32;
    Features {
        mobility: count(reach_me) - count(reach_them),
        threats: count(reach_me & p.viruses(them)) - count(reach_them & p.viruses(me)),
        bunkers: bunkers(me) - bunkers(them),
        live: count(live_me) - count(live_them),
        territory: count(mine & !live_me) - count(theirs & !live_them),
        tempo: p.steps_left() as i32,
    }
}

/// The evaluation of `p` for the side to step.
pub fn evaluate<const N: usize>(p: &Position<N>, w: &Weights) -> i32 {
    let f = features(p);
    f.as_array()
        .iter()
        .zip(w.as_array())
        .map(|(f, w)| f * w)
        .sum::<i32>()
        / 10
}

#[cfg(test)]
mod tests {
    use super::*;
    use virus_wars_rules::{position_string, with_position};

    fn feats(text: &str) -> Features {
        let p = position_string::read(text).unwrap();
        with_position!(&p, q => features(q))
    }

    #[test]
    fn symmetric_start_is_even_but_for_tempo() {
        let f = feats("10x10 paper-tactics 9O/10/10/10/10/10/10/10/10/X9 x 3 1 XO 0");
        assert_eq!(
            Features {
                tempo: 3,
                ..Features::default()
            },
            f
        );
    }

    #[test]
    fn bunkers_and_threats_are_seen() {
        // X's virus at b2 is ringed by its own zombies and the board edge.
        let f =
            feats("5x5 steps=3,first=3,start=corners,end=standard 5/5/xxx1O/xXx2/xxx1O x 1 5 XO 0");
        assert_eq!(f.bunkers, 1);
        // X's live region reaches d1..d3 around: O's viruses at e1/e3 are not adjacent.
        assert_eq!(f.threats, 0);
        let g = feats("5x5 steps=3,first=3,start=corners,end=standard 5/5/2O2/1X3/X4 x 3 1 XO 0");
        assert_eq!(g.threats, 0, "each side threatens one virus");
        assert_eq!(g.mobility, 7 - 8);
        assert_eq!(g.live, 2 - 1);
    }
}
