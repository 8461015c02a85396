//! Standard output for the subcommands. `println!` panics when stdout is a
//! closed pipe (`| head -1`) or a full disk; these writes return the error
//! instead, so that a closed pipe ends the command quietly and a full disk
//! gives one line: `error: cannot write to standard output: …`.

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};

static CLOSED: AtomicBool = AtomicBool::new(false);

/// Whether a write found standard output closed (the reader went away).
pub fn stdout_closed() -> bool {
    CLOSED.load(Ordering::Relaxed)
}

fn explain(e: io::Error) -> io::Error {
    if e.kind() == io::ErrorKind::BrokenPipe {
        CLOSED.store(true, Ordering::Relaxed);
    }
    io::Error::new(e.kind(), format!("cannot write to standard output: {e}"))
}

/// Standard output whose errors say what failed.
pub struct Stdout;

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        io::stdout().lock().write(buf).map_err(explain)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        io::stdout().lock().write_all(buf).map_err(explain)
    }

    fn flush(&mut self) -> io::Result<()> {
        io::stdout().lock().flush().map_err(explain)
    }
}

/// `println!` that returns an `io::Result` instead of panicking.
#[macro_export]
macro_rules! outln {
    ($($arg:tt)*) => {
        std::io::Write::write_all(
            &mut $crate::output::Stdout,
            format!("{}\n", format_args!($($arg)*)).as_bytes(),
        )
    };
}

/// `print!` that returns an `io::Result` instead of panicking.
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => {
        std::io::Write::write_all(
            &mut $crate::output::Stdout,
            format!($($arg)*).as_bytes(),
        )
    };
}
