//! Several processes: `bredon run` processes sharing one PostgreSQL through the fake Discord,
//! and a child killed at random moments that never loses an acknowledged ply.

#[path = "../fake_discord/mod.rs"]
mod fake_discord;
#[path = "../harness/mod.rs"]
mod harness;
#[path = "../support/mod.rs"]
mod support;

mod crash;
mod deploy;
mod leases;
mod scale;
mod turns;
