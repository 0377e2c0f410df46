//! Service outcomes as Discord messages. Every message holds escaped text (a name is shown as
//! typed and pings no one), at most 2000 characters, `allowed_mentions` listing exactly the users
//! it means to ping, and buttons whose custom ids name the question and its version. A finished
//! game takes two messages: the result with the final board (pinging both players), then its
//! record (GIF, PTN file, link, ratings), which may take a while to draw.

use super::buttons::{buttons, with_web_link};
use crate::game::explain::{record_gif, record_picture};
use crate::service::{DigestGame, Outcome, Refusal};
use poise::serenity_prelude as serenity;

/// Discord's limit on a message's content (message resource, "Create Message": content is up to
/// 2000 characters).
pub const MAX_CONTENT: usize = 2000;

/// The largest file Discord takes in any server: 10 MiB without boosts since 2025 (reference,
/// "Uploading Files"). A record's GIF above it is left out rather than failing the post.
pub const MAX_FILE_BYTES: usize = 10 * 1024 * 1024;

/// One message to post.
#[derive(Clone)]
pub struct Post {
    pub content: String,
    pub files: Vec<serenity::CreateAttachment>,
    pub components: Vec<serenity::CreateActionRow>,
    /// The users this message pings; no other mention is allowed to notify.
    pub mentions: Vec<u64>,
}

impl Post {
    pub fn text(content: impl Into<String>) -> Post {
        Post {
            content: fit(content.into()),
            files: Vec::new(),
            components: Vec::new(),
            mentions: Vec::new(),
        }
    }

    /// A refusal as the asker reads it (`refusal_text`), pinging no one.
    pub fn refusal(refusal: &Refusal) -> Post {
        Post::text(refusal_text(refusal))
    }

    /// A message that pings `mentions`: it names them, then says `text`.
    pub fn pinging(mentions: Vec<u64>, text: &str) -> Post {
        let content = format!("{}: {text}", mention_line(&mentions));
        Post {
            mentions,
            ..Post::text(content)
        }
    }

    pub fn allowed_mentions(&self) -> serenity::CreateAllowedMentions {
        serenity::CreateAllowedMentions::new()
            .users(self.mentions.iter().map(|&id| serenity::UserId::new(id)))
    }

    pub fn message(self) -> serenity::CreateMessage {
        serenity::CreateMessage::new()
            .allowed_mentions(self.allowed_mentions())
            .content(self.content)
            .add_files(self.files)
            .components(self.components)
    }

    /// This post without its files, for a channel where Bredon may not attach them: the text,
    /// then what each file shows (its description), so the news still arrives whole.
    pub fn without_files(&self) -> Post {
        Post {
            components: self.components.clone(),
            ..self.described("*(No picture: Bredon may not attach files here.)*")
        }
    }

    /// This post as text alone, for a message Discord refused as it was (its form, its size, a
    /// link): no files, buttons or reply, each picture told by its description.
    pub fn text_only(&self) -> Post {
        self.described("*(Text only: Discord refused this message with its picture and buttons.)*")
    }

    /// The text, `note` if there were files, and each file's description; nothing else.
    fn described(&self, note: &str) -> Post {
        let mut content = self.content.clone();
        if !self.files.is_empty() {
            content.push('\n');
            content.push_str(note);
        }
        for description in self.files.iter().filter_map(|f| f.description.as_deref()) {
            content.push_str("\n> ");
            content.push_str(&escape(description).replace('\n', "\n> "));
        }
        Post {
            content: fit(content),
            files: Vec::new(),
            components: Vec::new(),
            mentions: self.mentions.clone(),
        }
    }

    /// Whether anything but text rides on this post.
    pub fn has_more_than_text(&self) -> bool {
        !self.files.is_empty() || !self.components.is_empty()
    }

    pub fn reply(self) -> poise::CreateReply {
        let mut r = poise::CreateReply::default()
            .allowed_mentions(self.allowed_mentions())
            .content(self.content)
            .components(self.components);
        for f in self.files {
            r = r.attachment(f);
        }
        r
    }
}

/// A refusal's text: a raised hand, then the reason, escaped.
pub fn refusal_text(refusal: &Refusal) -> String {
    fit(format!("✋ {}", escape(&refusal.0)))
}

/// Cuts `text` to Discord's 2000 characters (a last guard: callers page or shorten first).
pub fn fit(mut text: String) -> String {
    if text.chars().count() > MAX_CONTENT {
        text = text.chars().take(MAX_CONTENT - 1).collect();
        text.push('…');
    }
    text
}

/// `text` then `tail` in Discord's 2000 characters: the text is cut if need be, so the tail (a
/// table, the deadline, the mentions) always arrives whole.
pub fn fit_before(text: String, tail: &str) -> String {
    let room = MAX_CONTENT.saturating_sub(tail.chars().count());
    let mut text = text;
    if text.chars().count() > room {
        text = text.chars().take(room.saturating_sub(1)).collect();
        text.push('…');
    }
    fit(text + tail)
}

/// Plain text made literal for Discord: markdown characters are escaped, line-start markers
/// (`#`, `>`, `-`) too, and mention syntax is broken, so a name like `**<@&1>** @everyone` is
/// shown as typed. Mentions are also refused by `allowed_mentions`; this keeps them from even
/// looking like pings.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    let mut line_start = true;
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        rest = &rest[c.len_utf8()..];
        match c {
            '\\' | '*' | '_' | '~' | '`' | '|' | '<' | '[' | ']' => {
                out.push('\\');
                out.push(c);
            }
            '#' | '>' | '-' if line_start => {
                out.push('\\');
                out.push(c);
            }
            '@' if rest.starts_with("everyone") || rest.starts_with("here") => {
                out.push('@');
                out.push('\u{200B}');
            }
            _ => out.push(c),
        }
        line_start = c == '\n' || (line_start && c == ' ');
    }
    out
}

/// `<@id> <@id>` for the users an outcome pings.
pub fn mention_line(ids: &[u64]) -> String {
    ids.iter()
        .map(|id| format!("<@{id}>"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The announcement of an outcome: its text, the deadline, the pings, the board picture (drawn on
/// a blocking thread) and the buttons of its question. A finished game's rematch button goes on
/// its record instead.
pub async fn announce(outcome: &Outcome, web: Option<&str>) -> Post {
    let mentions: Vec<u64> = outcome.ping.iter().map(|p| p.id).collect();
    let mut tail = String::new();
    if let Some(table) = &outcome.table {
        // A code block shows names as typed; only a backtick could end it early.
        tail.push_str(&format!("\n```\n{}```", table.replace('`', "\u{2035}")));
    }
    if let Some(ms) = outcome.deadline_ms {
        let secs = ms.div_euclid(1000);
        tail.push_str(&format!("\n⏳ Time runs out <t:{secs}:R> (<t:{secs}:f>)."));
    }
    if !mentions.is_empty() {
        tail.push('\n');
        tail.push_str(&mention_line(&mentions));
    }
    let text = match outcome.about {
        Some(channel) => format!("<#{channel}>: {}", escape(&outcome.text)),
        None => escape(&outcome.text),
    };
    let content = fit_before(text, &tail);
    let mut components = match outcome.prompt {
        Some(p) if outcome.finished.is_none() => buttons(p, false),
        _ => Vec::new(),
    };
    // A finished game's link goes on its record, beside the rematch button.
    if let Some(url) = page_url(outcome, web).filter(|_| outcome.finished.is_none()) {
        components = with_web_link(components, &url);
    }
    let board = outcome.board.clone();
    let mut files: Vec<serenity::CreateAttachment> = tokio::task::spawn_blocking(move || {
        let b = board?;
        let drawn = record_picture(&b.record, b.names(), &b.theme, b.clock.clone(), b.display);
        match drawn {
            Ok((png, alt)) => {
                Some(serenity::CreateAttachment::bytes(png, "board.png").description(alt))
            }
            Err(why) => {
                tracing::warn!(%why, "a board's record does not replay; posted without it");
                None
            }
        }
    })
    .await
    .ok()
    .flatten()
    .into_iter()
    .collect();
    if let Some(image) = &outcome.image {
        files.push(
            serenity::CreateAttachment::bytes(image.png.clone(), image.file.clone())
                .description(image.alt.clone()),
        );
    }
    Post {
        content,
        files,
        components,
        mentions,
    }
}

/// The address of the outcome's web page, when it has one and the pages have a public address
/// (`BREDON_WEB_URL`).
fn page_url(outcome: &Outcome, web: Option<&str>) -> Option<String> {
    Some(format!("{}{}", web?, outcome.page.as_deref()?))
}

/// The line with a game's PTN Ninja link, if it fits in a message that already holds `used`
/// characters; otherwise a sentence pointing at the attached PTN file.
pub fn link_line(link: &str, used: usize) -> String {
    let line = format!("{NINJA_LINK}<{link}>");
    if used + line.chars().count() <= MAX_CONTENT {
        line
    } else {
        NO_NINJA_LINK.into()
    }
}

const NINJA_LINK: &str = "Open in PTN Ninja: ";

const NO_NINJA_LINK: &str = "This game is too long for a PTN Ninja link: open the attached \
     game.ptn in PTN Ninja (Add game, then choose the file).";

/// `content` with its PTN Ninja link line, if any, given as the sentence that stands instead.
pub fn without_ninja_link(content: &str) -> String {
    let lines = content
        .lines()
        .map(|line| match line.starts_with(NINJA_LINK) {
            true => NO_NINJA_LINK,
            false => line,
        });
    lines.collect::<Vec<_>>().join("\n")
}

/// An analysis as a message: the summary per player, the marked plies as far as they fit, the
/// PTN Ninja link if it fits (the annotated PTN is attached either way).
pub fn analysis_text(report: &crate::service::analysis::Report) -> String {
    let mut text = String::from("**Analysis**\n");
    for line in &report.summary {
        text.push_str(&escape(line));
        text.push('\n');
    }
    let link = format!("Open in PTN Ninja: <{}>", report.link);
    // Room kept for the link (or the sentence instead of it) and a "more" line.
    let reserve = link.chars().count().min(200) + 80;
    let mut shown = 0;
    for line in &report.marked {
        let line = escape(line);
        if text.chars().count() + line.chars().count() + 1 + reserve > MAX_CONTENT {
            break;
        }
        text.push_str(&line);
        text.push('\n');
        shown += 1;
    }
    if shown < report.marked.len() {
        text.push_str(&format!(
            "…and {} more in analysis.ptn\n",
            report.marked.len() - shown
        ));
    }
    let used = text.chars().count();
    if used + link.chars().count() <= MAX_CONTENT {
        text.push_str(&link);
    } else {
        text.push_str(
            "The link is too long for a message: open the attached analysis.ptn in PTN Ninja.",
        );
    }
    fit(text)
}

/// " on 6x6", or nothing for letters stored before ratings were per size.
fn rated_on(board: &str) -> String {
    if board.is_empty() {
        String::new()
    } else {
        format!(" on {board}")
    }
}

/// The record of a finished game: the GIF of the whole game, the PTN file, the PTN Ninja link if
/// it fits, ratings and series, and the rematch button. Pings no one.
pub async fn record(outcome: &Outcome, web: Option<&str>) -> Option<Post> {
    let f = outcome.finished.clone()?;
    let mut lines = Vec::new();
    for (player, rating, change) in &f.ratings {
        lines.push(format!(
            "{} is now rated {rating:.0}{} ({change:+.0}).",
            escape(&player.name),
            rated_on(&f.rated_board)
        ));
    }
    lines.extend(f.series_line(|p| escape(&p.name)));
    let mut content = lines.join("\n");
    if let Some(link) = &f.link {
        let used = content.chars().count() + 1;
        content.push('\n');
        content.push_str(&link_line(link, used));
    }
    let file = f.file;
    let board = outcome.board.clone();
    let ptn = f.ptn.clone().into_bytes();
    let (files, gif_left_out) = tokio::task::spawn_blocking(move || {
        let mut files = Vec::new();
        let gif = board.and_then(|b| record_gif(&b.record, b.names(), &b.theme, b.display).ok());
        let left_out = gif.as_ref().is_some_and(|g| g.len() > MAX_FILE_BYTES);
        if let Some(gif) = gif.filter(|_| !left_out) {
            files.push(serenity::CreateAttachment::bytes(gif, "game.gif"));
        }
        files.push(serenity::CreateAttachment::bytes(ptn, file));
        (files, left_out)
    })
    .await
    .unwrap_or_default();
    if gif_left_out {
        content.push_str("\nThe animation is too large for Discord; replay the game in PTN Ninja.");
    }
    let rows = outcome.prompt.map_or(Vec::new(), |p| buttons(p, false));
    Some(Post {
        content: fit(content),
        files,
        components: match page_url(outcome, web) {
            Some(url) => with_web_link(rows, &url),
            None => rows,
        },
        mentions: Vec::new(),
    })
}

/// A link that opens a message (or, without one, a mention of the channel).
/// A daily digest as its direct message: a line a game, as many as fit one message.
pub fn digest_text(games: &[DigestGame]) -> String {
    let mut text = format!(
        "Your move in {} (your daily digest; /notify digest:off stops it):",
        crate::words::count(games.len() as u64, "game")
    );
    for (n, g) in games.iter().enumerate() {
        // A DM or group DM cannot be mentioned: its link names it.
        let place = match g.guild {
            0 => format!("[a game in a DM]({})", jump_link(0, g.channel, None)),
            _ => format!("<#{}>", g.channel),
        };
        let mut line = format!("\n- {place} vs {}", escape(&g.opponent));
        match &g.last_ply {
            Some(ply) => line.push_str(&format!(" · played {ply} <t:{}:R>", g.since_ms / 1000)),
            None => line.push_str(&format!(" · started <t:{}:R>", g.since_ms / 1000)),
        }
        if let Some(deadline) = g.deadline_ms {
            line.push_str(&format!(" · time runs out <t:{}:R>", deadline / 1000));
        }
        if g.board_message.is_some() {
            let link = jump_link(g.guild, g.channel, g.board_message);
            line.push_str(&format!(" · [board]({link})"));
        }
        let more = format!("\n… and {} more: /mygames in each server", games.len() - n);
        if text.len() + line.len() + more.len() > MAX_CONTENT {
            text.push_str(&more);
            break;
        }
        text.push_str(&line);
    }
    text
}

pub fn jump_link(guild: u64, channel: u64, message: Option<u64>) -> String {
    match (guild, message) {
        // Outside servers a message's link names no server (`@me`), and a private channel
        // cannot be mentioned.
        (0, Some(m)) => format!("https://discord.com/channels/@me/{channel}/{m}"),
        (0, None) => format!("https://discord.com/channels/@me/{channel}"),
        (_, Some(m)) => format!("https://discord.com/channels/{guild}/{channel}/{m}"),
        (_, None) => format!("<#{channel}>"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_digest_of_any_length_fits_one_message() {
        let game = |n: u64| DigestGame {
            guild: 1,
            channel: 1_000_000_000_000_000_000 + n,
            opponent: "a player with a 32-character name".into(),
            last_ply: Some("6c3>1221*".into()),
            since_ms: 1_700_000_000_000,
            deadline_ms: Some(1_800_000_000_000),
            board_message: Some(1_100_000_000_000_000_000 + n),
        };
        let two: Vec<_> = (0..2).map(game).collect();
        let text = digest_text(&two);
        assert!(text.starts_with("Your move in 2 games"), "{text}");
        assert!(text.contains("played 6c3>1221* <t:1700000000:R> · time runs out"));
        assert!(!text.contains("more"), "{text}");
        let outside = DigestGame {
            guild: 0,
            ..game(3)
        };
        let text = digest_text(&[outside]);
        assert!(
            text.contains(
                "- [a game in a DM](https://discord.com/channels/@me/1000000000000000003) vs"
            ),
            "{text}"
        );
        let many: Vec<_> = (0..60).map(game).collect();
        let text = digest_text(&many);
        assert!(text.chars().count() <= MAX_CONTENT, "{}", text.len());
        assert!(text.ends_with("more: /mygames in each server"), "{text}");
    }

    #[test]
    fn escaping_shows_names_as_typed_and_breaks_mentions() {
        assert_eq!(escape("**bold** _x_"), "\\*\\*bold\\*\\* \\_x\\_");
        assert_eq!(escape("<@&123> <#5>"), "\\<@&123> \\<#5>");
        assert_eq!(
            escape("hi @everyone @here"),
            "hi @\u{200B}everyone @\u{200B}here"
        );
        assert_eq!(
            escape("# big\n> quote\n- item"),
            "\\# big\n\\> quote\n\\- item"
        );
        assert_eq!(
            escape("alice played 2c3>11 (R-0)"),
            "alice played 2c3>11 (R-0)",
            "mid-line markers stay readable"
        );
    }

    #[test]
    fn a_long_announcement_keeps_its_table_and_mentions_whole() {
        let text = "Round 1: someone 1-0 someone else. ".repeat(80);
        let tail = format!("\n```\n{}```\n<@1> <@2>", "row\n".repeat(100));
        let content = fit_before(text, &tail);
        assert_eq!(content.chars().count(), MAX_CONTENT);
        assert!(content.ends_with(&tail));
        assert!(content.contains("…\n```"));
    }

    #[test]
    fn long_text_is_cut_to_discords_limit() {
        let long = "é".repeat(3000);
        let cut = fit(long);
        assert_eq!(cut.chars().count(), MAX_CONTENT);
        assert!(cut.ends_with('…'));
        assert_eq!(fit("short".into()), "short");
    }
}
