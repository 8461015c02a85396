//! Drives the real binary as a child process, a line at a time.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

/// The child is killed when this is dropped, so a failing test never
/// leaves a program running.
pub struct Driven {
    pub child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
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
            lines,
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

    /// Lines that arrive within `wait` (for checking that nothing came).
    #[allow(dead_code)]
    pub fn within(&mut self, wait: Duration) -> Vec<String> {
        let deadline = Instant::now() + wait;
        let mut seen = Vec::new();
        while let Ok(line) = self
            .lines
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            seen.push(line);
        }
        seen
    }

    /// Closes stdin: the end of input.
    #[allow(dead_code)]
    pub fn close(&mut self) {
        self.stdin = None;
    }

    /// Lines up to and including the first that starts with `prefix`.
    pub fn until(&mut self, prefix: &str) -> Vec<String> {
        self.until_either(&[prefix])
    }

    /// Lines up to and including the first that starts with any of `prefixes`.
    /// Gives up after 60 s in all, even while other lines keep coming.
    pub fn until_either(&mut self, prefixes: &[&str]) -> Vec<String> {
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self
                .lines
                .recv_timeout(left.min(Duration::from_secs(20)))
                .unwrap_or_else(|_| panic!("none of {prefixes:?}; got {seen:?}"));
            let done = prefixes.iter().any(|p| line.starts_with(p));
            seen.push(line);
            if done {
                return seen;
            }
        }
    }

    pub fn last(&mut self, prefix: &str) -> String {
        self.until(prefix).pop().unwrap()
    }

    /// Every line still to come, once the program ends.
    #[allow(dead_code)]
    pub fn rest(&mut self) -> Vec<String> {
        let mut seen = Vec::new();
        while let Ok(line) = self.lines.recv_timeout(Duration::from_secs(20)) {
            seen.push(line);
        }
        seen
    }

    #[allow(dead_code)]
    pub fn wait(&mut self) -> ExitStatus {
        self.close();
        self.child.wait().expect("the program ends")
    }
}

impl Drop for Driven {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
