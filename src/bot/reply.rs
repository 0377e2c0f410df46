//! Service outcomes as Discord messages: text with mentions, the board picture (alt text in the
//! attachment description), and at the end of a game its GIF, PTN file and link.

use crate::service::{Outcome, Service};
use poise::serenity_prelude as serenity;
use std::sync::Arc;
use std::time::Duration;

/// The buttons that go with an outcome.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Buttons {
    None,
    Challenge,
    Undo,
    Draw,
    Rematch,
}

pub struct Parts {
    pub content: String,
    pub files: Vec<serenity::CreateAttachment>,
    pub components: Vec<serenity::CreateActionRow>,
}

fn button(id: &str, label: &str, style: serenity::ButtonStyle) -> serenity::CreateButton {
    serenity::CreateButton::new(format!("bredon:{id}"))
        .label(label)
        .style(style)
}

fn components(buttons: Buttons) -> Vec<serenity::CreateActionRow> {
    use serenity::ButtonStyle::{Danger, Primary, Secondary, Success};
    let row = match buttons {
        Buttons::None => return Vec::new(),
        Buttons::Challenge => vec![
            button("accept", "Accept", Success),
            button("decline", "Decline", Danger),
            button("cancel", "Cancel", Secondary),
        ],
        Buttons::Undo => vec![
            button("undo-yes", "Allow undo", Success),
            button("undo-no", "Refuse", Danger),
        ],
        Buttons::Draw => vec![
            button("draw-yes", "Accept draw", Success),
            button("draw-no", "Decline", Danger),
        ],
        Buttons::Rematch => vec![button("rematch", "Rematch", Primary)],
    };
    vec![serenity::CreateActionRow::Buttons(row)]
}

/// Builds the message; the pictures are drawn on a blocking thread, off the async workers.
pub async fn parts(outcome: Outcome, buttons: Buttons) -> Parts {
    let mut content = outcome.text.clone();
    if let Some(f) = &outcome.finished {
        for (player, rating, change) in &f.ratings {
            content.push_str(&format!(
                "\n{} is now rated {rating:.0} ({change:+.0}).",
                player.name
            ));
        }
        let [(a, pa), (b, pb)] = &f.series;
        if pa + pb > 0 {
            content.push_str(&format!("\nSeries: {} {pa} – {pb} {}.", a.name, b.name));
        }
        content.push_str(&format!("\nReplay: <{}>", f.link));
    }
    if !outcome.ping.is_empty() {
        let mentions: Vec<String> = outcome
            .ping
            .iter()
            .map(|p| format!("<@{}>", p.id))
            .collect();
        content.push_str(&format!("\n{}", mentions.join(" ")));
    }
    let buttons = if outcome.finished.is_some() {
        Buttons::Rematch
    } else {
        buttons
    };
    let files = tokio::task::spawn_blocking(move || {
        let mut files = Vec::new();
        if let Some(board) = &outcome.board {
            files.push(
                serenity::CreateAttachment::bytes(board.png(), "board.png")
                    .description(board.alt_text()),
            );
            if outcome.finished.is_some() {
                let names = [
                    board.players[0].name.as_str(),
                    board.players[1].name.as_str(),
                ];
                let theme = crate::render::Theme::named(&board.theme).unwrap_or_default();
                files.push(serenity::CreateAttachment::bytes(
                    crate::render::render_gif(&board.game, names, &theme),
                    "game.gif",
                ));
            }
        }
        if let Some(f) = &outcome.finished {
            files.push(serenity::CreateAttachment::bytes(
                f.ptn.clone().into_bytes(),
                "game.ptn",
            ));
        }
        files
    })
    .await
    .unwrap_or_default();
    Parts {
        content,
        files,
        components: components(buttons),
    }
}

pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// Posts reminders, time-outs and expired challenges. Due times live in the store, so a restart
/// picks up where the last process stopped; each fires once (the service stores it first).
pub async fn timer_loop(http: Arc<serenity::Http>, service: Arc<Service>, every: Duration) {
    let mut interval = tokio::time::interval(every);
    loop {
        interval.tick().await;
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
            let p = parts(event.outcome, Buttons::None).await;
            let message = serenity::CreateMessage::new()
                .content(p.content)
                .add_files(p.files)
                .components(p.components);
            if let Err(e) = serenity::ChannelId::new(event.channel)
                .send_message(&http, message)
                .await
            {
                tracing::warn!(channel = event.channel, error = %e, "could not post a timer event");
            }
        }
    }
}
