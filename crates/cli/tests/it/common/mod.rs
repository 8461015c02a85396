//! Drives the real binary as a child process, a line at a time.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Output, Stdio};
use std::sync::mpsc::channel;

#[path = "../../../../engine/tests/it/lines.rs"]
mod lines;
pub use lines::Lines;

/// Runs `virus-wars ARGS` to its end.
pub fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_virus-wars"))
        .args(args)
        .output()
        .expect("the binary runs")
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Runs `virus-wars ARGS`, which must fail, and gives what it said.
pub fn refusal(args: &[&str]) -> String {
    let out = run(args);
    assert!(!out.status.success(), "{args:?} was not refused");
    stderr(&out)
}

/// The child is killed when this is dropped, so a failing test never
/// leaves a program running.
pub struct Driven {
    pub child: Child,
    stdin: Option<ChildStdin>,
    lines: Lines,
}

impl Driven {
    /// Starts `virus-wars ARGS` with piped stdin and stdout.
    pub fn start(args: &[&str]) -> Driven {
        let mut child = Command::new(env!("CARGO_BIN_EXE_virus-wars"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the binary starts");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("piped");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Driven {
            child,
            stdin,
            lines: Lines(lines),
        }
    }

    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    /// Sends raw bytes (which need not be UTF-8 or end a line).
    #[allow(dead_code)]
    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    /// Closes stdin: the end of input.
    #[allow(dead_code)]
    pub fn close(&mut self) {
        self.stdin = None;
    }

    #[allow(dead_code)]
    pub fn wait(&mut self) -> ExitStatus {
        self.close();
        self.child.wait().expect("the program ends")
    }
}

/// The lines the program writes, read as `Lines` reads them.
impl std::ops::Deref for Driven {
    type Target = Lines;

    fn deref(&self) -> &Lines {
        &self.lines
    }
}

impl Drop for Driven {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
