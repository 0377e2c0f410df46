//! Runs the `bredon` binary as a user would, and reads what it printed.

use std::process::{Command, Output};

pub fn bredon(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_bredon"))
        .args(args)
        .env_remove("DISCORD_TOKEN")
        .output()
        .unwrap()
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}
