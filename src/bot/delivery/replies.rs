//! A handler's own answers to its interaction or message: the first answer to an interaction (a slash
//! command's, a button's, the Move form's), a deferral's "thinking" message, edits and deletions
//! of that answer, private follow-ups, the Move form itself, and a reply to a typed ply. Each is
//! owed to the asker alone or stands for a moment (a "thinking" message), so none is a letter:
//! a lost one is asked again by the user, never repeated here. Handlers hand over a `Post` and
//! the interaction's id and token; Discord's builders are made here and nowhere else.

use super::failure::{code, describe, discord_code};
use crate::bot::post::Post;
use crate::bot::{Context, Error};
use crate::service::Refusal;
use poise::serenity_prelude as serenity;
use serenity::builder::Builder;

/// An interaction as its answers name it: its id (which holds when it was made) and its token.
#[derive(Clone, Copy, Debug)]
pub struct Asked<'a> {
    pub id: u64,
    pub token: &'a str,
}

impl<'a> Asked<'a> {
    pub fn command(asked: &'a serenity::CommandInteraction) -> Asked<'a> {
        Asked {
            id: asked.id.get(),
            token: &asked.token,
        }
    }

    pub fn press(press: &'a serenity::ComponentInteraction) -> Asked<'a> {
        Asked {
            id: press.id.get(),
            token: &press.token,
        }
    }

    pub fn form(submit: &'a serenity::ModalInteraction) -> Asked<'a> {
        Asked {
            id: submit.id.get(),
            token: &submit.token,
        }
    }
}

/// `post` as a slash command's answer, for the user alone when `private`. Through poise, which
/// knows whether the command was answered already (a deferral, an earlier answer): a later
/// answer is then a follow-up.
pub async fn reply(ctx: Context<'_>, post: Post, private: bool) -> Result<(), Error> {
    ctx.send(post.reply().ephemeral(private)).await?;
    Ok(())
}

/// A slash command's refusal, for the user alone.
pub async fn refuse(ctx: Context<'_>, refusal: Refusal) -> Result<(), Error> {
    reply(ctx, Post::refusal(&refusal), true).await
}

/// A slash command's "Bredon is thinking…", seen by the user alone when `private`: the answer
/// edits it (or, privately, follows it).
pub async fn defer(ctx: Context<'_>, private: bool) -> Result<(), serenity::Error> {
    match private {
        true => ctx.defer_ephemeral().await,
        false => ctx.defer().await,
    }
}

/// `post` as the first answer to `asked` (a button, the Move form, a command Bredon no longer
/// has), for the asker alone when `private`.
pub async fn answer_at_once(
    http: &serenity::Http,
    asked: Asked<'_>,
    post: Post,
    private: bool,
) -> serenity::Result<()> {
    let message = response_message(post).ephemeral(private);
    respond(
        http,
        asked,
        serenity::CreateInteractionResponse::Message(message),
    )
    .await
}

/// A button press acknowledged with nothing shown (DEFERRED_UPDATE_MESSAGE: no loading state,
/// and the pressed message's files stay, which UPDATE_MESSAGE would clear).
pub async fn acknowledge(http: &serenity::Http, asked: Asked<'_>) -> serenity::Result<()> {
    respond(
        http,
        asked,
        serenity::CreateInteractionResponse::Acknowledge,
    )
    .await
}

/// "Bredon is thinking…" as the first answer to `asked`, seen by the asker alone when `private`.
pub async fn defer_answer(
    http: &serenity::Http,
    asked: Asked<'_>,
    private: bool,
) -> serenity::Result<()> {
    let thinking = serenity::CreateInteractionResponseMessage::new().ephemeral(private);
    respond(
        http,
        asked,
        serenity::CreateInteractionResponse::Defer(thinking),
    )
    .await
}

/// A form of one-line fields, as the first answer to a button.
pub struct Form {
    pub id: String,
    pub title: &'static str,
    pub fields: Vec<Field>,
}

/// A field of a form.
pub struct Field {
    pub id: &'static str,
    pub label: &'static str,
    pub placeholder: &'static str,
    pub max_length: u16,
    pub required: bool,
}

/// `form` as the first answer to `asked`.
pub async fn show_form(
    http: &serenity::Http,
    asked: Asked<'_>,
    form: Form,
) -> serenity::Result<()> {
    let rows = form.fields.into_iter().map(|f| {
        let input = serenity::CreateInputText::new(serenity::InputTextStyle::Short, f.label, f.id)
            .placeholder(f.placeholder)
            .max_length(f.max_length);
        // Discord's default is required.
        let input = match f.required {
            true => input,
            false => input.required(false),
        };
        serenity::CreateActionRow::InputText(input)
    });
    let modal = serenity::CreateModal::new(form.id, form.title).components(rows.collect());
    respond(
        http,
        asked,
        serenity::CreateInteractionResponse::Modal(modal),
    )
    .await
}

/// No choices, for an autocomplete Bredon cannot serve (a command it no longer has).
pub async fn offer_no_choices(http: &serenity::Http, asked: Asked<'_>) -> serenity::Result<()> {
    let none = serenity::CreateAutocompleteResponse::new();
    respond(
        http,
        asked,
        serenity::CreateInteractionResponse::Autocomplete(none),
    )
    .await
}

async fn respond(
    http: &serenity::Http,
    asked: Asked<'_>,
    response: serenity::CreateInteractionResponse,
) -> serenity::Result<()> {
    let id = serenity::InteractionId::new(asked.id);
    response.execute(http, (id, asked.token)).await
}

/// The interaction with `token`'s first answer made into `post`; the message's id.
pub async fn edit_answer(http: &serenity::Http, token: &str, post: Post) -> serenity::Result<u64> {
    let edited = answer_edit(post).execute(http, token).await?;
    Ok(edited.id.get())
}

/// The interaction with `token`'s first answer deleted (a "thinking" message that no answer
/// will fill).
pub async fn delete_answer(http: &serenity::Http, token: &str) -> serenity::Result<()> {
    http.delete_original_interaction_response(token).await
}

/// `post` for the asker alone, after the interaction with `token` was answered.
pub async fn follow_privately(
    http: &serenity::Http,
    token: &str,
    post: Post,
) -> serenity::Result<()> {
    private_followup(post).execute(http, (None, token)).await?;
    Ok(())
}

/// A post as the first answer to an interaction.
pub(super) fn response_message(post: Post) -> serenity::CreateInteractionResponseMessage {
    serenity::CreateInteractionResponseMessage::new()
        .allowed_mentions(post.allowed_mentions())
        .content(post.content)
        .add_files(post.files)
        .components(post.components)
}

/// A post as an ephemeral follow-up to an interaction: every private word after the first
/// answer (a refusal, an aside, a private puzzle's answer) is made by this one builder.
fn private_followup(post: Post) -> serenity::CreateInteractionResponseFollowup {
    serenity::CreateInteractionResponseFollowup::new()
        .allowed_mentions(post.allowed_mentions())
        .content(post.content)
        .add_files(post.files)
        .components(post.components)
        .ephemeral(true)
}

/// An interaction's first answer made into `post`, its files added. An edit notifies no one,
/// so it allows no mention: a deferred announcement's pings follow as a message of their own.
pub(super) fn answer_edit(post: Post) -> serenity::EditInteractionResponse {
    let mut edit = serenity::EditInteractionResponse::new()
        .content(post.content)
        .components(post.components)
        .allowed_mentions(serenity::CreateAllowedMentions::new());
    for file in post.files {
        edit = edit.new_attachment(file);
    }
    edit
}

/// A ply typed as a message in `channel` (message `message` by `author`) that was not played.
#[derive(Clone, Copy, Debug)]
pub struct TypedPly {
    pub channel: u64,
    pub message: u64,
    pub author: u64,
}

/// Why a typed ply was not played (`text`), as a reply to it (no ephemeral answers to a
/// message) that pings no one. A reply needs Read Message History (resources/message, "Create
/// Message", 160002); without it, a message of its own that mentions (so pings) the player.
pub async fn answer_typed_ply(http: &serenity::Http, ply: TypedPly, text: String) {
    let channel = serenity::ChannelId::new(ply.channel);
    let replied = serenity::MessageId::new(ply.message);
    let reply = Post::text(text.clone())
        .message()
        .reference_message((channel, replied));
    let error = match channel.send_message(http, reply).await {
        Ok(_) => return,
        Err(e) => e,
    };
    if discord_code(&error) != Some(code::REPLY_WITHOUT_HISTORY) {
        tracing::info!(channel = ply.channel, error = %describe(&error), "could not answer a typed ply");
        return;
    }
    let named = Post::pinging(vec![ply.author], &text).message();
    if let Err(e) = channel.send_message(http, named).await {
        tracing::info!(channel = ply.channel, error = %describe(&e), "could not answer a typed ply");
    }
}
