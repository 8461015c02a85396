//! Scale-out: two server processes on one PostgreSQL. A step sent to one
//! reaches the sockets on the other (LISTEN/NOTIFY), and a step the other
//! has not heard of yet is still refused as stale, never stored twice.

mod common;

use common::{connect, create, fresh_postgres, next, Server};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_on_one_postgres_share_every_change() {
    let Some(db) = fresh_postgres("scale").await else {
        return;
    };
    let a = Server::start(db.clone()).await;
    let b = Server::start(db).await;
    let (id, _, x) = create(&a, r#"{"size":"6x6","side":"x"}"#).await;
    // O joins through B; B's socket watches.
    let (status, joined) = b
        .call("POST", &format!("/api/games/{id}/join"), None, None)
        .await;
    assert_eq!(status, 200, "{joined}");
    let o = joined["token"].as_str().unwrap().to_string();
    let mut on_b = connect(&b, &id, None).await;
    assert_eq!(next(&mut on_b).await["seats_free"]["o"], false);
    // A learned of the join from B: its state has no free seat either.
    let mut on_a = connect(&a, &id, None).await;
    let mut seen = next(&mut on_a).await;
    if seen["seats_free"]["o"] == true {
        seen = next(&mut on_a).await;
    }
    assert_eq!(seen["seats_free"]["o"], false, "{seen}");
    // X plays on A: B's socket hears it.
    let body = json!({"seq": 0, "steps": ["a1", "b2", "c3"]}).to_string();
    let (status, _) = a
        .call(
            "POST",
            &format!("/api/games/{id}/steps"),
            Some(&x),
            Some(&body),
        )
        .await;
    assert_eq!(status, 200);
    let heard = next(&mut on_b).await;
    assert_eq!(
        (heard["seq"].as_u64(), heard["status"].as_str()),
        (Some(3), Some("O to move")),
        "{heard}"
    );
    // O plays on B; then the same steps again on A (where the news may not
    // have arrived yet): refused as stale, stored once.
    let body = json!({"seq": 3, "steps": ["f6"]}).to_string();
    let (status, v) = b
        .call(
            "POST",
            &format!("/api/games/{id}/steps"),
            Some(&o),
            Some(&body),
        )
        .await;
    assert_eq!(status, 200, "{v}");
    let (status, v) = a
        .call(
            "POST",
            &format!("/api/games/{id}/steps"),
            Some(&o),
            Some(&body),
        )
        .await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (409, Some("stale_seq")),
        "{v}"
    );
    for server in [&a, &b] {
        let (_, s) = server
            .call("GET", &format!("/api/games/{id}"), None, None)
            .await;
        assert_eq!(s["steps"], json!(["a1", "b2", "c3", "f6"]), "{s}");
    }
    let (_, record) = a
        .raw("GET", &format!("/api/games/{id}/record"), None, None)
        .await;
    assert!(record.contains("a1-b2-c3 f6"), "{record}");
    a.stop().await;
    b.stop().await;
}
