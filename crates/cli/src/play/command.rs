//! What a person types at the terminal: steps or a command.

use virus_wars_rules::notation::parse_steps;
use virus_wars_rules::Step;

/// What a person may type: steps or a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// A cell (`e5`) or several steps of the turn (`e5-e6-f6`).
    Steps(Vec<Step>),
    Undo,
    UndoTurn,
    Redo,
    Hint,
    Resign,
    Save(String),
    Load(String),
    /// The engine's review of a saved game, or of this one.
    Analyse(Option<String>),
    New,
    Help,
    Quit,
}

/// The commands, for help screens.
pub const HELP: &str = "type a cell (e5) or a turn (e5-e6-f6), or: undo, undo turn, redo, hint, resign, save FILE, load FILE, analyse [FILE], new, help, quit";

/// Reads one line of input.
pub fn parse_command(line: &str) -> Result<Command, String> {
    let text = line.trim();
    let (word, rest) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
    let rest = rest.trim();
    let needs_file = |c: fn(String) -> Command| {
        if rest.is_empty() {
            Err(format!("{word} needs a file name, e.g. '{word} game.vwr'"))
        } else {
            Ok(c(rest.to_string()))
        }
    };
    match word.to_ascii_lowercase().as_str() {
        "" => Err(format!("nothing typed: {HELP}")),
        "undo" if rest.eq_ignore_ascii_case("turn") => Ok(Command::UndoTurn),
        "undo" if rest.is_empty() => Ok(Command::Undo),
        "redo" => Ok(Command::Redo),
        "hint" => Ok(Command::Hint),
        "resign" => Ok(Command::Resign),
        "save" => needs_file(Command::Save),
        "load" => needs_file(Command::Load),
        "analyse" | "analyze" => Ok(Command::Analyse(
            (!rest.is_empty()).then(|| rest.to_string()),
        )),
        "new" => Ok(Command::New),
        "help" | "?" => Ok(Command::Help),
        "quit" | "exit" | "q" => Ok(Command::Quit),
        _ => parse_steps(text)
            .map(Command::Steps)
            .map_err(|e| format!("'{text}' is neither steps nor a command ({e}); {HELP}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn steps(text: &str) -> Vec<Step> {
        parse_steps(text).unwrap()
    }

    #[test]
    fn commands_and_steps_parse_and_junk_says_why() {
        assert_eq!(parse_command(" e5 "), Ok(Command::Steps(steps("e5"))));
        assert_eq!(
            parse_command("a1-b2-c3"),
            Ok(Command::Steps(steps("a1 b2 c3")))
        );
        assert_eq!(parse_command("UNDO turn"), Ok(Command::UndoTurn));
        assert_eq!(
            parse_command("save g.vwr"),
            Ok(Command::Save("g.vwr".into()))
        );
        assert!(parse_command("save")
            .unwrap_err()
            .contains("needs a file name"));
        let junk = parse_command("hello there").unwrap_err();
        assert!(
            junk.starts_with("'hello there' is neither steps nor a command"),
            "{junk}"
        );
        assert!(parse_command("").unwrap_err().starts_with("nothing typed"));
    }
}
