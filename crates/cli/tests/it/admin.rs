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
