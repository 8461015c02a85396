//! `virus-wars backup` while the server plays, and `restore` into a new
//! folder: every step acknowledged before the backup began is in it, and
//! the restored server plays on. Refusals say what was wrong.

use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use super::serve::{call, serve, step_at};

fn folder(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("vw-backup-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn cli(args: &[&std::ffi::OsStr]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_virus-wars"))
        .args(args)
        .output()
        .unwrap()
}

/// `virus-wars backup --data DATA --to TO`: whether it did, and its stderr.
fn backup(data: &std::path::Path, to: &std::path::Path) -> (bool, String) {
    let out = cli(&[
        "backup".as_ref(),
        "--data".as_ref(),
        data.as_os_str(),
        "--to".as_ref(),
        to.as_os_str(),
    ]);
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

/// `virus-wars restore --from FROM --data DATA`: whether it did, and its stderr.
fn restore(from: &std::path::Path, data: &std::path::Path) -> (bool, String) {
    let out = cli(&[
        "restore".as_ref(),
        "--from".as_ref(),
        from.as_os_str(),
        "--data".as_ref(),
        data.as_os_str(),
    ]);
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

/// A step acknowledged: the game, its seq after the step, and when.
type Acked = (String, u64, Instant);

#[test]
fn a_backup_taken_while_games_are_played_restores_every_acknowledged_step() {
    let root = folder("live");
    let (data, restored, file) = (
        root.join("data"),
        root.join("restored"),
        root.join("vw.backup"),
    );
    let server = Arc::new(serve(&data));
    let acked: Arc<Mutex<Vec<Acked>>> = Arc::default();
    let stop = Arc::new(AtomicBool::new(false));
    // Two players' games, step after step, until told to stop.
    let players: Vec<_> = (0..2)
        .map(|_| {
            let (server, acked, stop) = (server.clone(), acked.clone(), stop.clone());
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let (_, made) = call(
                        &server,
                        "POST",
                        "/api/games",
                        None,
                        r#"{"size":"5x5","side":"x"}"#,
                    );
                    let id = made["id"].as_str().unwrap().to_string();
                    let x = made["token"].as_str().unwrap().to_string();
                    let (_, joined) =
                        call(&server, "POST", &format!("/api/games/{id}/join"), None, "");
                    let o = joined["token"].as_str().unwrap().to_string();
                    let (_, mut state) =
                        call(&server, "GET", &format!("/api/games/{id}"), None, "");
                    while state["to_move"].is_string() && !stop.load(Ordering::Relaxed) {
                        let token = if state["to_move"] == "x" { &x } else { &o };
                        let step = state["legal"][0].clone();
                        let (status, next) = step_at(&server, &id, token, &state["seq"], step);
                        assert_eq!(status, 200, "{next}");
                        let seq = next["seq"].as_u64().unwrap();
                        acked
                            .lock()
                            .unwrap()
                            .push((id.clone(), seq, Instant::now()));
                        state = next;
                    }
                }
            })
        })
        .collect();
    while acked.lock().unwrap().len() < 40 {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let began = Instant::now();
    let (ok, said) = backup(&data, &file);
    assert!(ok, "{said}");
    // The games went on during the backup.
    let during = acked.lock().unwrap().iter().filter(|a| a.2 > began).count();
    stop.store(true, Ordering::Relaxed);
    for p in players {
        p.join().unwrap();
    }
    let before: Vec<Acked> = acked
        .lock()
        .unwrap()
        .iter()
        .filter(|a| a.2 < began)
        .cloned()
        .collect();
    assert!(before.len() >= 40);
    let (ok, said) = restore(&file, &restored);
    assert!(ok, "{said}");
    let again = serve(&restored);
    let mut newest = std::collections::HashMap::new();
    for (id, seq, _) in &before {
        let e = newest.entry(id.clone()).or_insert(0);
        *e = (*e).max(*seq);
    }
    for (id, seq) in &newest {
        let (status, state) = call(&again, "GET", &format!("/api/games/{id}"), None, "");
        assert_eq!(status, 200, "{id}: {state}");
        assert!(
            state["seq"].as_u64().unwrap() >= *seq,
            "{id} had {seq} acknowledged: {state}"
        );
    }
    // The restored server plays on.
    let (status, made) = call(
        &again,
        "POST",
        "/api/games",
        None,
        r#"{"size":"5x5","side":"x"}"#,
    );
    assert_eq!(status, 201, "{made}");
    let id = made["id"].as_str().unwrap();
    let token = made["token"].as_str().unwrap();
    call(&again, "POST", &format!("/api/games/{id}/join"), None, "");
    let body = r#"{"seq":0,"steps":["a1"]}"#;
    let (status, v) = call(
        &again,
        "POST",
        &format!("/api/games/{id}/steps"),
        Some(token),
        body,
    );
    assert_eq!(status, 200, "{v}");
    eprintln!(
        "{} steps acknowledged before the backup, {during} during it",
        before.len()
    );
}

#[test]
fn backups_and_restores_refuse_to_write_over_anything() {
    let root = folder("refused");
    let (data, file) = (root.join("data"), root.join("vw.backup"));
    drop(serve(&data));
    let run = |args: &[&std::ffi::OsStr]| {
        let out = cli(args);
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    let backup = [
        "backup".as_ref(),
        "--data".as_ref(),
        data.as_os_str(),
        "--to".as_ref(),
        file.as_os_str(),
    ];
    assert!(run(&backup).0);
    let (ok, said) = run(&backup);
    assert!(!ok && said.contains("is there already"), "{said}");
    let (ok, said) = run(&[
        "restore".as_ref(),
        "--from".as_ref(),
        file.as_os_str(),
        "--data".as_ref(),
        data.as_os_str(),
    ]);
    assert!(!ok && said.contains("has a database already"), "{said}");
    let junk = root.join("junk");
    std::fs::write(&junk, "not a database at all, just words").unwrap();
    let (ok, said) = run(&[
        "restore".as_ref(),
        "--from".as_ref(),
        junk.as_os_str(),
        "--data".as_ref(),
        root.join("new").as_os_str(),
    ]);
    assert!(
        !ok && said.contains("is no backup of this server"),
        "{said}"
    );
    assert!(
        !root.join("new/virus-wars.sqlite").exists(),
        "nothing left behind"
    );
    let (ok, said) = run(&[
        "backup".as_ref(),
        "--data".as_ref(),
        root.join("none").as_os_str(),
        "--to".as_ref(),
        root.join("x").as_os_str(),
    ]);
    assert!(!ok && said.contains("there is no database"), "{said}");
}

#[test]
fn a_restore_takes_only_a_whole_backup_of_this_server_and_one_at_a_time() {
    let root = folder("only");
    let data = root.join("data");
    let live = serve(&data);
    let (one, two) = (root.join("one.backup"), root.join("two.backup"));
    for file in [&one, &two] {
        let out = cli(&[
            "backup".as_ref(),
            "--data".as_ref(),
            data.as_os_str(),
            "--to".as_ref(),
            file.as_os_str(),
        ]);
        assert!(out.status.success());
    }
    let restore = |from: &std::path::Path, into: &std::path::Path| {
        let out = cli(&[
            "restore".as_ref(),
            "--from".as_ref(),
            from.as_os_str(),
            "--data".as_ref(),
            into.as_os_str(),
        ]);
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    // The running server's own file: its newest commits are in the -wal.
    let (ok, said) = restore(&data.join("virus-wars.sqlite"), &root.join("copy"));
    assert!(!ok && said.contains("a database in use"), "{said}");
    // Through a link to it, or under another name of the same file: in use
    // all the same (the link had no -wal beside it, and its restore lost
    // the newest commits).
    let soft = root.join("live-link.sqlite");
    std::os::unix::fs::symlink(data.join("virus-wars.sqlite"), &soft).unwrap();
    let (ok, said) = restore(&soft, &root.join("copy-soft"));
    assert!(!ok && said.contains("a database in use"), "{said}");
    let hard = root.join("live-hard.sqlite");
    std::fs::hard_link(data.join("virus-wars.sqlite"), &hard).unwrap();
    let (ok, said) = restore(&hard, &root.join("copy-hard"));
    assert!(!ok && said.contains("other names"), "{said}");
    std::fs::remove_file(&hard).unwrap();
    drop(live);
    // A live server's WAL just emptied (0 bytes), or its -shm alone: in
    // use all the same.
    for end in ["wal", "shm", "journal"] {
        let beside = std::path::PathBuf::from(format!("{}-{end}", one.display()));
        std::fs::write(&beside, b"").unwrap();
        let (ok, said) = restore(&one, &root.join(format!("beside-{end}")));
        assert!(!ok && said.contains("a database in use"), "{end}: {said}");
        std::fs::remove_file(&beside).unwrap();
    }
    // Another program's database, even with a migrations table.
    let foreign = root.join("foreign.sqlite");
    tokio::runtime::Runtime::new().unwrap().block_on(async {
        use sqlx::Connection;
        let url = format!("sqlite://{}?mode=rwc", foreign.display());
        let mut c = sqlx::SqliteConnection::connect(&url).await.unwrap();
        sqlx::query("CREATE TABLE _sqlx_migrations (version INTEGER)")
            .execute(&mut c)
            .await
            .unwrap();
        sqlx::query("INSERT INTO _sqlx_migrations VALUES (1)")
            .execute(&mut c)
            .await
            .unwrap();
        c.close().await.unwrap();
    });
    let (ok, said) = restore(&foreign, &root.join("foreign-into"));
    assert!(!ok && said.contains("no games or steps tables"), "{said}");
    // Two restores into one folder at once: one wins, whole; the other is
    // refused; nothing half-written is left.
    for round in 0..5 {
        let into = root.join(format!("race{round}"));
        let (a, b) = std::thread::scope(|s| {
            let a = s.spawn(|| restore(&one, &into));
            let b = s.spawn(|| restore(&two, &into));
            (a.join().unwrap(), b.join().unwrap())
        });
        assert!(a.0 ^ b.0, "one restore wins: {a:?} {b:?}");
        let winner = if a.0 { &one } else { &two };
        assert_eq!(
            std::fs::read(into.join("virus-wars.sqlite")).unwrap(),
            std::fs::read(winner).unwrap(),
            "the winner's backup, whole"
        );
        let left: Vec<_> = std::fs::read_dir(&into)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(left.len(), 1, "{left:?}");
    }
}
