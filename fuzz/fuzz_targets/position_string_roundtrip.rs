//! Any text either is rejected with an error, or is a valid position whose
//! position string reads back to the same position and the same string.
#![no_main]

use libfuzzer_sys::fuzz_target;
use virus_wars_rules::position_string::{read, write};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(p) = read(text) {
        let written = write(&p);
        let back = read(&written).expect("a written position string reads back");
        assert_eq!(back, p);
        assert_eq!(write(&back), written);
        // Every generated step is playable from a parsed position.
        for step in p.legal_steps() {
            let mut q = p;
            q.play(step).expect("legal steps are legal");
        }
    }
});
