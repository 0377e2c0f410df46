//! Service outcomes as Discord messages. Every message holds escaped text (a name is shown as
//! typed and pings no one), at most 2000 characters, `allowed_mentions` listing exactly the users
//! it means to ping, and buttons whose custom ids name the question and its version. A finished
//! game takes two messages: the result with the final board (pinging both players), then its
//! record (GIF, PTN file, link, ratings), which may take a while to draw.

use crate::service::{Answer, Outcome, Prompt, Service};
use poise::serenity_prelude as serenity;
use std::sync::Arc;
use std::time::Duration;

/// Discord's limit on a message's content (message resource, "Create Message": content is up to
/// 2000 characters).
pub const MAX_CONTENT: usize = 2000;

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

    pub fn followup(self) -> serenity::CreateInteractionResponseFollowup {
        serenity::CreateInteractionResponseFollowup::new()
            .allowed_mentions(self.allowed_mentions())
            .content(self.content)
            .add_files(self.files)
            .components(self.components)
    }
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

/// The buttons that answer a prompt, each named by its custom id `bredon:<action>:<id>:<seq>`.
fn answers(prompt: Prompt) -> &'static [(&'static str, Answer, &'static str)] {
    match prompt {
        Prompt::Challenge { .. } => &[
            ("accept", Answer::Accept, "Accept"),
            ("decline", Answer::Decline, "Decline"),
            ("cancel", Answer::Cancel, "Cancel"),
        ],
        Prompt::Undo { .. } => &[
            ("undo-yes", Answer::Agree, "Allow undo"),
            ("undo-no", Answer::Refuse, "Refuse undo"),
        ],
        Prompt::Draw { .. } => &[
            ("draw-yes", Answer::Agree, "Accept draw"),
            ("draw-no", Answer::Refuse, "Decline draw"),
        ],
        Prompt::Rematch { .. } => &[("rematch", Answer::Rematch, "Rematch")],
        Prompt::Board { .. } => &[
            ("board-move", Answer::Move, "Move"),
            ("board-undo", Answer::Undo, "Undo"),
            ("board-draw", Answer::Draw, "Offer draw"),
            ("board-resign", Answer::Resign, "Resign"),
            ("board-moves", Answer::Moves, "Legal moves"),
            ("board-refresh", Answer::Refresh, "Refresh"),
        ],
        Prompt::Resign { .. } => &[("resign-yes", Answer::Agree, "Yes, resign")],
    }
}

fn version(prompt: Prompt) -> (u64, u64) {
    match prompt {
        Prompt::Challenge { id } => (id, 0),
        Prompt::Undo { game, seq } | Prompt::Draw { game, seq } => (game, seq),
        Prompt::Rematch { game } => (game, 0),
        Prompt::Board { game, position } | Prompt::Resign { game, position } => (game, position),
    }
}

fn custom_id(action: &str, prompt: Prompt) -> String {
    let (id, seq) = version(prompt);
    format!("bredon:{action}:{id}:{seq}")
}

/// The question and answer a button's custom id stands for; `None` for ids this version does not
/// write (buttons posted by an older Bredon).
pub fn parse_custom_id(custom_id: &str) -> Option<(Prompt, Answer)> {
    let mut parts = custom_id.strip_prefix("bredon:")?.split(':');
    let action = parts.next()?;
    let id: u64 = parts.next()?.parse().ok()?;
    let seq: u64 = parts.next()?.parse().ok()?;
    if parts.next().is_some() {
        return None;
    }
    let prompt = match action {
        "accept" | "decline" | "cancel" => Prompt::Challenge { id },
        "undo-yes" | "undo-no" => Prompt::Undo { game: id, seq },
        "draw-yes" | "draw-no" => Prompt::Draw { game: id, seq },
        "rematch" => Prompt::Rematch { game: id },
        "resign-yes" => Prompt::Resign {
            game: id,
            position: seq,
        },
        a if a.starts_with("board-") => Prompt::Board {
            game: id,
            position: seq,
        },
        _ => return None,
    };
    let answer = answers(prompt).iter().find(|(a, ..)| *a == action)?.1;
    Some((prompt, answer))
}

/// What a pressed button says, for the line added under its message.
pub fn label(prompt: Prompt, answer: Answer) -> &'static str {
    answers(prompt)
        .iter()
        .find(|(_, a, _)| *a == answer)
        .map_or("a button", |(.., l)| l)
}

/// The buttons for `prompt`; `disabled` once one of them was pressed.
pub fn buttons(prompt: Prompt, disabled: bool) -> Vec<serenity::CreateActionRow> {
    use serenity::ButtonStyle::{Danger, Primary, Secondary, Success};
    let row = answers(prompt)
        .iter()
        .map(|(action, answer, label)| {
            let style = match (prompt, answer) {
                (Prompt::Resign { .. }, _) | (_, Answer::Resign) => Danger,
                (_, Answer::Accept | Answer::Agree | Answer::Move) => Success,
                (_, Answer::Decline | Answer::Refuse) => Danger,
                (_, Answer::Rematch) => Primary,
                _ => Secondary,
            };
            serenity::CreateButton::new(custom_id(action, prompt))
                .label(*label)
                .style(style)
                .disabled(disabled)
        })
        .collect::<Vec<_>>();
    // Discord puts at most 5 buttons in a row (interactions/message-components).
    row.chunks(5)
        .map(|r| serenity::CreateActionRow::Buttons(r.to_vec()))
        .collect()
}

/// The custom id of a board's Move button, which is also its modal's.
pub fn move_id(prompt: Prompt) -> String {
    custom_id("board-move", prompt)
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
pub async fn announce(outcome: &Outcome) -> Post {
    if outcome.tournament.is_some() {
        super::tournament::NEWS.notify_one();
    }
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
    let content = fit_before(escape(&outcome.text), &tail);
    let components = match outcome.prompt {
        Some(p) if outcome.finished.is_none() => buttons(p, false),
        _ => Vec::new(),
    };
    let board = outcome.board.clone();
    let mut files: Vec<serenity::CreateAttachment> = tokio::task::spawn_blocking(move || {
        board.map(|b| {
            serenity::CreateAttachment::bytes(b.png(), "board.png").description(b.alt_text())
        })
    })
    .await
    .ok()
    .flatten()
    .into_iter()
    .collect();
    if let Some(image) = &outcome.image {
        files.push(
            serenity::CreateAttachment::bytes(image.png.clone(), image.file)
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

/// The line with a game's PTN Ninja link, if it fits in a message that already holds `used`
/// characters; otherwise a sentence pointing at the attached PTN file.
pub fn link_line(link: &str, used: usize) -> String {
    let line = format!("Open in PTN Ninja: <{link}>");
    if used + line.chars().count() <= MAX_CONTENT {
        line
    } else {
        "This game is too long for a PTN Ninja link: open the attached game.ptn in PTN Ninja \
         (Add game, then choose the file)."
            .into()
    }
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

/// The record of a finished game: the GIF of the whole game, the PTN file, the PTN Ninja link if
/// it fits, ratings and series, and the rematch button. Pings no one.
pub async fn record(outcome: &Outcome) -> Option<Post> {
    let f = outcome.finished.clone()?;
    let mut lines = Vec::new();
    for (player, rating, change) in &f.ratings {
        lines.push(format!(
            "{} is now rated {rating:.0} ({change:+.0}).",
            escape(&player.name)
        ));
    }
    let [(a, pa), (b, pb)] = &f.series;
    if pa + pb > 0 {
        lines.push(format!(
            "Series: {} {pa} – {pb} {}.",
            escape(&a.name),
            escape(&b.name)
        ));
    }
    let mut content = lines.join("\n");
    if let Some(link) = &f.link {
        let used = content.chars().count() + 1;
        content.push('\n');
        content.push_str(&link_line(link, used));
    }
    let file = f.file;
    let board = outcome.board.clone();
    let ptn = f.ptn.clone().into_bytes();
    let files = tokio::task::spawn_blocking(move || {
        let mut files = Vec::new();
        if let Some(board) = board {
            files.push(serenity::CreateAttachment::bytes(board.gif(), "game.gif"));
        }
        files.push(serenity::CreateAttachment::bytes(ptn, file));
        files
    })
    .await
    .unwrap_or_default();
    Some(Post {
        content: fit(content),
        files,
        components: outcome.prompt.map_or(Vec::new(), |p| buttons(p, false)),
        mentions: Vec::new(),
    })
}

/// A link that opens a message (or, without one, a mention of the channel).
pub fn jump_link(guild: u64, channel: u64, message: Option<u64>) -> String {
    match message {
        Some(m) => format!("https://discord.com/channels/{guild}/{channel}/{m}"),
        None => format!("<#{channel}>"),
    }
}

/// After an outcome was posted in `channel` as `message`: remember the message if it shows a
/// live game's board (for the jump links of /games and /mygames), and send the direct messages
/// players asked for (`/notify dm:on`). A closed DM is logged and passed over.
pub async fn after_post(
    http: &serenity::Http,
    service: &Arc<Service>,
    channel: u64,
    outcome: &Outcome,
    message: Option<u64>,
) {
    let shows_board = matches!(outcome.prompt, Some(Prompt::Board { .. }));
    let direct = outcome.direct.clone();
    if direct.is_empty() && !(shows_board && message.is_some()) {
        return;
    }
    let s = Arc::clone(service);
    let wants_dm = !direct.is_empty();
    let guild = tokio::task::spawn_blocking(move || {
        if let (true, Some(id)) = (shows_board, message) {
            s.board_posted(channel, id)?;
        }
        // The server is needed only for the DM's jump link.
        let game = if wants_dm {
            s.store().game(channel)?
        } else {
            None
        };
        Ok::<_, crate::service::Refusal>(game.map_or(0, |g| g.guild))
    })
    .await;
    let guild = match guild {
        Ok(Ok(guild)) => guild,
        _ => return,
    };
    for player in direct {
        let text = format!(
            "It is your move in <#{channel}>: {}",
            jump_link(guild, channel, message)
        );
        let sent = async {
            let dm = serenity::UserId::new(player.id)
                .create_dm_channel(http)
                .await?;
            dm.id.send_message(http, Post::text(text).message()).await
        };
        if let Err(e) = sent.await {
            tracing::info!(user = player.id, error = %describe(&e), "no direct message");
        }
    }
}

pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// What Discord's answer to a request means for retrying it.
pub enum Failure {
    /// Worth another try: a 5xx, a 429, a broken connection.
    Transient,
    /// The channel is gone or closed to Bredon (403, 404): stop posting there.
    Gone,
    /// The request itself is wrong (other 4xx): retrying cannot help.
    Refused,
}

pub fn classify(error: &serenity::Error) -> Failure {
    match error {
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r)) => {
            match r.status_code.as_u16() {
                403 | 404 => Failure::Gone,
                429 | 500..=599 => Failure::Transient,
                _ => Failure::Refused,
            }
        }
        serenity::Error::Http(serenity::HttpError::Request(_)) | serenity::Error::Io(_) => {
            Failure::Transient
        }
        _ => Failure::Refused,
    }
}

/// A Discord error with Discord's own explanation (status, code, message, field errors).
pub fn describe(error: &serenity::Error) -> String {
    match error {
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r)) => {
            let mut text = format!(
                "Discord answered {} to {} {}: {} (code {})",
                r.status_code, r.method, r.url, r.error.message, r.error.code
            );
            for e in &r.error.errors {
                text.push_str(&format!("; {}: {}", e.path, e.message));
            }
            text
        }
        other => other.to_string(),
    }
}

/// Tries before a post is given up; waits between them double from `RETRY_FIRST`.
const TRIES: u32 = 5;
const RETRY_FIRST: Duration = Duration::from_millis(250);

/// Posts `post` in `channel`, retrying transient failures with backoff. The nonce makes Discord
/// return the first message instead of creating a second when a retry follows a post whose answer
/// was lost (message resource, "Create Message": `enforce_nonce`). A channel that is gone or
/// closed to Bredon stops its game's timers, logged once. The message, if the post arrived.
pub async fn deliver(
    http: &serenity::Http,
    service: &Arc<Service>,
    channel: u64,
    post: Post,
    nonce: u64,
) -> Option<u64> {
    let mut wait = RETRY_FIRST;
    for attempt in 1..=TRIES {
        let message = post
            .clone()
            .message()
            .nonce(serenity::Nonce::String(nonce.to_string()))
            .enforce_nonce(true);
        let error = match serenity::ChannelId::new(channel)
            .send_message(http, message)
            .await
        {
            Ok(message) => return Some(message.id.get()),
            Err(e) => e,
        };
        match classify(&error) {
            Failure::Transient if attempt < TRIES => {
                tracing::info!(channel, attempt, error = %describe(&error), "post failed; retrying");
                tokio::time::sleep(wait).await;
                wait *= 2;
            }
            Failure::Gone => {
                tracing::warn!(channel, error = %describe(&error), "channel gone or closed to Bredon; its game's timers stop");
                let s = Arc::clone(service);
                let _ = tokio::task::spawn_blocking(move || s.channel_gone(channel)).await;
                return None;
            }
            _ => {
                tracing::warn!(channel, error = %describe(&error), "post given up");
                return None;
            }
        }
    }
    None
}

/// Posts an outcome in its channel: the announcement, then the record of a finished game. Each
/// message has its own nonce, derived from `id`.
pub async fn deliver_outcome(
    http: &serenity::Http,
    service: &Arc<Service>,
    channel: u64,
    outcome: &Outcome,
    id: u64,
) {
    let Some(message) = deliver(http, service, channel, announce(outcome).await, id).await else {
        return;
    };
    after_post(http, service, channel, outcome, Some(message)).await;
    if let Some(record) = record(outcome).await {
        deliver(http, service, channel, record, id.wrapping_add(1)).await;
    }
}

/// Posts reminders, time-outs and expired challenges, and does the tournaments' work (their news
/// and their new games' threads), at every tick and whenever an outcome touched a tournament.
/// Due times and pending pairings live in the store, so a restart picks up where the last
/// process stopped; each fires once (the service stores it first).
pub async fn timer_loop(http: Arc<serenity::Http>, service: Arc<Service>, every: Duration) {
    let mut interval = tokio::time::interval(every);
    loop {
        tokio::select! {
            _ = interval.tick() => {}
            _ = super::tournament::NEWS.notified() => {}
        }
        let s = Arc::clone(&service);
        let events = match tokio::task::spawn_blocking(move || s.tick(now_ms())).await {
            Ok(Ok(events)) => events,
            Ok(Err(e)) => {
                tracing::warn!(error = %e, "timers");
                continue;
            }
            Err(e) => {
                tracing::error!(error = %e, "timer task failed");
                continue;
            }
        };
        for event in events {
            let (http, service) = (Arc::clone(&http), Arc::clone(&service));
            // Each channel on its own task: one slow retry never holds up the others.
            tokio::spawn(async move {
                deliver_outcome(&http, &service, event.channel, &event.outcome, event.id).await;
            });
        }
        super::tournament::work(&http, &service).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn custom_ids_round_trip_and_old_ones_are_unknown() {
        for prompt in [
            Prompt::Challenge { id: 7 },
            Prompt::Undo { game: 3, seq: 9 },
            Prompt::Draw { game: 3, seq: 10 },
            Prompt::Rematch { game: u64::MAX },
            Prompt::Board {
                game: 5,
                position: u64::MAX,
            },
            Prompt::Resign {
                game: 5,
                position: 1,
            },
        ] {
            for (action, answer, _) in answers(prompt) {
                let id = custom_id(action, prompt);
                assert!(id.len() <= 100, "Discord's custom_id limit: {id}");
                assert_eq!(parse_custom_id(&id), Some((prompt, *answer)));
            }
        }
        for old in [
            "bredon:accept",
            "bredon:undo-yes",
            "bredon:x:1:2",
            "other:accept:1:0",
        ] {
            assert_eq!(parse_custom_id(old), None, "{old}");
        }
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
