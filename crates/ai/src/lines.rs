//! Input lines for line protocols (the engine protocol, plain-mode play,
//! the arena reading a bot):
//! a line that is not UTF-8 or is too long is reported as such and reading
//! goes on; nothing in the input can stop the reader but its end or an I/O
//! error. Memory stays bounded by the line limit.

use std::io::{self, BufRead};

/// The longest line kept, in bytes (1 MiB); longer ones are skipped whole.
pub const MAX_LINE: usize = 1 << 20;

/// One line of input, without its line ending.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    Text(String),
    /// Not UTF-8: the first bad byte and its column (1-based, in characters).
    NotUtf8 {
        byte: u8,
        column: usize,
    },
    /// Longer than the limit; its bytes were read and dropped.
    TooLong {
        bytes: usize,
    },
}

impl Line {
    /// The text, or the error line to answer with.
    pub fn text(self) -> Result<String, String> {
        match self {
            Line::Text(t) => Ok(t),
            Line::NotUtf8 { byte, column } => Err(format!(
                "the line is not UTF-8 text (byte 0x{byte:02x} at column {column}); it was ignored"
            )),
            Line::TooLong { bytes } => Err(format!(
                "the line is {bytes} bytes long, over the limit of {MAX_LINE}; it was ignored"
            )),
        }
    }
}

/// Reads [`Line`]s from `input`, each at most `max` bytes.
pub struct Lines<R> {
    input: R,
    max: usize,
}

impl<R: BufRead> Lines<R> {
    pub fn new(input: R) -> Self {
        Self::with_limit(input, MAX_LINE)
    }

    pub fn with_limit(input: R, max: usize) -> Self {
        Lines { input, max }
    }

    /// The next line, `None` at the end of input.
    pub fn next_line(&mut self) -> io::Result<Option<Line>> {
        let mut kept: Vec<u8> = Vec::new();
        let mut total = 0usize;
        let mut any = false;
        loop {
            let buf = match self.input.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if buf.is_empty() {
                if !any {
                    return Ok(None);
                }
                break;
            }
            any = true;
            let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
                Some(k) => (&buf[..k], Some(k + 1)),
                None => (buf, None),
            };
            total = total.saturating_add(chunk.len());
            if kept.len() < self.max + 1 {
                let room = self.max + 1 - kept.len();
                kept.extend_from_slice(&chunk[..chunk.len().min(room)]);
            }
            let used = done.unwrap_or(buf.len());
            self.input.consume(used);
            if done.is_some() {
                break;
            }
        }
        if kept.last() == Some(&b'\r') && total <= self.max + 1 {
            kept.pop();
            total -= 1;
        }
        if total > self.max {
            return Ok(Some(Line::TooLong { bytes: total }));
        }
        Ok(Some(match String::from_utf8(kept) {
            Ok(t) => Line::Text(t),
            Err(e) => {
                let bytes = e.as_bytes();
                let at = e.utf8_error().valid_up_to();
                let column = String::from_utf8_lossy(&bytes[..at]).chars().count() + 1;
                Line::NotUtf8 {
                    byte: bytes[at],
                    column,
                }
            }
        }))
    }
}

impl<R: BufRead> Iterator for Lines<R> {
    type Item = io::Result<Line>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_line().transpose()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(input: &[u8], max: usize) -> Vec<Line> {
        Lines::with_limit(input, max).map(|l| l.unwrap()).collect()
    }

    #[test]
    fn bad_lines_are_reported_and_reading_goes_on() {
        let got = read(b"isready\r\n\xff\nab\xc3\nlong line here\nlast", 8);
        assert_eq!(
            got,
            vec![
                Line::Text("isready".into()),
                Line::NotUtf8 {
                    byte: 0xff,
                    column: 1
                },
                Line::NotUtf8 {
                    byte: 0xc3,
                    column: 3
                },
                Line::TooLong { bytes: 14 },
                Line::Text("last".into()),
            ]
        );
        assert_eq!(read(b"", 8), vec![]);
        assert_eq!(
            read(b"\n\n", 8),
            vec![Line::Text("".into()), Line::Text("".into())]
        );
        assert_eq!(read(b"12345678\n", 8), vec![Line::Text("12345678".into())]);
        assert_eq!(
            read(b"12345678\r\n", 8),
            vec![Line::Text("12345678".into())]
        );
        assert_eq!(
            Line::NotUtf8 {
                byte: 0xff,
                column: 4
            }
            .text()
            .unwrap_err(),
            "the line is not UTF-8 text (byte 0xff at column 4); it was ignored"
        );
    }

    #[test]
    fn a_huge_line_uses_bounded_memory() {
        let mut input = vec![b'a'; 5 << 20];
        input.extend_from_slice(b"\nok\n");
        let got = read(&input, MAX_LINE);
        assert_eq!(
            got,
            vec![Line::TooLong { bytes: 5 << 20 }, Line::Text("ok".into())]
        );
    }
}
