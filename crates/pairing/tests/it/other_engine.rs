//! The independent Dutch engine (`scripts/swiss-check.py`: caissify-
//! pairings, itself checked against the FIDE-endorsed bbpPairings), as
//! the checks of this crate and the server's run it.

use std::process::Command;

use serde_json::Value;

/// The other engine's Python, which scripts/test installs (CI never goes
/// without it).
pub fn other_engine() -> Option<std::ffi::OsString> {
    let python = std::env::var_os("VW_SWISS_PYTHON");
    if python.is_none() {
        assert_ne!(
            std::env::var("CI").as_deref(),
            Ok("true"),
            "VW_SWISS_PYTHON is not set"
        );
        eprintln!("SKIPPED: no VW_SWISS_PYTHON (scripts/test sets it)");
    }
    python
}

/// `scripts/swiss-check.py` on the `.trf` files of `dir`: its summary
/// (the last line) and all it printed.
pub fn check(python: &std::ffi::OsStr, dir: &std::path::Path, show: bool) -> (Value, String) {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scripts/swiss-check.py");
    let mut command = Command::new(python);
    command.arg(script).arg(dir);
    if show {
        command.arg("--show");
    }
    let out = command.output().expect("python3 runs");
    let report = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{report}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary = serde_json::from_str(report.lines().last().unwrap_or("{}")).expect(&report);
    (summary, report)
}
