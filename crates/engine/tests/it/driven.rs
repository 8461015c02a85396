//! An engine session run in process, on its own thread, driven line by line
//! as a bot's controller drives `virus-wars engine` over its stdin and stdout.

use std::io::{self, BufReader, Read, Write};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::thread::JoinHandle;

use crate::lines::Lines;

use virus_wars_engine::{run, Limits};

/// The session's input: bytes sent through a channel; its end when the
/// sender is dropped.
struct Input {
    bytes: Receiver<Vec<u8>>,
    chunk: Vec<u8>,
    at: usize,
}

impl Read for Input {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.at == self.chunk.len() {
            match self.bytes.recv() {
                Ok(chunk) => (self.chunk, self.at) = (chunk, 0),
                Err(_) => return Ok(0),
            }
        }
        let n = buf.len().min(self.chunk.len() - self.at);
        buf[..n].copy_from_slice(&self.chunk[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// The session's output, handed over a line at a time.
struct Output {
    lines: Sender<String>,
    partial: Vec<u8>,
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.partial.extend_from_slice(buf);
        while let Some(end) = self.partial.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.partial.drain(..=end).collect();
            let text = String::from_utf8_lossy(&line[..end])
                .trim_end_matches('\r')
                .to_string();
            // A test that stopped listening is no error of the engine's.
            let _ = self.lines.send(text);
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

pub struct Engine {
    input: Option<Sender<Vec<u8>>>,
    lines: Lines,
    session: Option<JoinHandle<io::Result<()>>>,
}

impl Engine {
    /// A session with the binary's limits (`args` as the binary is given
    /// them: `engine` alone).
    pub fn start(args: &[&str]) -> Engine {
        assert_eq!(args, ["engine"], "the engine command takes no options");
        let (input, bytes) = channel();
        let (out, lines) = channel();
        let reader = BufReader::new(Input {
            bytes,
            chunk: Vec::new(),
            at: 0,
        });
        let writer = Output {
            lines: out,
            partial: Vec::new(),
        };
        let session = std::thread::spawn(move || run(reader, Box::new(writer), Limits::default()));
        Engine {
            input: Some(input),
            lines: Lines(lines),
            session: Some(session),
        }
    }

    pub fn send(&mut self, line: &str) {
        self.send_raw(format!("{line}\n").as_bytes());
    }

    /// Sends raw bytes (which need not be UTF-8 or end a line).
    pub fn send_raw(&mut self, bytes: &[u8]) {
        let input = self.input.as_ref().expect("the input is open");
        input.send(bytes.to_vec()).expect("the session reads");
    }

    /// Ends the input and waits for the session to end: how it ended.
    pub fn wait(&mut self) -> io::Result<()> {
        self.input = None;
        let session = self.session.take().expect("the session runs");
        session.join().expect("the session does not panic")
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        // The end of input ends a session that is still reading; one that
        // is searching ends with its search (a test that failed mid-way).
        self.input = None;
    }
}

/// The lines the session writes, read as `Lines` reads them.
impl std::ops::Deref for Engine {
    type Target = Lines;

    fn deref(&self) -> &Lines {
        &self.lines
    }
}
