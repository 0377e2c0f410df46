//! The custom-id codec of buttons and forms: `bredon:<action>:<id>:<seq>` names the question a
//! button answers and its version, so an old button cannot answer today's question.

use crate::service::{Answer, Prompt};
use poise::serenity_prelude as serenity;

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
        Prompt::Puzzle { .. } => &[
            ("puzzle-move", Answer::Move, "Move"),
            ("puzzle-hint", Answer::Hint, "Hint"),
            ("puzzle-give-up", Answer::GiveUp, "Give up"),
        ],
    }
}

fn version(prompt: Prompt) -> (u64, u64) {
    match prompt {
        Prompt::Challenge { id } => (id, 0),
        Prompt::Undo { game, seq } | Prompt::Draw { game, seq } => (game, seq),
        Prompt::Rematch { game } => (game, 0),
        Prompt::Board { game, position } | Prompt::Resign { game, position } => (game, position),
        Prompt::Puzzle { puzzle, seq } => (puzzle.into(), seq),
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
        "puzzle-move" | "puzzle-hint" | "puzzle-give-up" => Prompt::Puzzle {
            puzzle: u32::try_from(id).ok()?,
            seq,
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

/// "On the web": a link to a page of Bredon's web pages. A link button sends Bredon no
/// interaction, so it works as long as the page does.
fn web_button(url: &str) -> serenity::CreateButton {
    serenity::CreateButton::new_link(url).label("On the web")
}

/// `rows` with an "On the web" button to `url`: beside the last row's buttons while it has
/// room, else in a row of its own.
pub fn with_web_link(
    mut rows: Vec<serenity::CreateActionRow>,
    url: &str,
) -> Vec<serenity::CreateActionRow> {
    match rows.last_mut() {
        Some(serenity::CreateActionRow::Buttons(row)) if row.len() < 5 => row.push(web_button(url)),
        _ => rows.push(serenity::CreateActionRow::Buttons(vec![web_button(url)])),
    }
    rows
}

/// The address of the link button on `message`, if it has one: kept when its other buttons
/// are spent.
pub fn web_link_of(message: &serenity::Message) -> Option<String> {
    message
        .components
        .iter()
        .flat_map(|row| &row.components)
        .find_map(|c| match c {
            serenity::ActionRowComponent::Button(serenity::Button {
                data: serenity::ButtonKind::Link { url },
                ..
            }) => Some(url.clone()),
            _ => None,
        })
}

/// The custom id of a board's Move button, which is also its modal's.
pub fn move_id(prompt: Prompt) -> String {
    match prompt {
        Prompt::Puzzle { .. } => custom_id("puzzle-move", prompt),
        _ => custom_id("board-move", prompt),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn custom_ids_round_trip_and_old_ones_are_unknown() {
        for prompt in [
            Prompt::Challenge { id: 7 },
            Prompt::Undo { game: 3, seq: 9 },
            Prompt::Draw { game: 3, seq: 10 },
            Prompt::Rematch { game: u64::MAX },
            Prompt::Puzzle { puzzle: 12, seq: 3 },
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
}
