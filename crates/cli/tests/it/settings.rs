//! `serve`'s settings from a file and the environment: a flag wins over
//! a `VW_` variable, which wins over the file; a file that does not read
//! is refused at start with its line and key.

use std::process::Command;

use super::serve::{call, started};

const PASSWORD: &str = "violet tram under paper";

/// A fresh folder for one test.
fn folder(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("vw-settings-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// How many sign-ups from this address the server takes before a 429.
fn sign_ups_taken(s: &super::serve::Served, prefix: &str) -> usize {
    for k in 0..6 {
        let body = format!(r#"{{"name":"{prefix}{k}","password":"{PASSWORD}"}}"#);
        let (status, answer) = call(s, "POST", "/api/accounts", None, &body);
        match status {
            201 => continue,
            429 => return k,
            _ => panic!("{status} {answer}"),
        }
    }
    6
}

fn serve(dir: &std::path::Path, env: &[(&str, &str)], flags: &[&str]) -> super::serve::Served {
    let mut command = Command::new(env!("CARGO_BIN_EXE_virus-wars"));
    command
        .current_dir(dir)
        .env_remove("VW_SIGNUPS_PER_HOUR")
        .args(["serve", "--config", "virus-wars.toml"])
        .args(flags)
        .envs(env.iter().copied());
    started(command)
}

#[test]
fn flags_win_over_the_environment_which_wins_over_the_file() {
    let dir = folder("order");
    std::fs::write(
        dir.join("virus-wars.toml"),
        "# a club's server\naddr = \"127.0.0.1:0\"\ndata = \"club\"\nsignups-per-hour = 1\n",
    )
    .unwrap();
    let file = serve(&dir, &[], &[]);
    assert_eq!(sign_ups_taken(&file, "f"), 1, "the file's limit");
    assert!(
        dir.join("club/virus-wars.sqlite").exists(),
        "the file's data folder"
    );
    drop(file);
    let env = serve(&dir, &[("VW_SIGNUPS_PER_HOUR", "2")], &["--data", "env"]);
    assert_eq!(
        sign_ups_taken(&env, "e"),
        2,
        "the environment over the file"
    );
    drop(env);
    let flag = serve(
        &dir,
        &[("VW_SIGNUPS_PER_HOUR", "2")],
        &["--data", "flag", "--signups-per-hour", "3"],
    );
    assert_eq!(sign_ups_taken(&flag, "g"), 3, "the flag over both");
}

#[test]
fn a_settings_file_that_does_not_read_is_refused_with_its_line_and_key() {
    let dir = folder("refused");
    for (text, said) in [
        (
            "addr = \"127.0.0.1:0\"\n\nsignup-per-hour = 5\n",
            "virus-wars.toml line 3: signup-per-hour is no setting of serve",
        ),
        (
            "signups-per-hour = \"lots\"\n",
            "virus-wars.toml line 1: signups-per-hour: invalid value 'lots'",
        ),
        (
            "trust-proxy = [\"127.0.0.1\", \"a proxy\"]\n",
            "'a proxy' is neither an address nor a network",
        ),
        // A negative number is the value refused, not read as a flag.
        (
            "signups-per-hour = -1\n",
            "virus-wars.toml line 1: signups-per-hour: invalid value '-1'",
        ),
        // A URL with a line break in it is no URL.
        (
            "public-url = \"https://x\\n--no-rate-limits\"\n",
            "virus-wars.toml line 1: public-url: invalid value",
        ),
        ("no-rate-limits = 1\n", "no-rate-limits is true or false"),
        ("[addr]\nport = 1\n", "addr must be a value, not a table"),
        ("addr = \n", "is not TOML"),
    ] {
        std::fs::write(dir.join("virus-wars.toml"), text).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_virus-wars"))
            .current_dir(&dir)
            .args(["serve", "--config", "virus-wars.toml"])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{text:?}: {stderr}");
        assert!(stderr.contains(said), "{text:?}: {stderr}");
    }
}

/// A bad value from the environment is named by its variable (the operator
/// set that, not the flag); the same value on the command line by its flag.
#[test]
fn a_bad_value_from_the_environment_is_named_by_its_variable() {
    let dir = folder("bad-env");
    let run = |flags: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_virus-wars"))
            .current_dir(&dir)
            .env("VW_SIGNUPS_PER_HOUR", "lots")
            .arg("serve")
            .args(flags)
            .output()
            .unwrap()
    };
    let out = run(&[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("VW_SIGNUPS_PER_HOUR=lots (the environment): invalid value 'lots'"),
        "{stderr}"
    );
    // Given on the command line too, the flag wins and is the one named.
    let out = run(&["--signups-per-hour", "many"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("invalid value 'many'"), "{stderr}");
    assert!(!stderr.contains("VW_SIGNUPS_PER_HOUR"), "{stderr}");
}

#[test]
fn rust_log_chooses_the_lines_and_json_lines_carry_a_request_id() {
    use std::io::BufRead;
    let dir = folder("logs");
    std::fs::write(dir.join("virus-wars.toml"), "addr = \"127.0.0.1:0\"\n").unwrap();
    let log = std::fs::File::create(dir.join("log")).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_virus-wars"))
        .current_dir(&dir)
        .args([
            "serve",
            "--config",
            "virus-wars.toml",
            "--log-format",
            "json",
        ])
        .env("RUST_LOG", "info,tower_http=debug")
        .stdout(std::process::Stdio::piped())
        .stderr(log)
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .trim()
        .strip_prefix("listening on http://")
        .unwrap()
        .to_string();
    let mut c = std::net::TcpStream::connect(&addr).unwrap();
    std::io::Write::write_all(
        &mut c,
        b"GET /healthz HTTP/1.1\r\nhost: t\r\nconnection: close\r\n\r\n",
    )
    .unwrap();
    let mut answer = String::new();
    std::io::Read::read_to_string(&mut c, &mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    // The request's lines are written as it ends: wait for them.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    let lines = loop {
        let text = std::fs::read_to_string(dir.join("log")).unwrap();
        if text.contains("finished processing request") || std::time::Instant::now() > deadline {
            break text;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let _ = child.kill();
    let _ = child.wait();
    let mut of_the_request = 0;
    for l in lines.lines() {
        let v: serde_json::Value = serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"));
        if v["span"]["path"] == "/healthz" {
            let id = v["span"]["id"].as_str().unwrap_or_default();
            assert_eq!(id.len(), 12, "{l}");
            assert_eq!(v["span"]["client"], "127.0.0.1", "{l}");
            of_the_request += 1;
        }
    }
    assert!(
        of_the_request >= 2,
        "tower_http's debug lines, by RUST_LOG: {lines}"
    );
}

/// What is wrong with a setting is said, and what to do, without clap's
/// usage lines: a switch from the environment, a port out of range.
#[test]
fn a_refused_setting_says_what_to_do() {
    let dir = folder("refusals");
    let run = |env: &[(&str, &str)], flags: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_virus-wars"))
            .current_dir(&dir)
            .arg("serve")
            .args(flags)
            .envs(env.iter().copied())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let said = run(&[("VW_NO_RATE_LIMITS", "yes")], &[]);
    assert!(
        said.contains("VW_NO_RATE_LIMITS=yes") && said.contains("true or false"),
        "{said}"
    );
    let said = run(&[], &["--addr", "127.0.0.1:99999"]);
    assert!(said.contains("port 99999 is out of range"), "{said}");
    for said in [said, run(&[], &["--metrics-addr", "localhost:9100"])] {
        assert!(!said.contains("Usage:"), "{said}");
        assert!(said.contains("virus-wars help serve"), "{said}");
    }
}

/// At start the server logs the settings in force (a database password
/// masked), warns of `VW_` variables no setting reads, and makes its data
/// folder and database its owner's alone whatever the umask.
#[test]
fn the_settings_in_force_are_logged_and_unknown_variables_warned() {
    use std::io::{BufRead, BufReader};
    use std::os::unix::fs::PermissionsExt;
    let dir = folder("in-force");
    let data = dir.join("data");
    let mut child = Command::new("sh")
        .current_dir(&dir)
        .args([
            "-c",
            &format!(
                "umask 022; exec {} serve --addr 127.0.0.1:0 --data data",
                env!("CARGO_BIN_EXE_virus-wars")
            ),
        ])
        .env("VW_SIGNUPS_PER_HOR", "3")
        .env("VW_SIGNUPS_PER_HOUR", "4")
        .env("RUST_LOG", "info")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert!(line.starts_with("listening on"), "{line}");
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&data), 0o700, "the data folder");
    for entry in std::fs::read_dir(&data).unwrap() {
        let path = entry.unwrap().path();
        assert_eq!(mode(&path), 0o600, "{}", path.display());
    }
    let _ = child.kill();
    let out = child.wait_with_output().unwrap();
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(log.contains("settings in force"), "{log}");
    assert!(log.contains("signups-per-hour=4 (environment)"), "{log}");
    assert!(log.contains("addr=127.0.0.1:0"), "{log}");
    assert!(
        log.contains(
            "VW_SIGNUPS_PER_HOR is no setting of serve: did you mean VW_SIGNUPS_PER_HOUR?"
        ),
        "{log}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
