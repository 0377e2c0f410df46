//! Which shards' servers a sled folder holds, kept beside its records (`bredon-shards.json`):
//! `bredon run` opens a folder only with the shard range it was made for, since any other range
//! would hash some servers to a process that has none of their games. `bredon reshard`
//! (`reshard.rs`) makes folders for a new range.

use super::error::StoreError;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The manifest's file name in a data folder.
pub const MANIFEST: &str = "bredon-shards.json";

/// Shards `first..=last` of `shards`: the servers whose events Discord sends to them.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Layout {
    pub shards: u32,
    pub first: u32,
    pub last: u32,
}

impl Layout {
    /// Every server (one process, however many shards it runs).
    pub const WHOLE: Layout = Layout {
        shards: 1,
        first: 0,
        last: 0,
    };

    /// The shard Discord sends `guild`'s events to (topics/gateway, "Sharding").
    pub fn shard_of(&self, guild: u64) -> u32 {
        ((guild >> 22) % u64::from(self.shards.max(1))) as u32
    }

    pub fn holds(&self, guild: u64) -> bool {
        (self.first..=self.last).contains(&self.shard_of(guild))
    }

    /// Whether it holds shard 0, whose process keeps what belongs to no server (players'
    /// notification wishes, puzzles' ratings).
    pub fn holds_first(&self) -> bool {
        self.first == 0
    }

    /// What an id made in this folder ends with: its first shard (`ID_TAGS` of them), so that
    /// folders of one layout never make the same id. A whole store's ids stay plain counts.
    pub(super) fn id_tag(&self) -> Option<u64> {
        (*self != Layout::WHOLE).then_some(u64::from(self.first) % ID_TAGS)
    }

    /// `n` folders of `shards` shards, as even as they come.
    pub fn split(shards: u32, n: u32) -> Vec<Layout> {
        (0..n)
            .map(|i| Layout {
                shards,
                first: i * shards / n,
                last: (i + 1) * shards / n - 1,
            })
            .collect()
    }
}

impl std::fmt::Display for Layout {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        if *self == Layout::WHOLE {
            f.write_str("every server (one process)")
        } else {
            write!(
                f,
                "shards {}..={} of {}",
                self.first, self.last, self.shards
            )
        }
    }
}

/// Ids of a folder of several are `count * ID_TAGS + tag`.
pub(super) const ID_TAGS: u64 = 1024;

/// The layout recorded in `dir`, if any.
pub fn read(dir: &Path) -> Result<Option<Layout>, StoreError> {
    let file = dir.join(MANIFEST);
    match std::fs::read(&file) {
        Ok(bytes) => serde_json::from_slice(&bytes)
            .map(Some)
            .map_err(|e| StoreError::Io(format!("{} cannot be read: {e}", file.display()))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(StoreError::Io(format!(
            "cannot read {}: {e}",
            file.display()
        ))),
    }
}

pub(super) fn write(dir: &Path, layout: Layout) -> Result<(), StoreError> {
    let file = dir.join(MANIFEST);
    let text = serde_json::to_string_pretty(&layout).expect("a layout serializes");
    std::fs::write(&file, text)
        .map_err(|e| StoreError::Io(format!("cannot write {}: {e}", file.display())))
}

/// `dir`'s layout must be `wanted` (a folder without one takes it).
pub(super) fn check(dir: &Path, wanted: Layout) -> Result<(), StoreError> {
    match read(dir)? {
        None => write(dir, wanted),
        Some(held) if held == wanted => Ok(()),
        Some(held) => Err(StoreError::Io(format!(
            "the folder {} holds the servers of {held}, but this process was started for \
             {wanted}: most servers would find none of their games. Start it with the shards the \
             folder was made for, or stop every process and make folders for the new shards with \
             `bredon reshard` (docs/OPERATING.md, Scaling out)",
            dir.display()
        ))),
    }
}
