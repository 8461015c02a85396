//! How cells look: every kind of cell has its own letter, so the board reads
//! the same in monochrome, to colour-blind players and to screen readers;
//! colour only repeats what the letter says.

use ratatui::style::{Color, Modifier, Style};
use virus_wars_rules::{Content, Side};

/// The letter of a cell: `X`/`O` viruses, `x`/`o` zombies (owned by X/O),
/// `#` trench, `*` obstacle, `+` an empty cell the mover may step on, `.`
/// any other empty cell.
pub fn plain_letter(content: Content, legal: bool) -> char {
    match content {
        Content::Empty if legal => '+',
        c => virus_wars_rules::diagram::letter(c),
    }
}

/// The letter of a cell as shown: `?` where fog hides it.
pub fn shown_letter(content: Option<Content>, legal: bool) -> char {
    content.map_or('?', |c| plain_letter(c, legal))
}

/// The colour and weight that go with a cell's letter.
pub fn style(content: Content, legal: bool) -> Style {
    let base = Style::default();
    match content {
        Content::Virus(Side::X) => base.fg(Color::LightRed).add_modifier(Modifier::BOLD),
        Content::Virus(Side::O) => base.fg(Color::LightBlue).add_modifier(Modifier::BOLD),
        Content::Zombie(Side::X) => base.fg(Color::Red).add_modifier(Modifier::DIM),
        Content::Zombie(Side::O) => base.fg(Color::Blue).add_modifier(Modifier::DIM),
        Content::Trench => base.fg(Color::Yellow),
        Content::Obstacle => base.fg(Color::DarkGray),
        Content::Empty if legal => base.fg(Color::Green),
        Content::Empty => base.fg(Color::DarkGray),
    }
}

/// How a cell fog hides looks (its letter is `?`).
pub fn fog_style() -> Style {
    Style::default()
        .fg(Color::DarkGray)
        .add_modifier(Modifier::DIM)
}

/// The legend printed under the board.
pub const LEGEND: &str =
    "X O viruses  x o zombies  + you may step here  # trench  * obstacle  [ ] cursor  ( ) last turn";
/// The legend's line under fog.
pub const FOG_LEGEND: &str = "? fog (not seen)  faint X O: remembered, out of sight now";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_of_cell_has_its_own_letter() {
        let kinds = [
            (Content::Empty, false),
            (Content::Empty, true),
            (Content::Virus(Side::X), false),
            (Content::Virus(Side::O), false),
            (Content::Zombie(Side::X), false),
            (Content::Zombie(Side::O), false),
            (Content::Trench, false),
            (Content::Obstacle, false),
        ];
        let mut letters: Vec<char> = kinds.iter().map(|&(c, l)| plain_letter(c, l)).collect();
        letters.sort();
        letters.dedup();
        assert_eq!(letters.len(), kinds.len());
    }
}
