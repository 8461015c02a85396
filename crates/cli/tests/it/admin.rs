//! `virus-wars admin` on a running server's database: a ban holds at once,
//! every action is recorded with who did it, and bad input says why.

use std::process::Command;

use super::serve::{call, serve};

const PASSWORD: &str = "violet tram under paper";

fn admin(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_virus-wars"))
        .arg("admin")
        .args(args)
        .output()
        .expect("admin runs")
}

#[test]
fn an_operator_bans_while_the_server_runs() {
    let data = std::env::temp_dir().join(format!("vw-admin-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    std::fs::create_dir_all(&data).unwrap();
    let served = serve(&data);
    let body = format!(r#"{{"name":"Ann","password":"{PASSWORD}"}}"#);
    assert_eq!(call(&served, "POST", "/api/accounts", None, &body).0, 201);
    let dir = data.to_str().unwrap();
    let out = admin(&["--data", dir, "--by", "alice", "ban", "ann"]);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{said} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(said.contains("Ann is banned"), "{said}");
    let (status, answer) = call(&served, "POST", "/api/session", None, &body);
    assert_eq!(
        (status, &answer["error"]["code"]),
        (403, &serde_json::json!("banned")),
        "{answer}"
    );
    let log = admin(&["log", "--data", dir]);
    let log = String::from_utf8_lossy(&log.stdout);
    assert!(log.contains("alice ban Ann"), "{log}");
    // Bad input says what was wrong.
    let out = admin(&["--data", dir, "mute", "Nobody"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no player named 'Nobody'"));
    let out = admin(&["--data", dir, "mute", "Ann", "--days=0"]);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("--days"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = admin(&["reports"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("--data DIR or --database-url URL"));
    let out = admin(&["--data", "/nonexistent-vw", "reports"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("no server database"));
    drop(served);
    let _ = std::fs::remove_dir_all(&data);
}

/// `admin` and `backup` read the settings `serve` reads: the database from
/// `--config`'s file or `VW_DATA`, so that no password need be on a
/// command line.
#[test]
fn admin_and_backup_read_the_settings_serve_reads() {
    let data = std::env::temp_dir().join(format!("vw-admin-settings-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    std::fs::create_dir_all(&data).unwrap();
    let served = serve(&data);
    let body = format!(r#"{{"name":"Bo","password":"{PASSWORD}"}}"#);
    assert_eq!(call(&served, "POST", "/api/accounts", None, &body).0, 201);
    let config = data.join("virus-wars.toml");
    // A settings file of serve's: keys admin does not use are no error.
    std::fs::write(
        &config,
        format!(
            "data = {:?}\nsignups-per-hour = 5\naddr = \"127.0.0.1:0\"\n",
            data.display()
        ),
    )
    .unwrap();
    let out = admin(&[
        "--config",
        config.to_str().unwrap(),
        "--by",
        "op",
        "mute",
        "bo",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("Bo is muted"));
    let out = Command::new(env!("CARGO_BIN_EXE_virus-wars"))
        .args(["admin", "log"])
        .env("VW_DATA", &data)
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("op mute Bo"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // A key that is no setting of serve is refused, with its line.
    std::fs::write(&config, "dat = \"x\"\n").unwrap();
    let out = admin(&["--config", config.to_str().unwrap(), "log"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("line 1: dat is no setting of serve"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // backup reads VW_DATA too, and writes its copy 0600.
    let to = data.join("copy.sqlite");
    let out = Command::new(env!("CARGO_BIN_EXE_virus-wars"))
        .args(["backup", "--to", to.to_str().unwrap()])
        .env("VW_DATA", &data)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&to).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "the backup is its owner's alone");
    drop(served);
    let _ = std::fs::remove_dir_all(&data);
}
