//! The full-screen game: menu, board, keys and mouse, the computer thinking
//! on its own thread, and a terminal that is always given back as it was.

pub mod menu;
mod thinking;
pub mod view;

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::Result;
use ratatui::crossterm::event::{
    self, DisableMouseCapture, EnableMouseCapture, Event, KeyCode, KeyEvent, KeyEventKind,
    KeyModifiers, MouseButton, MouseEventKind,
};
use ratatui::crossterm::execute;
use virus_wars_ai::{SearchHandle, SearchInfo};
use virus_wars_rules::{Cell, Game, Step};

use super::command::{parse_command, Command, HELP};
use super::plain;
use super::session::{hint_spec, Session};
use super::PlayArgs;
use menu::Menu;

/// A search running for the computer's turn or for a hint.
pub struct Thinking {
    handle: SearchHandle,
    pub hint: bool,
    pub latest: Arc<Mutex<Option<SearchInfo>>>,
    pub since: Instant,
}

/// Everything the screen shows.
pub struct App {
    pub menu: Option<Menu>,
    pub session: Option<Session>,
    pub cursor: Cell,
    pub input: String,
    pub message: String,
    pub thinking: Option<Thinking>,
    /// Where the board was drawn: its top-left cell's screen position.
    pub board_origin: Option<(u16, u16)>,
    pub quit: bool,
    pub frame: usize,
    /// The engine reviewing a game on its own thread (`analyse`).
    pub reviewing: Option<std::thread::JoinHandle<Result<virus_wars_ai::review::Review, String>>>,
    /// A finished review, shown over the game as a table until a key is pressed.
    pub report: Option<virus_wars_ai::review::Review>,
}

impl App {
    /// An app showing `session` or `menu` (or nothing yet).
    pub fn showing(session: Option<Session>, menu: Option<Menu>) -> App {
        App {
            menu,
            session,
            cursor: Cell::new(0, 0),
            input: String::new(),
            message: String::new(),
            thinking: None,
            board_origin: None,
            quit: false,
            frame: 0,
            reviewing: None,
            report: None,
        }
    }

    pub fn new(args: &PlayArgs) -> Result<App> {
        let mut app = App::showing(None, None);
        if args.chooses_seats() {
            app.start(args.session()?);
        } else {
            let mut menu = Menu::default();
            if args.variant.any_given() {
                let v = args.variant.build()?;
                if let Some(k) = virus_wars_rules::Preset::ALL
                    .iter()
                    .position(|p| p.variant().rules == v.rules)
                {
                    menu.preset = k;
                }
                menu.size = v.width;
                menu.steps = v.rules.steps_per_turn;
                menu.fog = v.fog;
            }
            app.menu = Some(menu);
        }
        Ok(app)
    }

    fn start(&mut self, session: Session) {
        let p = session.game().position();
        self.cursor = Cell::new(p.width() / 2, p.height() / 2);
        if let Some(c) = p.legal_cells().first() {
            self.cursor = *c;
        }
        self.session = Some(session);
        self.menu = None;
        self.message = "your move: arrows and Enter, a click, or type a cell".into();
    }

    /// Handles one terminal event.
    pub fn handle(&mut self, ev: Event) {
        match ev {
            Event::Key(k) if k.kind != KeyEventKind::Release => self.key(k),
            Event::Mouse(m) if m.kind == MouseEventKind::Down(MouseButton::Left) => {
                if let Some(cell) = self.cell_at(m.column, m.row) {
                    self.cursor = cell;
                    self.step_on_cursor();
                }
            }
            _ => {}
        }
    }

    fn key(&mut self, k: KeyEvent) {
        if self.report.take().is_some() {
            return;
        }
        let ctrl = k.modifiers.contains(KeyModifiers::CONTROL);
        if ctrl && matches!(k.code, KeyCode::Char('c') | KeyCode::Char('q')) {
            self.quit();
            return;
        }
        if let Some(menu) = self.menu.as_mut() {
            match k.code {
                KeyCode::Up => menu.up(),
                KeyCode::Down | KeyCode::Tab => menu.down(),
                KeyCode::Left => menu.change(false),
                KeyCode::Right | KeyCode::Char(' ') => menu.change(true),
                KeyCode::Enter => {
                    if let Some(why) = menu.refusal() {
                        self.message = why.into();
                        return;
                    }
                    let (variant, seats) = (menu.variant(), menu.seats());
                    match Game::new(variant) {
                        Ok(game) => self.start(Session::new(game, seats)),
                        Err(e) => self.message = format!("that board cannot be played: {e}"),
                    }
                }
                KeyCode::Char('q') | KeyCode::Esc => self.quit(),
                _ => {}
            }
            return;
        }
        let over = self.session.as_ref().is_some_and(|s| s.ending().is_some());
        if ctrl {
            let command = match k.code {
                KeyCode::Char('z') => Some(Command::Undo),
                KeyCode::Char('t') => Some(Command::UndoTurn),
                KeyCode::Char('y') => Some(Command::Redo),
                KeyCode::Char('e') => Some(Command::Hint),
                KeyCode::Char('r') => Some(Command::Resign),
                KeyCode::Char('s') => Some(Command::Save(default_file_name())),
                KeyCode::Char('n') => Some(Command::New),
                _ => None,
            };
            if let Some(c) = command {
                self.obey(c);
            }
            return;
        }
        if over && self.input.is_empty() {
            let command = match k.code {
                KeyCode::Char('n') => Some(Command::New),
                KeyCode::Char('a') => Some(Command::Analyse(None)),
                KeyCode::Char('u') => Some(Command::UndoTurn),
                KeyCode::Char('s') => Some(Command::Save(default_file_name())),
                KeyCode::Char('q') | KeyCode::Esc => Some(Command::Quit),
                _ => None,
            };
            if let Some(c) = command {
                self.obey(c);
                return;
            }
        }
        let Some(session) = self.session.as_ref() else {
            return;
        };
        let p = session.game().position();
        let (w, h) = (p.width(), p.height());
        let c = self.cursor;
        match k.code {
            KeyCode::Up => self.cursor = Cell::new(c.file, (c.rank + 1).min(h - 1)),
            KeyCode::Down => self.cursor = Cell::new(c.file, c.rank.saturating_sub(1)),
            KeyCode::Left => self.cursor = Cell::new(c.file.saturating_sub(1), c.rank),
            KeyCode::Right => self.cursor = Cell::new((c.file + 1).min(w - 1), c.rank),
            KeyCode::PageUp => self.obey(Command::Undo),
            KeyCode::PageDown => self.obey(Command::Redo),
            KeyCode::Esc => self.input.clear(),
            KeyCode::Backspace => {
                self.input.pop();
            }
            KeyCode::Enter | KeyCode::Char(' ') if self.input.is_empty() => self.step_on_cursor(),
            KeyCode::Enter => {
                let line = std::mem::take(&mut self.input);
                match parse_command(&line) {
                    Ok(command) => self.obey(command),
                    Err(e) => self.message = e,
                }
            }
            KeyCode::Char(ch) if self.input.len() < 80 => self.input.push(ch),
            _ => {}
        }
    }

    fn step_on_cursor(&mut self) {
        self.obey(Command::Steps(vec![Step::Cell(self.cursor)]));
    }

    /// Carries out a command from a key or typed input.
    pub fn obey(&mut self, command: Command) {
        if self.session.is_none() {
            return;
        }
        match command {
            Command::Quit => return self.quit(),
            Command::Help => {
                self.message = HELP.into();
                return;
            }
            Command::New => {
                self.cancel_thinking();
                let mut menu = Menu::default();
                if let Some(s) = &self.session {
                    let v = s.game().variant();
                    menu.size = v.width;
                    menu.steps = v.rules.steps_per_turn;
                    menu.fog = v.fog;
                }
                self.session = None;
                self.menu = Some(menu);
                self.message.clear();
                return;
            }
            Command::Hint => {
                if self.thinking.is_some() {
                    self.message = "wait: the computer is thinking".into();
                    return;
                }
                let (player, budget) = hint_spec().build();
                self.message = "looking for a hint…".into();
                return self.think(player, budget, true);
            }
            Command::Steps(_) | Command::Resign if self.thinking.is_some() => {
                self.message = "wait: the computer is thinking".into();
                return;
            }
            Command::Steps(_) if !self.session.as_ref().is_some_and(Session::human_to_move) => {
                self.message = "it is not your turn".into();
                return;
            }
            Command::Analyse(file) => return self.analyse(file),
            Command::Undo | Command::UndoTurn | Command::Redo | Command::Load(_) => {
                self.cancel_thinking();
            }
            _ => {}
        }
        let Some(session) = self.session.as_mut() else {
            return;
        };
        let mut obeyed = plain::obey(session, command);
        if let Ok(text) = &mut obeyed {
            if text.is_empty() {
                *text = match session.ending() {
                    Some(end) => format!("game over: {end}"),
                    None => String::new(),
                };
            }
        }
        self.message = obeyed.unwrap_or_else(|e| e);
    }

    /// Reviews the game in `file`, or this one, on a thread of its own.
    fn analyse(&mut self, file: Option<String>) {
        if self.reviewing.is_some() {
            self.message = "the engine is reviewing a game already".into();
            return;
        }
        let game = match (&file, &self.session) {
            (Some(f), _) => super::review::read_game(std::path::Path::new(f)),
            (None, Some(s)) => s.reviewable(),
            (None, None) => return,
        };
        match game {
            Ok(game) => {
                self.message = format!(
                    "the engine is reviewing {} turns, 0.3 s each…",
                    game.turns().len()
                );
                self.reviewing = Some(std::thread::spawn(move || super::review::judge(&game)));
            }
            Err(e) => self.message = e,
        }
    }

    fn quit(&mut self) {
        self.cancel_thinking();
        self.quit = true;
    }

    /// The board cell under a screen position, if any.
    fn cell_at(&self, column: u16, row: u16) -> Option<Cell> {
        let (x0, y0) = self.board_origin?;
        let p = self.session.as_ref()?.game().position();
        if column < x0 || row < y0 {
            return None;
        }
        let file = (column - x0) / view::CELL_WIDTH;
        let from_top = row - y0;
        if file >= p.width() as u16 || from_top >= p.height() as u16 {
            return None;
        }
        Some(Cell::new(file as u8, p.height() - 1 - from_top as u8))
    }
}

fn default_file_name() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    format!("virus-wars-{secs}.vwr")
}

/// Gives the terminal back (raw mode off, main screen, no mouse capture)
/// when dropped: on quitting, on errors such as a closed pipe, and on
/// panics (ratatui's hook restores, then this runs while unwinding).
struct TerminalGuard;

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        let _ = execute!(std::io::stdout(), DisableMouseCapture);
        ratatui::restore();
    }
}

pub fn run(args: PlayArgs) -> Result<()> {
    let mut app = App::new(&args)?;
    let mut terminal = ratatui::init();
    let _guard = TerminalGuard;
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let _ = execute!(std::io::stdout(), DisableMouseCapture);
        hook(info);
    }));
    execute!(std::io::stdout(), EnableMouseCapture)?;
    while !app.quit {
        terminal.draw(|f| view::render(f, &mut app))?;
        app.tick();
        if event::poll(Duration::from_millis(80))? {
            app.handle(event::read()?);
        }
    }
    Ok(())
}
