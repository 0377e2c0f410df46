//! The service on each store: every scenario on a sled folder, and on PostgreSQL with
//! `BREDON_TEST_DATABASE=postgres` (`.ci/run`'s second pass); PostgreSQL's own behaviour; resharding
//! folders.

#[path = "../support/mod.rs"]
mod support;

mod clocks;
mod fair_play;
mod games;
mod letters;
mod notes;
mod numbers;
mod postgres;
mod puzzles;
mod records;
mod reshard;
mod servers;
mod tournament;
mod variants;
mod world;
