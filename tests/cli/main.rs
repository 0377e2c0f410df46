//! The command line: `bredon` run as a user runs it.

#[path = "../support/mod.rs"]
mod support;

mod engine;
mod local;
mod playtak;
mod process;
mod replay;
