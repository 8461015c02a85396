//! Any bytes sent to the engine protocol: the session never panics, reads
//! to the end, and every line it writes is one of the documented answers
//! (docs/engine-protocol.md). Searches are capped at a few milliseconds.
#![no_main]

use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use libfuzzer_sys::fuzz_target;
use virus_wars_engine::{run, Limits};

#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

const ANSWERS: [&str; 9] = [
    "id ", "option ", "vweok", "readyok", "info ", "bestturn ", "legal ", "error ", "error",
];

fuzz_target!(|data: &[u8]| {
    let out = Shared::default();
    let limits = Limits {
        search_time: Some(Duration::from_millis(3)),
        hash_mb: 8,
        threads: 1,
    };
    run(data, Box::new(out.clone()), limits).expect("reading a slice cannot fail");
    let text = String::from_utf8(out.0.lock().unwrap().clone()).expect("answers are UTF-8");
    for line in text.lines() {
        assert!(
            ANSWERS.iter().any(|a| line.starts_with(a)),
            "undocumented answer {line:?}"
        );
    }
});
