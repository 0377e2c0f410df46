//! Bredon through Discord: the real `bredon` binary against the strict fake Discord on
//! 127.0.0.1 (`fake_discord/`), a module per feature as `src/bot/commands/` has, and outages.

#[path = "../fake_discord/mod.rs"]
mod fake_discord;
#[path = "../harness/mod.rs"]
mod harness;
#[path = "../support/mod.rs"]
mod support;

mod anywhere;
mod buttons;
mod challenges;
mod channels;
mod digest;
mod exactly_once;
mod fair_play;
mod games;
mod lifecycle;
mod moderators;
mod notes;
mod notifications;
mod numbers;
mod outage;
mod playtak;
mod premoves;
mod puzzles;
mod queues;
mod rate_limits;
mod records;
mod refusals;
mod rules;
mod tournaments;
mod variants;
mod web;
