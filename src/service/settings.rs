//! Server defaults, each player's notification wishes, and where a server's web pages have a page.

use super::*;

impl Service {
    /// The player to move, in a list if they asked for direct messages.
    pub(super) fn wants_direct(&self, player: &PlayerRef) -> Result<Vec<PlayerRef>, Refusal> {
        Ok(if self.store.prefs(player.id)?.dm {
            vec![player.clone()]
        } else {
            Vec::new()
        })
    }

    /// Changes a player's notification wishes: `dm` on or off, `reminder` `game` (as the game
    /// says), `off`, or an interval (1h .. 2w).
    pub fn set_prefs(
        &self,
        user: u64,
        dm: Option<bool>,
        reminder: Option<&str>,
    ) -> Result<PlayerPrefs, Refusal> {
        let mut prefs = self.store.prefs(user)?;
        if let Some(dm) = dm {
            prefs.dm = dm;
        }
        if let Some(text) = reminder {
            prefs.reminder = match text.trim() {
                "game" | "default" => ReminderPref::Game,
                "off" | "none" => ReminderPref::Off,
                other => ReminderPref::Every(options::reminder(other)?),
            };
        }
        self.store.put_prefs(user, &prefs)?;
        self.store.flush()?;
        Ok(prefs)
    }

    /// Sets the hour of a player's daily digest (`digest_hour` read by `digest_hour`).
    pub fn set_digest(&self, user: u64, hour: Option<u8>) -> Result<PlayerPrefs, Refusal> {
        let mut prefs = self.store.prefs(user)?;
        prefs.digest_hour = hour;
        self.store.put_prefs(user, &prefs)?;
        self.store.flush()?;
        Ok(prefs)
    }

    /// Discord will not deliver `user`'s direct messages (their privacy settings close them):
    /// the wishes that send them (`dm`, the daily digest) are turned off, so nothing keeps
    /// failing. True if one was on (then the player is told, once).
    pub fn direct_messages_closed(&self, user: u64) -> Result<bool, Refusal> {
        let mut prefs = self.store.prefs(user)?;
        if !prefs.dm && prefs.digest_hour.is_none() {
            return Ok(false);
        }
        prefs.dm = false;
        prefs.digest_hour = None;
        self.store.put_prefs(user, &prefs)?;
        self.store.flush()?;
        Ok(true)
    }

    pub fn prefs(&self, user: u64) -> Result<PlayerPrefs, Refusal> {
        Ok(self.store.prefs(user)?)
    }

    pub fn settings(&self, guild: u64) -> Result<GuildSettings, Refusal> {
        Ok(self.store.settings(guild)?)
    }

    /// Applies `change` to the server's settings and stores them durably; moderators only.
    pub(super) fn change_settings(
        &self,
        ctx: &Ctx,
        change: impl FnOnce(&mut GuildSettings) -> Result<(), Refusal>,
    ) -> Result<GuildSettings, Refusal> {
        if !ctx.moderator {
            return refuse("only a server moderator (Manage Server) can change Bredon's settings");
        }
        let mut s = self.store.settings(ctx.guild)?;
        change(&mut s)?;
        self.store.put_settings(ctx.guild, &s)?;
        self.store.flush()?;
        Ok(s)
    }

    /// Changes server defaults (moderators only).
    pub fn set_settings(
        &self,
        ctx: &Ctx,
        theme: Option<&str>,
        size: Option<usize>,
        reminder: Option<&str>,
    ) -> Result<GuildSettings, Refusal> {
        self.change_settings(ctx, |s| {
            if let Some(t) = theme {
                s.theme = Theme::named(t).map_err(Refusal)?.name;
            }
            if let Some(n) = size {
                crate::tak::Setup::new(n).map_err(Refusal)?;
                s.size = n;
            }
            if let Some(r) = reminder {
                s.reminder_secs = match r {
                    "off" | "none" => None,
                    text => Some(options::reminder(text)?),
                };
            }
            Ok(())
        })
    }

    /// Whether players may type plies as plain messages in their game's channel (moderators).
    pub fn set_typed_plies(&self, ctx: &Ctx, on: bool) -> Result<GuildSettings, Refusal> {
        self.change_settings(ctx, |s| {
            s.typed_plies = on;
            Ok(())
        })
    }

    /// The komi challenges on `size` (default: the server's size) get when they name none;
    /// `0` forgets it (moderators).
    pub fn set_server_komi(
        &self,
        ctx: &Ctx,
        size: Option<usize>,
        komi: &str,
    ) -> Result<GuildSettings, Refusal> {
        self.change_settings(ctx, |s| {
            let size = size.unwrap_or(s.size);
            crate::tak::Setup::new(size).map_err(Refusal)?;
            let komi = crate::tak::Komi::parse(komi).map_err(Refusal)?;
            s.komi.retain(|(n, _)| *n != size);
            if komi != crate::tak::Komi::default() {
                s.komi.push((size, komi));
                s.komi.sort_by_key(|(n, _)| *n);
            }
            Ok(())
        })
    }

    /// The parts pictures leave out in challenges that say nothing (moderators): `heights,
    /// labels`, or `none`.
    pub fn set_display(&self, ctx: &Ctx, hide: &str) -> Result<GuildSettings, Refusal> {
        self.change_settings(ctx, |s| {
            s.display = crate::render::Display {
                tray: s.display.tray,
                ..crate::render::Display::hiding(hide).map_err(Refusal)?
            };
            Ok(())
        })
    }

    /// Whether pictures of challenges that say nothing show the reserve tray (moderators).
    pub fn set_tray(&self, ctx: &Ctx, on: bool) -> Result<GuildSettings, Refusal> {
        self.change_settings(ctx, |s| {
            s.display.tray = on;
            Ok(())
        })
    }
}

/// A digest's hour as typed: `18` or `18:00` (UTC), or `off`.
pub fn digest_hour(text: &str) -> Result<Option<u8>, Refusal> {
    let text = text.trim().to_ascii_lowercase();
    if matches!(text.as_str(), "off" | "none" | "no") {
        return Ok(None);
    }
    let hour = text.strip_suffix(":00").unwrap_or(&text);
    match hour.parse::<u8>() {
        Ok(h) if h < 24 => Ok(Some(h)),
        _ => refuse(format!(
            "a digest is sent at an hour of the day in UTC, 0 to 23 (e.g. 18), or off; not {}",
            crate::tak::quote(&text)
        )),
    }
}

/// What a player's notification wishes are, in a sentence.
pub fn describe_prefs(prefs: &PlayerPrefs) -> String {
    let digest = match prefs.digest_hour {
        Some(h) => {
            format!("at {h:02}:00 UTC, one direct message listing the games where it is your move")
        }
        None => "off".into(),
    };
    format!(
        "Direct messages when it is your move: {}. Reminders: {}. Daily digest: {digest}.",
        if prefs.dm { "on" } else { "off" },
        describe_reminder(prefs.reminder)
    )
}

/// A page of a server's web pages, by what it shows.
pub(super) enum WebPage {
    /// A game, by the number its server gave it.
    Game(u64),
    /// A tournament, by its id.
    Tournament(u64),
}

impl Service {
    /// Where `page` is among `guild`'s web pages (a path below `BREDON_WEB_URL`), if the server
    /// has its pages on.
    pub(super) fn web_path(&self, guild: u64, page: WebPage) -> Result<Option<String>, Refusal> {
        let Some(slug) = self.store.settings(guild)?.web_slug else {
            return Ok(None);
        };
        Ok(Some(match page {
            WebPage::Game(number) => format!("/s/{slug}/game/{number}"),
            WebPage::Tournament(id) => format!("/s/{slug}/tournament/{id}"),
        }))
    }
}
