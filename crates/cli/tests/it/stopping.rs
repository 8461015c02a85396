//! How `serve` starts and stops when the host is not kind: a SIGTERM the
//! moment it listens, and a database it cannot reach (said with its cause,
//! never waited on for ever).

use std::process::Command;

use super::serve::{a_dead_port, serve};

/// A SIGTERM sent the moment the server says it listens (as a service
/// manager may) stops it cleanly: the handlers are in place by then (it was
/// killed by the signal now and then).
#[test]
fn a_sigterm_as_soon_as_it_listens_is_a_clean_stop() {
    let data = std::env::temp_dir().join(format!("vw-cli-term-{}", std::process::id()));
    for round in 0..8 {
        let mut served = serve(&data);
        let pid = served.child.id().to_string();
        let killed = Command::new("kill").args(["-TERM", &pid]).status().unwrap();
        assert!(killed.success());
        let status = served.child.wait().unwrap();
        assert!(status.success(), "round {round}: {status}");
    }
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn a_database_that_cannot_be_reached_is_said_with_its_cause() {
    // `serve` on `url`: it fails, and says why on stderr.
    let refused = |url: String| {
        let out = Command::new(env!("CARGO_BIN_EXE_virus-wars"))
            .args(["serve", "--addr", "127.0.0.1:0", "--database-url", &url])
            .output()
            .expect("serve runs");
        let stderr = String::from_utf8_lossy(&out.stderr).to_string();
        assert!(!out.status.success(), "{stderr}");
        stderr
    };
    let stderr = refused(format!("postgres://vw@127.0.0.1:{}/x", a_dead_port()));
    // Not the pool's "timed out" after 30 s: why it could not connect.
    assert!(
        stderr.contains("cannot connect") && stderr.contains("refused"),
        "{stderr}"
    );
    assert!(!stderr.contains("timed out"), "{stderr}");
    // A port that takes the connection and never answers: said, not
    // waited on for ever.
    let hung = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let stderr = refused(format!("postgres://vw@{}/x", hung.local_addr().unwrap()));
    assert!(
        stderr.contains("cannot connect: no answer within 10 s"),
        "{stderr}"
    );
    drop(hung);
}
