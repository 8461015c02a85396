//! `sqlx::migrate!` embeds `migrations/` when the crate compiles; on
//! stable Rust it cannot tell cargo to compile again when a migration
//! changes, so this says it (as sqlx's documentation advises).
fn main() {
    println!("cargo:rerun-if-changed=migrations");
}
