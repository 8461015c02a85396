//! A step as the tree stores it: a cell's index, or [`PASS`].

use virus_wars_rules::{Position, Step};

use crate::tt::PASS;

pub(super) fn play<const N: usize>(p: &mut Position<N>, code: u16) {
    if code == PASS {
        p.pass_unchecked();
    } else {
        p.play_unchecked(code as usize);
    }
}

pub(super) fn decode<const N: usize>(p: &Position<N>, code: u16) -> Step {
    if code == PASS {
        Step::Pass
    } else {
        Step::Cell(p.geometry().cell(code as usize))
    }
}
