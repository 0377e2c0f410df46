//! The command line: `bredon` run as a user runs it.

#[path = "../support/mod.rs"]
mod support;

mod engine;
mod local;
mod process;
mod replay;
