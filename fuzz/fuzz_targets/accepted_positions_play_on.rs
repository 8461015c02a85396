//! A position string the reader accepts is a position play can go on from:
//! the first line is the position, the other bytes choose steps. Every step
//! generated is legal, never panics, and every position reached is itself
//! accepted and reads back equal (the consistency rules agree with play).
#![no_main]

use libfuzzer_sys::fuzz_target;
use virus_wars_rules::position_string::{read, write};

fuzz_target!(|data: &[u8]| {
    let split = data.iter().position(|&b| b == b'\n').unwrap_or(data.len());
    let Ok(text) = std::str::from_utf8(&data[..split]) else { return };
    let Ok(mut p) = read(text) else { return };
    for &choice in data.get(split + 1..).unwrap_or(&[]) {
        let legal = p.legal_steps();
        if legal.is_empty() {
            assert!(p.outcome().is_some(), "no legal step but not over: {}", write(&p));
            break;
        }
        p.play(legal[choice as usize % legal.len()])
            .expect("generated steps are legal");
        let again = read(&write(&p)).expect("a position reached by play is accepted");
        assert_eq!(again, p);
    }
});
