//! The new-game menu: mode, side, level, variant, board size, steps per
//! turn and fog of war; arrows choose, Enter starts.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use ratatui::Frame;
use virus_wars_ai::levels;
use virus_wars_ai::PlayerSpec;
use virus_wars_rules::{Preset, Side, Variant};

/// Who plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    VsComputer,
    TwoPlayers,
    Watch,
}

/// The menu's choices.
#[derive(Clone, Debug, PartialEq)]
pub struct Menu {
    pub row: usize,
    pub mode: Mode,
    pub side: Side,
    pub level: u8,
    pub preset: usize,
    pub size: u8,
    pub steps: u8,
    /// Fog of war (docs/rules.md §8).
    pub fog: bool,
}

const ROWS: usize = 8;

impl Default for Menu {
    fn default() -> Self {
        let v = Preset::ALL[0].variant();
        Menu {
            row: ROWS - 1,
            mode: Mode::VsComputer,
            side: Side::X,
            level: 4,
            preset: 0,
            size: v.width,
            steps: v.rules.steps_per_turn,
            fog: false,
        }
    }
}

impl Menu {
    pub fn up(&mut self) {
        self.row = (self.row + ROWS - 1) % ROWS;
    }

    pub fn down(&mut self) {
        self.row = (self.row + 1) % ROWS;
    }

    /// Changes the chosen row's value one way (`forward`) or the other.
    pub fn change(&mut self, forward: bool) {
        let step = |v: u8, lo: u8, hi: u8| -> u8 {
            if forward {
                if v >= hi {
                    lo
                } else {
                    v + 1
                }
            } else if v <= lo {
                hi
            } else {
                v - 1
            }
        };
        match self.row {
            0 => {
                self.mode = match (self.mode, forward) {
                    (Mode::VsComputer, true) | (Mode::Watch, false) => Mode::TwoPlayers,
                    (Mode::TwoPlayers, true) | (Mode::VsComputer, false) => Mode::Watch,
                    (Mode::Watch, true) | (Mode::TwoPlayers, false) => Mode::VsComputer,
                }
            }
            1 => self.side = !self.side,
            2 => self.level = step(self.level, 1, levels::LEVELS.len() as u8),
            3 => {
                let n = Preset::ALL.len() as u8;
                self.preset = step(self.preset as u8, 0, n - 1) as usize;
                let v = Preset::ALL[self.preset].variant();
                self.size = v.width;
                self.steps = v.rules.steps_per_turn;
            }
            4 => self.size = step(self.size, 5, 19),
            5 => self.steps = step(self.steps, 1, 6),
            6 => self.fog = !self.fog,
            _ => {}
        }
    }

    /// The variant chosen (square boards; a preset's own shape at its size).
    pub fn variant(&self) -> Variant {
        let base = Preset::ALL[self.preset].variant();
        let mut v = Variant {
            width: self.size,
            height: if self.size == base.width {
                base.height
            } else {
                self.size
            },
            ..base.clone()
        };
        if self.steps != base.rules.steps_per_turn {
            v.rules.steps_per_turn = self.steps;
            if base.rules.first_turn_steps == base.rules.steps_per_turn {
                v.rules.first_turn_steps = self.steps;
            }
        }
        v.fog = self.fog;
        v
    }

    /// Why the game chosen cannot be played at one screen, if it cannot:
    /// fog between two people (each side's board must be hidden from the
    /// other).
    pub fn refusal(&self) -> Option<&'static str> {
        (self.fog && self.mode == Mode::TwoPlayers)
            .then_some("fog needs each side's board hidden from the other: play it against the computer here, or with a friend online (virus-wars serve)")
    }

    /// The seats chosen: None is a person.
    pub fn seats(&self) -> [Option<PlayerSpec>; 2] {
        let computer = Some(PlayerSpec::Level(self.level));
        match self.mode {
            Mode::TwoPlayers => [None, None],
            Mode::Watch => [computer.clone(), computer],
            Mode::VsComputer => {
                let mut seats = [None, None];
                seats[(!self.side).index()] = computer;
                seats
            }
        }
    }

    fn rows(&self) -> [(&'static str, String); ROWS] {
        let level = levels::level(self.level).map_or(String::new(), |l| {
            format!("{} {} — {}", l.number, l.name, l.description)
        });
        let mode = match self.mode {
            Mode::VsComputer => "you against the computer",
            Mode::TwoPlayers => "two people, one keyboard",
            Mode::Watch => "watch the computer play itself",
        };
        let v = self.variant();
        [
            ("mode", mode.to_string()),
            (
                "your side",
                format!(
                    "{} ({})",
                    self.side,
                    if self.side == Side::X {
                        "moves first"
                    } else {
                        "moves second"
                    }
                ),
            ),
            ("level", level),
            ("variant", Preset::ALL[self.preset].to_string()),
            ("board", format!("{}x{}", v.width, v.height)),
            ("steps a turn", self.steps.to_string()),
            (
                "fog of war",
                if self.fog {
                    "on: you see only near your viruses"
                } else {
                    "off"
                }
                .to_string(),
            ),
            ("", "start the game".to_string()),
        ]
    }
}

/// Draws the menu.
pub fn render(frame: &mut Frame, menu: &Menu, message: &str) {
    let area = frame.area();
    let [top, body, bottom] = Layout::vertical([
        Constraint::Length(3),
        Constraint::Min(ROWS as u16 + 2),
        Constraint::Length(2),
    ])
    .areas(area);
    frame.render_widget(
        Paragraph::new("Virus Wars — new game").block(Block::default().borders(Borders::BOTTOM)),
        top,
    );
    let lines: Vec<Line> = menu
        .rows()
        .into_iter()
        .enumerate()
        .map(|(k, (label, value))| {
            let chosen = k == menu.row;
            let marker = if chosen { "▶ " } else { "  " };
            let value = if chosen && k + 1 < ROWS {
                format!("‹ {value} ›")
            } else {
                value
            };
            let style = if chosen {
                Style::default().add_modifier(Modifier::REVERSED)
            } else {
                Style::default()
            };
            Line::from(vec![
                Span::raw(marker),
                Span::raw(format!("{label:<13}")),
                Span::styled(value, style),
            ])
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), inset(body));
    let help = if message.is_empty() {
        "↑↓ choose · ←→ change · Enter start · q quit".to_string()
    } else {
        message.to_string()
    };
    frame.render_widget(Paragraph::new(help), bottom);
}

fn inset(r: Rect) -> Rect {
    Rect {
        x: r.x + 1,
        width: r.width.saturating_sub(1),
        ..r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choices_wrap_and_build_a_game() {
        let mut m = Menu {
            row: 0,
            ..Menu::default()
        };
        m.change(true);
        assert_eq!(m.mode, Mode::TwoPlayers);
        assert_eq!(m.seats(), [None, None]);
        m.change(false);
        m.row = 1;
        m.change(true);
        assert_eq!(m.seats(), [Some(PlayerSpec::Level(4)), None], "you are O");
        m.row = 2;
        for _ in 0..6 {
            m.change(true);
        }
        assert_eq!(m.level, 1, "levels wrap from 9 to 1");
        m.row = 3;
        m.change(true);
        let v = m.variant();
        assert_eq!(Preset::ALL[1].variant(), v);
        m.row = 4;
        m.change(false);
        assert_eq!(m.variant().width, v.width - 1);
        assert!(m.variant().check().is_ok());
        m.row = 6;
        m.change(true);
        assert!(m.variant().fog);
        assert_eq!(m.refusal(), None, "against the computer");
        m.row = 0;
        m.change(true);
        assert_eq!(m.mode, Mode::TwoPlayers);
        assert!(m.refusal().unwrap().contains("hidden from the other"));
    }
}
