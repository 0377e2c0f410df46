//! Challenge options and their validation; durations like `1d`, `36h`, `2w`.

use super::Refusal;
use crate::game::Kind;
use crate::render::Theme;
use crate::store::records::{GameSettings, GuildSettings, PlayerRef, ReminderPref, Seat, Stakes};
use crate::tak::{tps::tps_size, Komi, Opening, Position, PtnFile, Reserve, Setup};

/// What a challenge may set; `None` takes the server's default.
#[derive(Clone, Debug)]
pub struct ChallengeOptions {
    pub game: Kind,
    pub opponent: Option<PlayerRef>,
    pub size: Option<usize>,
    pub komi: Option<String>,
    pub seat: Seat,
    pub opening: Opening,
    /// Stones and capstones per player (White, Black).
    pub reserves: Option<[Reserve; 2]>,
    pub tps: Option<String>,
    pub rated: bool,
    /// `1d`, `12h`; `off` for none.
    pub reminder: Option<String>,
    /// Per-move limit, `1d` .. `2w`.
    pub time_limit: Option<String>,
    pub theme: Option<String>,
    /// The opponent is the bot's engine at this level.
    pub engine: Option<String>,
    /// No picture while the game runs, only the plies.
    pub blind: bool,
    /// Played for coins (University rules).
    pub stakes: Option<Stakes>,
    /// Parts the pictures leave out (`heights, labels`; `none`); the server's choice if `None`.
    pub hide: Option<String>,
    /// The reserve tray under the board; the server's choice if `None`.
    pub tray: Option<bool>,
}

impl Default for ChallengeOptions {
    fn default() -> ChallengeOptions {
        ChallengeOptions {
            game: Kind::Tak,
            opponent: None,
            size: None,
            komi: None,
            seat: Seat::Random,
            opening: Opening::Swap,
            reserves: None,
            tps: None,
            rated: false,
            reminder: None,
            time_limit: None,
            theme: None,
            engine: None,
            hide: None,
            tray: None,
            blind: false,
            stakes: None,
        }
    }
}

/// `university` (the rulebook's gambling rules) or `none`.
pub fn parse_stakes(text: &str) -> Result<Option<Stakes>, Refusal> {
    match text.trim().to_ascii_lowercase().as_str() {
        "university" => Ok(Some(Stakes::University)),
        "none" | "off" => Ok(None),
        other => Err(Refusal(format!(
            "stakes {} are not known: university (the rulebook's gambling rules) or none",
            crate::tak::quote(other)
        ))),
    }
}

const HOUR: u64 = 3600;
const DAY: u64 = 24 * HOUR;

/// Parses `90m`, `12h`, `1d`, `2w` (or combinations like `1d12h`) into seconds.
pub fn parse_duration(text: &str) -> Result<u64, Refusal> {
    let bad = || {
        Refusal(format!(
            "{} is not a duration: write it like 30m, 12h, 1d or 2w",
            crate::tak::quote(text)
        ))
    };
    let t = text.trim().to_ascii_lowercase();
    if t.is_empty() {
        return Err(bad());
    }
    let mut total: u64 = 0;
    let mut digits = String::new();
    for c in t.chars() {
        if c.is_ascii_digit() {
            digits.push(c);
            continue;
        }
        let unit = match c {
            'm' => 60,
            'h' => HOUR,
            'd' => DAY,
            'w' => 7 * DAY,
            ' ' if digits.is_empty() => continue,
            _ => return Err(bad()),
        };
        let n: u64 = digits.parse().map_err(|_| bad())?;
        total = n
            .checked_mul(unit)
            .and_then(|s| total.checked_add(s))
            .ok_or_else(bad)?;
        digits.clear();
    }
    if !digits.is_empty() {
        return Err(bad());
    }
    Ok(total)
}

/// A player's reminder wish in words: "as each game says", "never", "after 12h without a ply".
pub fn describe_reminder(pref: ReminderPref) -> String {
    match pref {
        ReminderPref::Game => "as each game says".into(),
        ReminderPref::Off => "never".into(),
        ReminderPref::Every(secs) => format!("after {} without a ply", describe_secs(secs)),
    }
}

pub fn describe_secs(secs: u64) -> String {
    if secs.is_multiple_of(7 * DAY) {
        format!("{}w", secs / (7 * DAY))
    } else if secs.is_multiple_of(DAY) {
        format!("{}d", secs / DAY)
    } else if secs.is_multiple_of(HOUR) {
        format!("{}h", secs / HOUR)
    } else {
        format!("{}m", secs / 60)
    }
}

/// A reminder interval: 1 hour to 2 weeks.
pub fn reminder(text: &str) -> Result<u64, Refusal> {
    let secs = parse_duration(text)?;
    if !(HOUR..=14 * DAY).contains(&secs) {
        return Err(Refusal(format!(
            "a reminder of {} is not allowed: choose 1h to 2w, or off",
            crate::tak::quote(text)
        )));
    }
    Ok(secs)
}

fn time_limit(text: &str) -> Result<u64, Refusal> {
    let secs = parse_duration(text)?;
    if !(DAY..=14 * DAY).contains(&secs) {
        return Err(Refusal(format!(
            "a time limit of {} per move is not allowed: choose 1d to 2w",
            crate::tak::quote(text)
        )));
    }
    Ok(secs)
}

/// `21/1,20/1`: White's stones/capstones, then Black's.
pub fn parse_reserves(text: &str) -> Result<[Reserve; 2], Refusal> {
    let bad = || {
        Refusal(format!(
            "reserves {}: write stones/capstones for White, then Black, like 21/1,21/1",
            crate::tak::quote(text)
        ))
    };
    let mut out = [Reserve { stones: 0, caps: 0 }; 2];
    let parts: Vec<&str> = text.split(',').collect();
    if parts.len() != 2 {
        return Err(bad());
    }
    for (slot, part) in out.iter_mut().zip(parts) {
        let (s, c) = part.trim().split_once('/').ok_or_else(bad)?;
        *slot = Reserve {
            stones: s.trim().parse().map_err(|_| bad())?,
            caps: c.trim().parse().map_err(|_| bad())?,
        };
    }
    Ok(out)
}

/// A Tak game's start given as PTN rather than TPS (a PTN Ninja file, or plies alone on a
/// board of `size`): the position its main line reaches as TPS, and the komi and pieces the
/// file names. `None` for a TPS, which never holds `[` or `.`.
struct PtnStart {
    tps: String,
    komi: Option<Komi>,
    reserves: Option<[Reserve; 2]>,
}

fn ptn_start(text: &str, size: usize) -> Result<Option<PtnStart>, Refusal> {
    if !text.contains(['[', '.']) {
        return Ok(None);
    }
    let unreadable = |e: String| Refusal(format!("the PTN in `tps:` cannot be read: {e}"));
    let mut file = PtnFile::parse(text).map_err(|e| unreadable(e.to_string()))?;
    if file.tag("Size").is_none() && file.tag("TPS").is_none() {
        // Plies alone: on the board the challenge names, or the server's.
        file = PtnFile::parse(&format!("[Size \"{size}\"]\n{text}"))
            .map_err(|e| unreadable(e.to_string()))?;
    }
    let game = file.replay().map_err(|e| unreadable(e.to_string()))?;
    let setup = game.start().setup();
    Ok(Some(PtnStart {
        tps: game.position().to_tps(),
        komi: file.tag("Komi").is_some().then_some(setup.komi),
        reserves: (!setup.is_standard_reserve()).then_some(setup.reserves),
    }))
}

impl ChallengeOptions {
    /// The game settings, with the server's defaults where nothing was chosen.
    pub fn settings(&self, defaults: &GuildSettings) -> Result<GameSettings, Refusal> {
        let size = self.size.unwrap_or(defaults.size);
        let from_ptn = match (&self.tps, self.game) {
            (Some(text), Kind::Tak) => ptn_start(text, size)?,
            _ => None,
        };
        if let Some(start) = from_ptn {
            // The position the PTN reaches, with what the file says where the challenge is silent.
            return ChallengeOptions {
                tps: Some(start.tps),
                komi: self.komi.clone().or(start.komi.map(|k| k.to_string())),
                reserves: self.reserves.or(start.reserves),
                ..self.clone()
            }
            .settings(defaults);
        }
        let reminder_secs = match self.reminder.as_deref() {
            Some("off" | "none") => None,
            Some(text) => Some(reminder(text)?),
            None => defaults.reminder_secs,
        };
        let time_limit_secs = self.time_limit.as_deref().map(time_limit).transpose()?;
        if let Some(level) = &self.engine {
            crate::engine::Level::parse(level).map_err(Refusal)?;
            if self.rated {
                return Err(Refusal(
                    "games against Bredon's engine cannot be rated".into(),
                ));
            }
        }
        if self.stakes.is_some() && (self.engine.is_some() || self.game != Kind::Tak) {
            return Err(Refusal(
                "University stakes are for Tak games between two players: not against Bredon, \
                 not in Takat"
                    .into(),
            ));
        }
        let theme = match &self.theme {
            Some(name) => Theme::named(name).map_err(Refusal)?.name,
            None => defaults.theme.clone(),
        };
        let mut settings = GameSettings {
            game: self.game,
            size: 0,
            komi: Komi::default(),
            opening: self.opening,
            reserves: self.reserves,
            tps: self.tps.clone(),
            rated: self.rated,
            reminder_secs,
            time_limit_secs,
            theme,
            engine: self.engine.clone(),
            blind: self.blind,
            stakes: self.stakes,
            display: crate::render::Display {
                tray: self.tray.unwrap_or(defaults.display.tray),
                ..match &self.hide {
                    Some(text) => crate::render::Display::hiding(text).map_err(Refusal)?,
                    None => defaults.display,
                }
            },
        };
        match self.game {
            Kind::Tak => self.tak_settings(defaults, &mut settings)?,
            Kind::Takat => self.takat_settings(&mut settings)?,
        }
        Ok(settings)
    }

    fn takat_settings(&self, settings: &mut GameSettings) -> Result<(), Refusal> {
        if self.komi.is_some() || self.reserves.is_some() {
            return Err(Refusal(
                "komi and reserves are Tak's options; a Takat game has none".into(),
            ));
        }
        settings.size = match &self.tps {
            Some(text) => {
                let p = crate::takat::Position::from_text(text).map_err(Refusal)?;
                if p.end().is_some() {
                    return Err(Refusal("the starting position is already decided: choose one where the game is still open".into()));
                }
                if self.rated {
                    return Err(Refusal("games from a position cannot be rated: leave rated off, or start from the empty board".into()));
                }
                let cells = p.board().len();
                if self.size.is_some_and(|s| s != cells) {
                    return Err(Refusal(format!("the position has {cells} circles but size says {}: leave size out or make them agree", self.size.unwrap_or(0))));
                }
                cells
            }
            None => self.size.unwrap_or(7),
        };
        crate::takat::Board::of(settings.size).map_err(Refusal)?;
        Ok(())
    }

    fn tak_settings(
        &self,
        defaults: &GuildSettings,
        settings: &mut GameSettings,
    ) -> Result<(), Refusal> {
        let size = match (&self.tps, self.size) {
            (Some(tps), Some(size)) => {
                let from_tps = tps_size(tps).map_err(Refusal)?;
                if from_tps != size {
                    return Err(Refusal(format!("the position is {from_tps}x{from_tps} but size says {size}x{size}: leave size out or make them agree")));
                }
                size
            }
            (Some(tps), None) => tps_size(tps).map_err(Refusal)?,
            (None, Some(size)) => size,
            (None, None) => defaults.size,
        };
        let komi = match &self.komi {
            Some(k) => Komi::parse(k).map_err(Refusal)?,
            None => defaults.komi_for(size),
        };
        let mut setup = Setup::new(size)
            .map_err(Refusal)?
            .with_komi(komi)
            .with_opening(self.opening);
        if let Some([w, b]) = self.reserves {
            setup = setup
                .with_reserve(crate::tak::Color::White, w)
                .map_err(Refusal)?;
            setup = setup
                .with_reserve(crate::tak::Color::Black, b)
                .map_err(Refusal)?;
        }
        if let Some(tps) = &self.tps {
            let p = Position::from_tps_with(tps, setup)
                .map_err(|e| Refusal(format!("the starting position is not valid: {e}")))?;
            if p.ply_index() > 0 && p.is_over() {
                return Err(Refusal("the starting position is already decided: choose one where the game is still open".into()));
            }
            if self.rated {
                return Err(Refusal("games from a position cannot be rated: leave rated off, or start from the empty board".into()));
            }
        }
        if self.rated && self.reserves.is_some() {
            return Err(Refusal("games with custom reserves cannot be rated".into()));
        }
        if let Some(why) = crate::ratings::unrated_reason(Kind::Tak, size).filter(|_| self.rated) {
            return Err(Refusal(why));
        }
        settings.size = size;
        settings.komi = komi;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_parse_and_refuse() {
        assert_eq!(parse_duration("1d").unwrap(), DAY);
        assert_eq!(parse_duration("1d12h").unwrap(), DAY + 12 * HOUR);
        assert_eq!(parse_duration("2w").unwrap(), 14 * DAY);
        assert_eq!(parse_duration("90m").unwrap(), 5400);
        for bad in ["", "d", "5", "1x", "99999999999999999999w"] {
            assert!(parse_duration(bad).is_err(), "{bad}");
        }
        assert_eq!(describe_secs(2 * DAY), "2d");
        assert!(time_limit("3w").unwrap_err().0.contains("1d to 2w"));
        assert!(reminder("10m").unwrap_err().0.contains("1h to 2w"));
    }
}
