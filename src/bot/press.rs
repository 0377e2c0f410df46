//! Buttons and the Move form: answered at once (Discord's 3 seconds), checked by the service,
//! and their outcomes handed to the publisher.

use super::blocking::blocking;
use super::buttons::{buttons, label, move_id, parse_custom_id, web_link_of, with_web_link};
use super::checks::{is_thread, missing_permissions};
use super::delivery::failure::{classify, describe, Failure};
use super::delivery::posting::created_ms;
use super::delivery::publish::Via;
use super::delivery::replies::{self, Asked, Field, Form};
use super::post::{escape, fit, refusal_text, Post, MAX_CONTENT};
use super::respond::{interaction_ctx, respond_to, window_nearly_gone, Asker, Foresight, Work};
use super::{Data, Error};
use crate::game::Kind;
use crate::service::{Answer, Ctx, Deferral, Prompt, Refusal, RequestToken};
use poise::serenity_prelude as serenity;
use std::sync::Arc;

/// Buttons whose ids an older Bredon wrote no longer say which request they answer.
const OLD_BUTTON: &str = "this button comes from an older version of Bredon and no longer works; \
     use /accept, /decline, /cancel, /undo, /draw or /rematch instead";

/// A button press: acknowledged at once (DEFERRED_UPDATE_MESSAGE: no loading state, and the
/// message's files stay, which serenity's UPDATE_MESSAGE would clear), answered by the service,
/// then the outcome follows as a new message in the channel that pings, and the pressed message
/// shows who pressed what with its buttons disabled. The outcome is stored, so a failed edit
/// of the pressed message never loses it. Outside servers the outcome is written into the
/// pressed message, after who pressed what (`delivery/answers.rs`).
pub async fn on_press(press: &serenity::ComponentInteraction, data: &Data) -> Result<(), Error> {
    let http = data.publisher.http.as_ref();
    let asked = Asked::press(press);
    let Some((prompt, answer)) = parse_custom_id(&press.data.custom_id) else {
        let old = Post::refusal(&Refusal(OLD_BUTTON.into()));
        replies::answer_at_once(http, asked, old, true).await?;
        return Ok(());
    };
    let in_thread = is_thread(press.channel.as_ref().map(|c| c.kind));
    // Outside servers Bredon answers, which needs no permission in the channel.
    let have = press.app_permissions.filter(|_| press.guild_id.is_some());
    if let Some(refusal) = missing_permissions(have, in_thread, false) {
        replies::answer_at_once(http, asked, Post::refusal(&refusal), true).await?;
        return Ok(());
    }
    if let (Prompt::Board { .. }, Answer::Resign | Answer::Moves | Answer::Move)
    | (Prompt::Puzzle { .. }, Answer::Move) = (prompt, answer)
    {
        return answer_privately(press, data, prompt, answer).await;
    }
    if let Err(e) = replies::acknowledge(http, asked).await {
        // A reply lost on its way back (a 5xx, a dropped connection): Discord may have taken
        // the acknowledgement, and then the player sees nothing if Bredon stops here. The press
        // is answered as if it did; its outcome is stored and posted as any other.
        if classify(&e) != Failure::Uncertain {
            return Err(e.into());
        }
        tracing::info!(error = %describe(&e), "a press's acknowledgement may have gone through; answered");
    }
    if press.guild_id.is_none() {
        // Outside servers the outcome can only follow this press (`delivery/answers.rs`).
        let (channel, issued_ms) = (press.channel_id.get(), created_ms(press.id.get()));
        data.publisher
            .answers
            .acknowledged(channel, &press.token, issued_ms);
    }
    let sctx = press_ctx(press);
    let who = sctx.user.name.clone();
    let outcome = match blocking(&data.service, move |s| s.answer(&sctx, prompt, answer)).await {
        Ok(outcome) => data.publisher.ready(outcome).await,
        Err(refusal) => {
            replies::follow_privately(http, &press.token, Post::refusal(&refusal)).await?;
            return Ok(());
        }
    };
    let channel = press.channel_id.get();
    // A private puzzle's answer follows the press privately; every other one is posted.
    let via = match outcome.outcome.private {
        true => Via::Followup(&press.token),
        false => Via::Channel,
    };
    // Outside servers the outcome is written into the pressed message (`delivery/answers.rs`):
    // who pressed what goes in first, so that the outcome follows it.
    let outside = press.guild_id.is_none();
    if outside {
        show_pressed(http, press, prompt, answer, &who).await?;
    }
    let published = data.publisher.publish(channel, outcome, via).await;
    if !outside {
        show_pressed(http, press, prompt, answer, &who).await?;
    }
    published
}

/// The pressed message shows who pressed what, with its buttons disabled: a question's buttons
/// are spent once answered; a board keeps its buttons until it is old.
async fn show_pressed(
    http: &serenity::Http,
    press: &serenity::ComponentInteraction,
    prompt: Prompt,
    answer: Answer,
    who: &str,
) -> Result<(), Error> {
    if matches!(prompt, Prompt::Board { .. }) {
        return Ok(());
    }
    let pressed = format!(
        "{}\n*{} pressed {}.*",
        press.message.content,
        escape(who),
        label(prompt, answer)
    );
    let components = match web_link_of(&press.message) {
        Some(url) => with_web_link(buttons(prompt, true), &url),
        None => buttons(prompt, true),
    };
    let shown = Post {
        components,
        ..Post::text(pressed)
    };
    replies::edit_answer(http, &press.token, shown).await?;
    Ok(())
}

fn press_ctx(press: &serenity::ComponentInteraction) -> Ctx {
    interaction_ctx(
        press.guild_id,
        press.channel_id,
        &press.user,
        press.member.as_ref(),
    )
}

/// Board buttons whose answer is for the presser alone: the legal plies, "really resign?", or a
/// form to type a ply in.
async fn answer_privately(
    press: &serenity::ComponentInteraction,
    data: &Data,
    prompt: Prompt,
    answer: Answer,
) -> Result<(), Error> {
    // A press that arrived late is acknowledged privately first (a form cannot follow that:
    // its answer is the form itself, and a lost one changes nothing).
    let (http, asked) = (data.publisher.http.as_ref(), Asked::press(press));
    let late = answer != Answer::Move && window_nearly_gone(press.id.get());
    if late {
        replies::defer_answer(http, asked, true).await?;
    }
    let sctx = press_ctx(press);
    let checked = blocking(&data.service, move |s| {
        let kind = s.check_board(&sctx, prompt)?;
        match answer {
            Answer::Moves => s.legal_plies(sctx.channel).map(|plies| (kind, Some(plies))),
            _ => Ok((kind, None)),
        }
    })
    .await;
    if let (Ok((kind, _)), Answer::Move) = (&checked, answer) {
        // The form shows how a ply of this game is written.
        let (label, example) = match kind {
            Kind::Tak => ("Your ply (PTN)", "c3, Sd4, Cb2, 3c3>12"),
            Kind::Takat => ("Your ply", "b1 to enter, a1-b2 to move"),
        };
        let ply = Field {
            id: "ply",
            label,
            placeholder: example,
            max_length: 32,
            required: true,
        };
        let mut fields = vec![ply];
        if let Prompt::Board { .. } = prompt {
            fields.push(then_field());
        }
        let form = Form {
            id: move_id(prompt),
            title: "Your move",
            fields,
        };
        replies::show_form(http, asked, form).await?;
        return Ok(());
    }
    let (content, components) = match (checked.map(|(_, plies)| plies), prompt) {
        (Err(refusal), _) => (refusal_text(&refusal), Vec::new()),
        (Ok(Some(plies)), _) => (fit(plies_by_square(&plies)), Vec::new()),
        (Ok(None), Prompt::Board { game, position }) => (
            "Resign this game? Your opponent wins; this cannot be taken back.".into(),
            buttons(Prompt::Resign { game, position }, false),
        ),
        (Ok(None), _) => (
            "✋ that button does not belong to a board".into(),
            Vec::new(),
        ),
    };
    let answer = Post {
        components,
        ..Post::text(content)
    };
    match late {
        true => drop(replies::edit_answer(http, &press.token, answer).await?),
        false => replies::answer_at_once(http, asked, answer, true).await?,
    }
    Ok(())
}

/// A ply typed in the Move form: played on the board the form was opened from, and answered like
/// `/move`, with a new message that pings the player to move.
pub async fn on_move_modal(submit: &serenity::ModalInteraction, data: &Data) -> Result<(), Error> {
    let field = |name: &str| {
        submit
            .data
            .components
            .iter()
            .flat_map(|row| &row.components)
            .find_map(|c| match c {
                serenity::ActionRowComponent::InputText(t) if t.custom_id == name => {
                    t.value.clone()
                }
                _ => None,
            })
    };
    let typed = field("ply").unwrap_or_default();
    let then = field("then");
    let prompt = parse_custom_id(&submit.data.custom_id)
        .map(|(prompt, _)| prompt)
        .filter(|p| matches!(p, Prompt::Board { .. } | Prompt::Puzzle { .. }));
    let in_thread = is_thread(submit.channel.as_ref().map(|c| c.kind));
    let refused = match prompt {
        None => Some(Refusal(OLD_BUTTON.into())),
        // Outside servers Bredon answers, which needs no permission in the channel.
        Some(_) => {
            let have = submit.app_permissions.filter(|_| submit.guild_id.is_some());
            missing_permissions(have, in_thread, false)
        }
    };
    let (Some(prompt), None) = (prompt, &refused) else {
        let refusal = refused.unwrap_or_else(|| Refusal(OLD_BUTTON.into()));
        let http = data.publisher.http.as_ref();
        replies::answer_at_once(http, Asked::form(submit), Post::refusal(&refusal), true).await?;
        return Ok(());
    };
    let sctx = Ctx {
        request: Some(RequestToken {
            token: submit.token.clone(),
            issued_ms: created_ms(submit.id.get()),
            deferral: Deferral::default(),
        }),
        ..interaction_ctx(
            submit.guild_id,
            submit.channel_id,
            &submit.user,
            submit.member.as_ref(),
        )
    };
    let foresight = Foresight::asking().answering(&sctx);
    let told = foresight.clone();
    let publisher = Arc::clone(&data.publisher);
    let work: Work = tokio::spawn(async move {
        let outcome = blocking(&publisher.service, move |s| {
            s.check_board(&sctx, prompt)?;
            s.play_then(&sctx, &typed, then.as_deref(), |private| {
                told.learn(private)
            })
        })
        .await?;
        Ok(publisher.ready(outcome).await)
    });
    respond_to(Asker::Form { submit, data }, work, foresight).await
}

/// The Move form's second field: conditional plies kept with the ply (`/premove`'s line).
fn then_field() -> Field {
    Field {
        id: "then",
        label: "Then, if they answer (optional, private)",
        placeholder: "their reply, your answer (e3 d3 f3 d4); branches apart by ; (d4 c4)",
        max_length: 200,
        required: false,
    }
}

/// Legal plies grouped by the square they place on or move from, one line a square.
fn plies_by_square(plies: &[String]) -> String {
    let mut squares: Vec<(String, Vec<&str>)> = Vec::new();
    for ply in plies {
        let square: String = ply
            .trim_start_matches(['S', 'C'])
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .chars()
            .take(2)
            .collect();
        match squares.iter_mut().find(|(s, _)| *s == square) {
            Some((_, list)) => list.push(ply),
            None => squares.push((square, vec![ply])),
        }
    }
    squares.sort_by(|a, b| a.0.cmp(&b.0));
    let mut text = format!("{} legal plies:", plies.len());
    // Whole squares while they fit, then how many were left out and where to find them.
    let room = MAX_CONTENT - 100;
    for (i, (square, list)) in squares.iter().enumerate() {
        let line = format!("\n**{square}**: {}", list.join(" "));
        if text.chars().count() + line.chars().count() > room {
            let left: usize = squares[i..].iter().map(|(_, l)| l.len()).sum();
            text.push_str(&format!(
                "\n…and {left} more on {} more squares: type a square in /move to see its plies.",
                squares.len() - i
            ));
            break;
        }
        text.push_str(&line);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_list_of_plies_says_how_many_it_left_out() {
        // 8x8 with tall stacks: a square can have over a hundred spreads.
        let plies: Vec<String> = (0..64)
            .flat_map(|sq| {
                let square = format!("{}{}", (b'a' + sq / 8) as char, 1 + sq % 8);
                (0..40).map(move |n| format!("{}{square}>{}", 1 + n % 8, n))
            })
            .collect();
        let text = plies_by_square(&plies);
        assert!(text.chars().count() <= MAX_CONTENT, "{}", text.len());
        let shown = text.lines().filter(|l| l.starts_with("**")).count();
        let left = format!(
            "…and {} more on {} more squares",
            (64 - shown) * 40,
            64 - shown
        );
        assert!(
            text.ends_with("type a square in /move to see its plies."),
            "{text}"
        );
        assert!(text.contains(&left), "{text}");
    }

    #[test]
    fn legal_plies_are_grouped_by_square() {
        let plies: Vec<String> = ["a1", "Sa1", "b2", "a1>", "2b2<11", "Cb2"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(
            plies_by_square(&plies),
            "6 legal plies:\n**a1**: a1 Sa1 a1>\n**b2**: b2 2b2<11 Cb2"
        );
    }
}
