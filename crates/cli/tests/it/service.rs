//! The systemd units in contrib/: `systemd-analyze verify` finds nothing
//! to say about either (where systemd is installed; CI has it), and the
//! command each starts is one `serve` takes: it comes up on the unit's
//! settings and stops cleanly on the unit's stop signal.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::serve::started;

fn contrib(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../contrib")
        .join(name)
}

/// The unit's text with the installed binary's path replaced by this build.
fn with_this_binary(unit: &str) -> String {
    unit.replace(
        "/usr/local/bin/virus-wars",
        env!("CARGO_BIN_EXE_virus-wars"),
    )
}

fn folder(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("vw-unit-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `systemd-analyze verify` on `unit` (as file `name` in a folder of its
/// own): what it said, or None without systemd-analyze.
fn verify(name: &str, unit: &str, instance: &str) -> Option<String> {
    let dir = folder(&format!("verify-{}", name.replace('@', "-")));
    std::fs::write(dir.join(name), unit).unwrap();
    let out = match Command::new("systemd-analyze")
        .arg("verify")
        .arg(dir.join(instance))
        .output()
    {
        Ok(out) => out,
        Err(_) => {
            assert!(
                std::env::var("CI").map_or(true, |v| v != "true"),
                "CI checks the units: Debian's systemd has systemd-analyze"
            );
            eprintln!("SKIPPED: systemd-analyze verify (no systemd-analyze)");
            return None;
        }
    };
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    Some(if out.status.success() {
        said
    } else {
        format!("failed: {said}")
    })
}

#[test]
fn systemd_finds_nothing_to_say_about_the_units() {
    let single = std::fs::read_to_string(contrib("virus-wars.service")).unwrap();
    let Some(said) = verify(
        "virus-wars.service",
        &with_this_binary(&single),
        "virus-wars.service",
    ) else {
        return;
    };
    assert_eq!(said.trim(), "", "virus-wars.service");
    let template = std::fs::read_to_string(contrib("virus-wars@.service")).unwrap();
    let said = verify(
        "virus-wars@.service",
        &with_this_binary(&template),
        "virus-wars@8080.service",
    )
    .unwrap();
    assert_eq!(said.trim(), "", "virus-wars@.service");
    // The check reads the settings: a wrong one is reported.
    let wrong = single.replace("ProtectSystem=strict", "ProtectSystem=stricter");
    let said = verify(
        "virus-wars.service",
        &with_this_binary(&wrong),
        "virus-wars.service",
    )
    .unwrap();
    assert!(said.contains("stricter"), "{said}");
}

/// The words of the unit's `ExecStart=`, `%i` given.
fn exec_start(unit: &str, instance: &str) -> Vec<String> {
    unit.lines()
        .find_map(|l| l.strip_prefix("ExecStart="))
        .expect("an ExecStart line")
        .replace("%i", instance)
        .split_whitespace()
        .map(String::from)
        .collect()
}

#[test]
fn each_unit_starts_a_server_that_stops_cleanly_on_its_stop_signal() {
    let dir = folder("start");
    let settings = dir.join("virus-wars.toml");
    // docs/hosting.md's settings file, kept to what a first server needs.
    std::fs::write(&settings, "signups-per-hour = 5\n").unwrap();
    for (unit, instance) in [("virus-wars.service", ""), ("virus-wars@.service", "0")] {
        let text = std::fs::read_to_string(contrib(unit)).unwrap();
        assert!(text.contains("KillSignal=SIGTERM"), "{unit}");
        // The settings file may hold a database password: it stays root's
        // (mode 600), and the service reads systemd's copy of it.
        assert!(
            text.contains("\nLoadCredential=virus-wars.toml:/etc/virus-wars.toml\n")
                && text.contains("install -m 600 virus-wars.toml /etc/virus-wars.toml"),
            "{unit}"
        );
        let words = exec_start(&text, instance);
        assert_eq!(words[0], "/usr/local/bin/virus-wars", "{unit}");
        let mut command = Command::new(env!("CARGO_BIN_EXE_virus-wars"));
        for w in &words[1..] {
            match w.as_str() {
                // The settings, as systemd hands them over (LoadCredential).
                "%d/virus-wars.toml" => command.arg(&settings),
                "/var/lib/virus-wars" => command.arg(dir.join("state")),
                _ => command.arg(w),
            };
        }
        if !words.iter().any(|w| w == "--addr") {
            command.args(["--addr", "127.0.0.1:0"]);
        }
        if !words.iter().any(|w| w == "--data") {
            command.arg("--data").arg(dir.join("state"));
        }
        let mut served = started(command);
        let pid = served.child.id().to_string();
        let killed = Command::new("kill").args(["-TERM", &pid]).status().unwrap();
        assert!(killed.success());
        let status = served.child.wait().unwrap();
        assert!(status.success(), "{unit}: {status}");
    }
}
