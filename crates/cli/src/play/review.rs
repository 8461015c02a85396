//! A game reviewed by the engine, as text for the terminal: a table of the
//! turns (X's chance before and after, the judgement, the better turn), a
//! sparkline of X's chance, and each side's accuracy (docs/ai.md,
//! Reviewing a game). Used by the terminal game's `analyse` and by
//! `virus-wars analyse --table`.

use std::fmt::Write as _;
use std::path::Path;

use virus_wars_ai::review::{judge_spec, review, Review};
use virus_wars_rules::notation::format_turn;
use virus_wars_rules::{record, Game};

/// The game in the record at `path`.
pub fn read_game(path: &Path) -> Result<Game, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Ok(record::read_bytes(&bytes)
        .map_err(|e| format!("{}: {e}", path.display()))?
        .game)
}

/// `game` reviewed by the engine as the server reviews it (level 9's
/// search on one thread, 0.3 s a position).
pub fn judge(game: &Game) -> Result<Review, String> {
    if game.turns().is_empty() {
        return Err("the game has no turn to review".into());
    }
    let (mut player, budget) = judge_spec().build();
    Ok(review(game, &mut *player, &budget))
}

/// The judgement's mark, as chess annotates a move.
fn mark(r: &virus_wars_ai::review::TurnReview) -> &'static str {
    use virus_wars_ai::review::Judgement::*;
    match r.judgement {
        Some(Inaccuracy) => "?!",
        Some(Mistake) => "?",
        Some(Blunder) => "??",
        None => "",
    }
}

/// X's chance after each turn as a line of blocks, low ▁ to high █.
pub fn sparkline(r: &Review) -> String {
    const BLOCKS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
    r.turns
        .iter()
        .map(|t| BLOCKS[((t.x_win_after * 8.0) as usize).min(7)])
        .collect()
}

/// The review as a table (every turn, or with `all` false only the judged
/// ones), then the sparkline and the accuracy.
pub fn table(r: &Review, all: bool) -> String {
    let percent = |x: f64| format!("{:>3.0} %", x * 100.0);
    let mut out =
        String::from("turn side  played            X before → after  judgement       better\n");
    for t in r.turns.iter().filter(|t| all || t.judgement.is_some()) {
        let judgement = t
            .judgement
            .map_or(String::new(), |j| format!("{} {}", j.name(), mark(t)));
        let better = if t.best == t.steps {
            "=".to_string()
        } else {
            format_turn(&t.best)
        };
        let _ = writeln!(
            out,
            "{:>4} {:<4}  {:<16}  {}  → {}  {:<14}  {}",
            t.turn,
            t.side.to_string(),
            format_turn(&t.steps),
            percent(t.x_win_before),
            percent(t.x_win_after),
            judgement,
            better
        );
    }
    let _ = writeln!(out, "X's chance, turn by turn: {}", sparkline(r));
    let _ = writeln!(
        out,
        "accuracy: X {:.1} %, O {:.1} % (better '=': the engine would have played the same)",
        r.accuracy[0], r.accuracy[1]
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use virus_wars_ai::review::{Judgement, TurnReview};
    use virus_wars_rules::notation::parse_steps;
    use virus_wars_rules::Side;

    #[test]
    fn the_table_and_the_sparkline_show_each_turn() {
        let turn = |n: u32, side, before, after, judgement, played: &str, best: &str| TurnReview {
            turn: n,
            side,
            steps: parse_steps(played).unwrap(),
            x_win_before: before,
            x_win_after: after,
            best: parse_steps(best).unwrap(),
            judgement,
        };
        let r = Review {
            turns: vec![
                turn(1, Side::X, 0.5, 0.55, None, "a1-b2-c3", "a1-b2-c3"),
                turn(
                    2,
                    Side::O,
                    0.55,
                    0.9,
                    Some(Judgement::Blunder),
                    "e5-d4-d5",
                    "e5-d4-c3",
                ),
                turn(3, Side::X, 0.9, 0.0, Some(Judgement::Blunder), "b3", "c4"),
            ],
            accuracy: [50.0, 20.0],
        };
        assert_eq!(sparkline(&r), "▅█▁");
        assert_eq!(
            table(&r, false).lines().count(),
            5,
            "the judged turns alone"
        );
        let text = table(&r, true);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 6, "{text}");
        assert!(
            lines[1].contains("a1-b2-c3") && lines[1].trim_end().ends_with('='),
            "{text}"
        );
        assert!(
            lines[2].contains("blunder ??") && lines[2].ends_with("e5-d4-c3"),
            "{text}"
        );
        assert!(lines[2].contains(" 55 %  →  90 %"), "{text}");
        assert!(
            lines[5].starts_with("accuracy: X 50.0 %, O 20.0 %"),
            "{text}"
        );
    }
}
