//! A plain-text picture of the board, with file letters and rank numbers.
//!
//! ```text
//!    a b c d
//!  4 . . . O  4
//!  3 . x O .  3
//!  2 . X . .  2
//!  1 X . . .  1
//!    a b c d
//! ```
//! `X`/`O` live viruses, `x`/`o` zombies owned by X/O, `#` trench, `*` obstacle.

use std::fmt::Write;

use crate::any_position::AnyPosition;
use crate::cell::Cell;
use crate::setup::Content;
use crate::side::Side;

/// The letter a cell shows in diagrams and position strings.
pub fn letter(c: Content) -> char {
    match c {
        Content::Empty => '.',
        Content::Virus(Side::X) => 'X',
        Content::Virus(Side::O) => 'O',
        Content::Zombie(Side::X) => 'x',
        Content::Zombie(Side::O) => 'o',
        Content::Trench => '#',
        Content::Obstacle => '*',
    }
}

/// The board as text, rank `height` on top.
pub fn diagram(p: &AnyPosition) -> String {
    let (w, h) = (p.width(), p.height());
    let files: String = (0..w).map(|f| format!(" {}", (b'a' + f) as char)).collect();
    let mut out = format!("  {files}\n");
    for rank in (0..h).rev() {
        write!(out, "{:>2} ", rank + 1).unwrap();
        for file in 0..w {
            out.push(letter(p.content(Cell::new(file, rank))));
            out.push(' ');
        }
        writeln!(out, "{:>2}", rank + 1).unwrap();
    }
    writeln!(out, "  {files}").unwrap();
    out
}

/// A side's view as [`diagram`] draws a position, `?` on the cells it does
/// not see (docs/rules.md §8).
pub fn view_diagram(cells: &[Option<crate::Content>], w: u8, h: u8) -> String {
    let files: String = (0..w).map(|f| format!(" {}", (b'a' + f) as char)).collect();
    let mut out = format!("  {files}\n");
    for rank in (0..h).rev() {
        write!(out, "{:>2} ", rank + 1).unwrap();
        for file in 0..w {
            out.push(cells[rank as usize * w as usize + file as usize].map_or('?', letter));
            out.push(' ');
        }
        writeln!(out, "{:>2}", rank + 1).unwrap();
    }
    writeln!(out, "  {files}").unwrap();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Preset;

    #[test]
    fn draws_the_corners() {
        let p = Preset::Korobkov.sized(4, 3).start().unwrap();
        assert_eq!(
            diagram(&p),
            "   a b c d\n 3 . . . O  3\n 2 . . . .  2\n 1 X . . .  1\n   a b c d\n"
        );
    }
}
