//! Servers' settings: read, written by a moderator's command, and the channels where Discord
//! refused Bredon noted inside a change's transaction, so the server is told once.

use super::records::GuildSettings;
use super::tx::Tree;
use super::{decode, encode, Store, StoreError};

impl Store {
    pub fn settings(&self, guild: u64) -> Result<GuildSettings, StoreError> {
        Ok(self
            .get(Tree::Settings, &guild.to_be_bytes())?
            .unwrap_or_default())
    }

    /// The servers that post a daily puzzle, with their settings.
    pub fn puzzle_servers(&self) -> Result<Vec<(u64, GuildSettings)>, StoreError> {
        let mut out = Vec::new();
        for (k, v) in self.kv.scan(Tree::Settings, &[])? {
            let s: GuildSettings = decode("settings", &v)?;
            if let (Some(_), Ok(key)) = (s.puzzle_channel, <[u8; 8]>::try_from(&k[..])) {
                out.push((u64::from_be_bytes(key), s));
            }
        }
        Ok(out)
    }

    pub fn put_settings(&self, guild: u64, settings: &GuildSettings) -> Result<(), StoreError> {
        self.kv
            .insert(Tree::Settings, &guild.to_be_bytes(), &encode(settings))
    }
}
