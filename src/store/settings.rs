//! Servers' settings: read, written by a moderator's command, and the channels where Discord
//! refused Bredon noted inside a change's transaction, so the server is told once.

use super::change::RefusalNote;
use super::records::{GuildSettings, Lacking, RefusedChannel};
use super::tx::{abort, Tree, Tx, TxResult};
use super::{decode, encode, tx_decode, Store, StoreError, TxAbort};

impl Store {
    /// Every channel a server was told Bredon is refused in, with its server.
    pub fn refused_channels(&self) -> Result<Vec<(u64, RefusedChannel)>, StoreError> {
        let mut out = Vec::new();
        for (k, v) in self.kv.scan(Tree::Settings, &[])? {
            let s: GuildSettings = decode("settings", &v)?;
            if let Ok(key) = <[u8; 8]>::try_from(&k[..]) {
                let guild = u64::from_be_bytes(key);
                out.extend(s.refused.into_iter().map(|r| (guild, r)));
            }
        }
        Ok(out)
    }

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

    /// The server whose web pages have the address part `slug`, if one has.
    pub fn web_server(&self, slug: &str) -> Result<Option<u64>, StoreError> {
        for (k, v) in self.kv.scan(Tree::Settings, &[])? {
            let s: GuildSettings = decode("settings", &v)?;
            if let (Some(true), Ok(key)) = (
                s.web_slug.as_deref().map(|mine| mine == slug),
                <[u8; 8]>::try_from(&k[..]),
            ) {
                return Ok(Some(u64::from_be_bytes(key)));
            }
        }
        Ok(None)
    }

    /// Writes a server's settings as a moderator set them, keeping its refusal notes and its
    /// hidden channels as stored: those change only inside transactions of their own
    /// (`note_refusal`, `change_hidden_channels`), and a moderator's settings read before one
    /// must not undo it.
    pub fn put_settings(&self, guild: u64, settings: &GuildSettings) -> Result<(), StoreError> {
        let key = guild.to_be_bytes();
        self.kv
            .transaction(&[Tree::Settings], |tx| {
                let mut settings = settings.clone();
                let stored = match tx.get(Tree::Settings, &key)? {
                    Some(b) => tx_decode::<GuildSettings>("settings", &b)?,
                    None => GuildSettings::default(),
                };
                settings.refused = stored.refused;
                settings.hidden_channels = stored.hidden_channels;
                tx.insert(Tree::Settings, &key, &encode(&settings))
            })
            .map_err(TxAbort::into_store_error)
    }

    /// Applies `change` to the server's hidden channels in one transaction that reads them
    /// afresh; written only if it changed them. Whether it did.
    pub fn change_hidden_channels(
        &self,
        guild: u64,
        change: impl Fn(&[u64]) -> Vec<u64>,
    ) -> Result<bool, StoreError> {
        let key = guild.to_be_bytes();
        self.kv
            .transaction(&[Tree::Settings], |tx| {
                let mut settings = match tx.get(Tree::Settings, &key)? {
                    Some(b) => tx_decode::<GuildSettings>("settings", &b)?,
                    None => GuildSettings::default(),
                };
                let now = change(&settings.hidden_channels);
                if now == settings.hidden_channels {
                    return Ok(false);
                }
                settings.hidden_channels = now;
                tx.insert(Tree::Settings, &key, &encode(&settings))?;
                Ok(true)
            })
            .map_err(TxAbort::into_store_error)
    }
}

impl Store {
    /// Applies `note` to its server's settings inside a change's transaction.
    pub(super) fn note_refusal(note: Option<RefusalNote>, tx: &dyn Tx) -> TxResult<()> {
        let Some(note) = note else { return Ok(()) };
        let (RefusalNote::Refused { guild, .. } | RefusalNote::Allowed { guild, .. }) = note;
        let key = guild.to_be_bytes();
        let mut settings: GuildSettings = match tx.get(Tree::Settings, &key)? {
            Some(b) => tx_decode("settings", &b)?,
            None => GuildSettings::default(),
        };
        let before = settings.refused.clone();
        match note {
            RefusalNote::Refused {
                channel, lacking, ..
            } => {
                let told = before
                    .iter()
                    .any(|r| r.channel == channel && r.lacking >= lacking);
                if told {
                    return abort(TxAbort::Conflict);
                }
                settings.refused.retain(|r| r.channel != channel);
                settings.refused.push(RefusedChannel { channel, lacking });
            }
            RefusalNote::Allowed {
                channel,
                with_picture,
                ..
            } => settings
                .refused
                .retain(|r| r.channel != channel || (r.lacking == Lacking::Files && !with_picture)),
        }
        if settings.refused != before {
            tx.insert(Tree::Settings, &key, &encode(&settings))?;
        }
        Ok(())
    }
}
