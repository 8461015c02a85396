//! Drawing the game screen: the labelled board, the move list, whose turn
//! it is, the computer's spinner and best line, the input line, messages,
//! keys, and the result when the game is over.

use ratatui::layout::{Alignment, Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
use ratatui::Frame;
use virus_wars_rules::notation::format_turn;
use virus_wars_rules::Cell;

use super::super::session::Session;
use super::super::symbols::{fog_style, shown_letter, style, FOG_LEGEND, LEGEND};
use super::{menu, App};

/// Screen columns a board cell takes: a marker, the letter, a marker.
pub const CELL_WIDTH: u16 = 3;

const SPINNER: [char; 4] = ['|', '/', '-', '\\'];

const KEYS: &str = "arrows+Enter or click: step · type e5 / e5-e6-f6 / a command + Enter · ^Z undo · ^T undo turn · ^Y redo · ^E hint · ^R resign · ^S save · ^N new · ^Q quit";

pub fn render(frame: &mut Frame, app: &mut App) {
    if let Some(m) = &app.menu {
        menu::render(frame, m, &app.message);
        return;
    }
    let Some(session) = app.session.as_ref() else {
        return;
    };
    let p = session.game().position();
    let board_width = 3 + p.width() as u16 * CELL_WIDTH + 3 + 2;
    let [main, status] = Layout::vertical([
        Constraint::Min(p.height() as u16 + 6),
        Constraint::Length(5),
    ])
    .areas(frame.area());
    let [board_area, moves_area] =
        Layout::horizontal([Constraint::Length(board_width), Constraint::Min(16)]).areas(main);

    let v = session.game().variant();
    let title = format!(
        " Virus Wars {}x{} · {} steps a turn ",
        v.width, v.height, v.rules.steps_per_turn
    );
    let block = Block::default().borders(Borders::ALL).title(title);
    let inner = block.inner(board_area);
    frame.render_widget(block, board_area);
    let (lines, origin) = board_lines(session, app.cursor, inner);
    app.board_origin = Some(origin);
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), inner);

    let moves = session.move_list();
    let shown = moves_area.height.saturating_sub(2) as usize;
    let tail: Vec<Line> = moves
        .iter()
        .skip(moves.len().saturating_sub(shown))
        .map(|m| Line::from(m.as_str()))
        .collect();
    frame.render_widget(
        Paragraph::new(tail).block(Block::default().borders(Borders::ALL).title(" moves ")),
        moves_area,
    );

    let status_lines = vec![
        Line::from(turn_line(app, session)),
        Line::from(vec![
            Span::raw("> "),
            Span::styled(
                format!("{}_", app.input),
                Style::default().add_modifier(Modifier::BOLD),
            ),
        ]),
        Line::from(app.message.clone()),
        Line::from(Span::styled(
            KEYS,
            Style::default().add_modifier(Modifier::DIM),
        )),
    ];
    frame.render_widget(
        Paragraph::new(status_lines).wrap(Wrap { trim: true }),
        status,
    );

    if let Some(end) = session.ending() {
        let text = vec![
            Line::from(Span::styled(
                end.ending.outcome.to_string(),
                Style::default().add_modifier(Modifier::BOLD),
            )),
            Line::from(end.ending.reason.to_string()),
            Line::from(format!("after {} turns", end.turns)),
            Line::from(""),
            Line::from("n new · u undo · s save · a analyse · q quit"),
        ];
        let area = centered(frame.area(), 46, 7);
        frame.render_widget(Clear, area);
        frame.render_widget(
            Paragraph::new(text)
                .alignment(Alignment::Center)
                .block(Block::default().borders(Borders::ALL).title(" game over ")),
            area,
        );
    }
    if let Some(review) = &app.report {
        // Every turn if they fit, else the judged ones.
        let mut report = super::super::review::table(review, true);
        if report.lines().count() as u16 + 2 > frame.area().height {
            report = super::super::review::table(review, false);
        }
        let lines: Vec<Line> = report.lines().map(|l| Line::from(l.to_string())).collect();
        let width = report.lines().map(|l| l.chars().count()).max().unwrap_or(0) as u16 + 2;
        let area = centered(frame.area(), width, lines.len() as u16 + 2);
        frame.render_widget(Clear, area);
        frame.render_widget(
            Paragraph::new(lines).block(
                Block::default()
                    .borders(Borders::ALL)
                    .title(" the engine's review · any key closes "),
            ),
            area,
        );
    }
}

/// The board with file letters and rank numbers; returns the lines and the
/// screen position of the top-left cell's letter column block.
fn board_lines(session: &Session, cursor: Cell, area: Rect) -> (Vec<Line<'static>>, (u16, u16)) {
    let p = session.game().position();
    let (w, h) = (p.width(), p.height());
    let legal: Vec<Cell> = if session.human_to_move() {
        p.legal_cells()
    } else {
        Vec::new()
    };
    let last = session.last_turn_cells();
    let board = session.board();
    let files: String = (0..w)
        .map(|f| format!(" {} ", (b'a' + f) as char))
        .collect();
    let header = Line::from(format!("   {files}"));
    let mut lines = vec![header.clone()];
    for rank in (0..h).rev() {
        let mut spans = vec![Span::raw(format!("{:>2} ", rank + 1))];
        for file in 0..w {
            let cell = Cell::new(file, rank);
            let content = board.content(w, cell);
            let is_legal = legal.contains(&cell);
            let (l, r) = if cell == cursor {
                ('[', ']')
            } else if last.contains(&cell) {
                ('(', ')')
            } else {
                (' ', ' ')
            };
            let mut st = match content {
                None => fog_style(),
                Some(c) if board.remembered.contains(&cell) => {
                    style(c, is_legal).add_modifier(Modifier::DIM | Modifier::ITALIC)
                }
                Some(c) => style(c, is_legal),
            };
            if cell == cursor {
                st = st.add_modifier(Modifier::REVERSED);
            } else if last.contains(&cell) {
                st = st.add_modifier(Modifier::UNDERLINED);
            }
            spans.push(Span::raw(l.to_string()));
            spans.push(Span::styled(
                shown_letter(content, is_legal).to_string(),
                st,
            ));
            spans.push(Span::raw(r.to_string()));
        }
        spans.push(Span::raw(format!(" {}", rank + 1)));
        lines.push(Line::from(spans));
    }
    lines.push(header);
    lines.push(Line::from(Span::styled(
        LEGEND,
        Style::default().add_modifier(Modifier::DIM),
    )));
    if session.viewer().is_some() {
        lines.push(Line::from(Span::styled(
            format!("{FOG_LEGEND} · {} hidden", board.hidden()),
            Style::default().add_modifier(Modifier::DIM),
        )));
    }
    // The first cell's left marker is 3 columns in; a click anywhere on a
    // cell's three columns counts.
    (lines, (area.x + 3, area.y + 1))
}

/// Whose turn it is and what the computer is doing.
fn turn_line(app: &App, session: &Session) -> String {
    if let Some(end) = session.ending() {
        return format!("game over: {end}");
    }
    let p = session.game().position();
    let side = p.side();
    let who = session.seat_name(side);
    let left = format!(
        "{} of {} steps left · turn {}",
        p.steps_left(),
        p.rules().steps_in_turn(p.turn()),
        p.turn()
    );
    match &app.thinking {
        Some(t) => {
            // Under fog nothing of a search is shown: its lines are drawn
            // positions, and would name cells the person does not see.
            let best = t
                .latest
                .lock()
                .ok()
                .and_then(|i| i.as_ref().map(|i| format_turn(&i.pv)))
                .unwrap_or_default();
            let what = if t.hint {
                "looking for a hint"
            } else {
                "thinking"
            };
            let best = if best.is_empty() {
                best
            } else {
                format!(" · best line: {best}")
            };
            format!(
                "{side} ({who}) {what} {} {:.1} s{best}",
                SPINNER[app.frame % SPINNER.len()],
                t.since.elapsed().as_secs_f64()
            )
        }
        None if who == "human" => format!("{side} to step — {left}"),
        None => format!("{side} ({who}) to step — {left}"),
    }
}

fn centered(area: Rect, width: u16, height: u16) -> Rect {
    let w = width.min(area.width);
    let h = height.min(area.height);
    Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    )
}

#[cfg(test)]
mod tests {
    use ratatui::backend::TestBackend;
    use ratatui::Terminal;
    use virus_wars_rules::notation::parse_steps;
    use virus_wars_rules::{Game, Preset};

    use super::super::super::session::Session;
    use super::super::menu::Menu;
    use super::*;

    fn app(session: Option<Session>, menu: Option<Menu>) -> App {
        App {
            cursor: Cell::new(4, 4),
            ..App::showing(session, menu)
        }
    }

    fn game(moves: &str) -> Session {
        let mut s = Session::new(Game::new(Preset::Classic.variant()).unwrap(), [None, None]);
        for turn in moves.split(' ').filter(|t| !t.is_empty()) {
            s.play(&parse_steps(turn).unwrap()).unwrap();
        }
        s
    }

    /// Renders `app` on a 110x30 screen and compares the text with the
    /// snapshot `tests/snapshots/NAME.snap` (insta: `cargo insta review`,
    /// or INSTA_UPDATE=always, records a new one; CI never does).
    fn snapshot(name: &str, app: &mut App) {
        let mut terminal = Terminal::new(TestBackend::new(110, 30)).unwrap();
        terminal.draw(|f| render(f, app)).unwrap();
        let buffer = terminal.backend().buffer();
        let mut text = String::new();
        for y in 0..buffer.area.height {
            let row: String = (0..buffer.area.width)
                .map(|x| buffer[(x, y)].symbol().to_string())
                .collect();
            text.push_str(row.trim_end());
            text.push('\n');
        }
        insta::with_settings!({
            snapshot_path => concat!(env!("CARGO_MANIFEST_DIR"), "/tests/snapshots"),
            prepend_module_to_snapshot => false,
            omit_expression => true,
        }, {
            insta::assert_snapshot!(name, text);
        });
    }

    #[test]
    fn the_menu_looks_as_recorded() {
        snapshot("menu", &mut app(None, Some(Menu::default())));
    }

    #[test]
    fn the_board_looks_as_recorded() {
        let mut a = app(Some(game("a1-a2-b2 j10-i9-h8 b3-c3-c2")), None);
        a.input = "d4-e5".into();
        a.message = "d2: not accessible for O".into();
        snapshot("board", &mut a);
        assert_eq!(a.board_origin, Some((4, 2)), "where clicks are read");
        assert_eq!(a.cell_at(4 + 3 * 2 + 1, 2 + 9), Some(Cell::new(2, 0)), "c1");
        assert_eq!(a.cell_at(3, 5), None, "the rank labels are not cells");
    }

    #[test]
    fn the_result_looks_as_recorded() {
        let mut s = game("a1-a2-b2 j10-i9-h8");
        s.resign().unwrap();
        snapshot("result", &mut app(Some(s), None));
    }
}
