//! The fixed choices of options (levels, seats, themes, formats...), the presets offered while
//! typing free-text options, and the autocomplete of plies.

use super::blocking::blocking;
use super::respond::service_ctx;
use super::Context;
use crate::game::Kind;
use poise::serenity_prelude as serenity;

#[derive(Debug, poise::ChoiceParameter)]
pub enum LevelChoice {
    #[name = "easy"]
    Easy,
    #[name = "medium"]
    Medium,
    #[name = "hard"]
    Hard,
    // Last, so the indices of the older choices stay what they were.
    #[name = "beginner"]
    Beginner,
    #[name = "strongest (the server's engine, if it has one)"]
    Strongest,
}

#[derive(Debug, poise::ChoiceParameter)]
pub enum StakesChoice {
    #[name = "university (the rulebook's gambling rules)"]
    University,
}

#[derive(Debug, poise::ChoiceParameter)]
pub enum MakersChoice {
    #[name = "anyone"]
    Anyone,
    #[name = "moderators"]
    Moderators,
}

#[derive(Debug, poise::ChoiceParameter)]
pub enum SeatChoice {
    #[name = "white (move first)"]
    White,
    #[name = "black"]
    Black,
    #[name = "random"]
    Random,
}

#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum GameChoice {
    #[name = "Tak"]
    Tak,
    #[name = "Takat (hexagonal stacking game)"]
    Takat,
}

impl GameChoice {
    pub fn kind(choice: Option<GameChoice>) -> Kind {
        match choice {
            Some(GameChoice::Takat) => Kind::Takat,
            Some(GameChoice::Tak) | None => Kind::Tak,
        }
    }
}

#[derive(Debug, poise::ChoiceParameter)]
pub enum OpeningChoice {
    #[name = "swap (rulebook)"]
    Swap,
    #[name = "no-swap"]
    NoSwap,
}

#[derive(Debug, poise::ChoiceParameter)]
pub enum ThemeChoice {
    #[name = "dark"]
    Dark,
    #[name = "light"]
    Light,
    #[name = "colorblind"]
    Colorblind,
    #[name = "colorblind-light"]
    ColorblindLight,
    #[name = "tritan"]
    Tritan,
    #[name = "high-contrast"]
    HighContrast,
    #[name = "wood"]
    Wood,
    #[name = "slate"]
    Slate,
}

impl ThemeChoice {
    pub fn name(&self) -> &'static str {
        match self {
            ThemeChoice::Dark => "dark",
            ThemeChoice::Light => "light",
            ThemeChoice::Colorblind => "colorblind",
            ThemeChoice::ColorblindLight => "colorblind-light",
            ThemeChoice::Tritan => "tritan",
            ThemeChoice::HighContrast => "high-contrast",
            ThemeChoice::Wood => "wood",
            ThemeChoice::Slate => "slate",
        }
    }
}

#[derive(Debug, poise::ChoiceParameter)]
pub enum FormatChoice {
    #[name = "round robin (everyone meets everyone)"]
    RoundRobin,
    #[name = "double round robin (twice, colours reversed)"]
    DoubleRoundRobin,
    #[name = "Swiss (give rounds)"]
    Swiss,
}

/// Presets offered while typing a free-text option: (value, label). Anything else may be typed.
const KOMI_PRESETS: [(&str, &str); 6] = [
    ("0", "0 (none)"),
    ("1", "1"),
    ("1.5", "1.5"),
    ("2", "2 (usual on 6x6)"),
    ("2.5", "2.5"),
    ("3", "3"),
];

const TIME_PRESETS: [(&str, &str); 5] = [
    ("1d", "1 day per move"),
    ("2d", "2 days per move"),
    ("3d", "3 days per move"),
    ("1w", "1 week per move"),
    ("2w", "2 weeks per move"),
];

const REMINDER_PRESETS: [(&str, &str); 5] = [
    ("12h", "after 12 hours"),
    ("1d", "after 1 day"),
    ("2d", "after 2 days"),
    ("1w", "after 1 week"),
    ("off", "no reminders"),
];

/// The presets that start with what was typed, and what was typed itself when it is no preset.
pub fn presets(presets: &[(&str, &str)], partial: &str) -> Vec<serenity::AutocompleteChoice> {
    let typed = partial.trim();
    let mut choices: Vec<serenity::AutocompleteChoice> = presets
        .iter()
        .filter(|(value, _)| value.starts_with(typed))
        .map(|(value, label)| serenity::AutocompleteChoice::new(*label, *value))
        .collect();
    if !typed.is_empty() && !presets.iter().any(|(value, _)| *value == typed) {
        let own: String = typed.chars().take(100).collect();
        choices.insert(0, serenity::AutocompleteChoice::new(own.clone(), own));
    }
    choices
}

/// The server's komi per size first, then the presets.
pub async fn autocomplete_komi(
    ctx: Context<'_>,
    partial: &str,
) -> Vec<serenity::AutocompleteChoice> {
    let server = match ctx.guild_id() {
        Some(guild) => ctx
            .data()
            .service
            .settings(guild.get())
            .map(|s| s.komi)
            .unwrap_or_default(),
        None => Vec::new(),
    };
    let mut own: Vec<(String, String)> = Vec::new();
    for (n, k) in &server {
        let value = k.to_string();
        match own.iter_mut().find(|(v, _)| *v == value) {
            Some((_, sizes)) => sizes.push_str(&format!(", {n}x{n}")),
            None => own.push((value, format!("{n}x{n}"))),
        }
    }
    let own: Vec<(String, String)> = own
        .into_iter()
        .map(|(v, sizes)| (v.clone(), format!("{v} (this server's komi on {sizes})")))
        .collect();
    let mut listed: Vec<(&str, &str)> = own.iter().map(|(v, l)| (v.as_str(), l.as_str())).collect();
    listed.extend(
        KOMI_PRESETS
            .iter()
            .filter(|(v, _)| !own.iter().any(|(o, _)| o == v)),
    );
    presets(&listed, partial)
}

/// Presets for what pictures leave out; any comma-separated mix may be typed.
pub async fn autocomplete_hide(
    _ctx: Context<'_>,
    partial: &str,
) -> Vec<serenity::AutocompleteChoice> {
    const HIDE: [(&str, &str); 6] = [
        ("none", "none: show everything"),
        ("heights", "heights: no stack height badges"),
        ("labels", "labels: no files and ranks"),
        ("roads", "roads: no road connectors"),
        ("flats", "flats: no flat counts"),
        (
            "heights, labels, roads",
            "a bare board: no heights, labels or roads",
        ),
    ];
    presets(&HIDE, partial)
}

pub async fn autocomplete_time(
    _ctx: Context<'_>,
    partial: &str,
) -> Vec<serenity::AutocompleteChoice> {
    presets(&TIME_PRESETS, partial)
}

pub async fn autocomplete_reminder(
    _ctx: Context<'_>,
    partial: &str,
) -> Vec<serenity::AutocompleteChoice> {
    presets(&REMINDER_PRESETS, partial)
}

/// Start presets offered while typing; any delay or UTC time may be typed instead.
pub async fn autocomplete_start(
    _ctx: Context<'_>,
    partial: &str,
) -> Vec<serenity::AutocompleteChoice> {
    const STARTS: [(&str, &str); 5] = [
        ("manual", "when the organizer says /tournament start"),
        ("when full", "when the entry limit is reached"),
        ("1h", "in an hour"),
        ("1d", "in a day"),
        ("1w", "in a week"),
    ];
    presets(&STARTS, partial)
}

/// The legal plies that match what was typed, each with a label that says what it does and
/// marks the ones that win, make Tak or are Tinuë.
pub async fn autocomplete_ply(
    ctx: Context<'_>,
    partial: &str,
) -> Vec<serenity::AutocompleteChoice> {
    let sctx = service_ctx(ctx);
    let typed = partial.trim().to_string();
    blocking(&ctx.data().service, move |s| {
        let choices = s.ply_choices(&sctx, |plies| rank_plies(plies, &typed))?;
        Ok(choices
            .into_iter()
            .map(|(label, ply)| serenity::AutocompleteChoice::new(label, ply))
            .collect())
    })
    .await
    .unwrap_or_default()
}

/// Up to 25 legal plies matching what was typed: the exact ply first, then plies on or from the
/// typed square (placements before moves), then the rest; shorter before longer.
pub fn rank_plies(plies: Vec<String>, typed: &str) -> Vec<String> {
    // The square and what follows: `Sc3` and `2c3>11` both start at `c3`.
    fn core(p: &str) -> String {
        p.trim_start_matches(['S', 'C', 'F'])
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .to_ascii_lowercase()
    }
    fn kind(p: &str) -> u8 {
        match p.as_bytes().first() {
            Some(b'a'..=b'h') if p.len() == 2 => 0,
            Some(b'S') => 1,
            Some(b'C') => 2,
            _ => 3,
        }
    }
    let typed_lower = typed.to_ascii_lowercase();
    let typed_core = core(typed);
    let mut matching: Vec<String> = plies
        .into_iter()
        .filter(|p| p.to_ascii_lowercase().contains(&typed_lower))
        .collect();
    matching.sort_by_key(|p| {
        (
            p != typed,
            !core(p).starts_with(&typed_core),
            kind(p),
            p.len(),
            p.clone(),
        )
    });
    matching.truncate(25);
    matching
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn autocomplete_puts_matches_and_placements_first() {
        let plies: Vec<String> = ["c3>", "Sc3", "c3", "Cc3", "2c3>11", "a1", "c3<"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(
            rank_plies(plies.clone(), "c3"),
            vec!["c3", "Sc3", "Cc3", "c3<", "c3>", "2c3>11"]
        );
        assert_eq!(
            rank_plies(plies.clone(), ""),
            vec!["a1", "c3", "Sc3", "Cc3", "c3<", "c3>", "2c3>11"]
        );
        let many: Vec<String> = (0..100).map(|i| format!("a{i}")).collect();
        assert_eq!(rank_plies(many, "a").len(), 25);
    }
}
