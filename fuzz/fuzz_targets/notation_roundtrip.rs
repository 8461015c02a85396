//! Any text either fails to parse as steps with an error, or parses to steps
//! whose written form parses back to the same steps.
#![no_main]

use libfuzzer_sys::fuzz_target;
use virus_wars_rules::notation::{format_turn, parse_steps};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(steps) = parse_steps(text) {
        let written = format_turn(&steps);
        assert_eq!(parse_steps(&written).expect("written steps parse"), steps);
    }
});
