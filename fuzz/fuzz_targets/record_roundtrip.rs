//! Any text either is rejected with a located error, or is a record that
//! writes and reads back to the same record.
#![no_main]

use libfuzzer_sys::fuzz_target;
use virus_wars_rules::record::read;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match read(text) {
        Ok(r) => {
            let written = r.write();
            let back = read(&written).expect("a written record reads back");
            assert_eq!(back, r);
        }
        Err(e) => assert!(e.line >= 1 && e.column >= 1),
    }
});
