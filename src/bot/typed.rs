//! Plies typed as plain messages in a game's channel, as takBot players are used to: read where
//! the server turned typed plies on (`/settings typed_plies:`) and this process asks Discord for
//! messages (`BREDON_TYPED_PLIES`). A ply by the player to move is played and announced like
//! `/move`; a ply that cannot be played is answered with a reply saying why; anything else is
//! talk, and Bredon stays quiet.

use super::blocking::blocking;
use super::delivery::publish::Via;
use super::delivery::replies::{answer_typed_ply, TypedPly};
use super::post::refusal_text;
use super::respond::player_ref;
use super::{Data, TypedPlies};
use crate::service::Ctx;
use poise::serenity_prelude as serenity;

/// The longest message worth reading as a ply (`6c3>1113'!?` and a mention fit).
const LONGEST_PLY: usize = 48;

pub async fn on_message(ctx: &serenity::Context, message: &serenity::Message, data: &Data) {
    let Some(guild) = message.guild_id else {
        return;
    };
    if message.author.bot || data.typed_plies == TypedPlies::Off {
        return;
    }
    let Some(text) = ply_text(
        &message.content,
        ctx.cache.current_user().id.get(),
        data.typed_plies,
    ) else {
        return;
    };
    let nick = message.member.as_ref().and_then(|m| m.nick.as_deref());
    let sctx = Ctx {
        guild: guild.get(),
        channel: message.channel_id.get(),
        user: player_ref(&message.author, nick),
        now_ms: crate::clock::now_ms(),
        moderator: false,
        request: None,
    };
    let channel = sctx.channel;
    let played = blocking(&data.service, move |s| s.typed_ply(&sctx, &text)).await;
    let publisher = &data.publisher;
    match played {
        Ok(None) => tracing::debug!(channel, "a message read as talk"),
        Ok(Some(outcome)) => {
            let ready = publisher.ready(outcome).await;
            if let Err(e) = publisher.publish(channel, ready, Via::Channel).await {
                tracing::info!(channel, error = %e, "a typed ply is not announced yet");
            }
        }
        Err(refusal) => {
            let ply = TypedPly {
                channel,
                message: message.id.get(),
                author: message.author.id.get(),
            };
            answer_typed_ply(&publisher.http, ply, refusal_text(&refusal)).await
        }
    }
}

/// The ply a message may hold: its whole text, short and on one line, after a leading mention
/// of Bredon (which `Mention` requires: Discord shows Bredon no other message's text then).
fn ply_text(content: &str, me: u64, mode: TypedPlies) -> Option<String> {
    let content = content.trim();
    let mention = [format!("<@{me}>"), format!("<@!{me}>")]
        .into_iter()
        .find_map(|m| content.strip_prefix(m.as_str()));
    let text = match (mention, mode) {
        (Some(rest), _) => rest.trim(),
        (None, TypedPlies::Plain) => content,
        (None, _) => return None,
    };
    let one_word = !text.is_empty() && !text.contains(char::is_whitespace);
    (one_word && text.chars().count() <= LONGEST_PLY).then(|| text.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ply_is_one_short_word_after_an_optional_mention() {
        let me = 42;
        assert_eq!(
            ply_text(" c3 ", me, TypedPlies::Plain).as_deref(),
            Some("c3")
        );
        assert_eq!(
            ply_text("<@42> c3", me, TypedPlies::Plain).as_deref(),
            Some("c3")
        );
        assert_eq!(
            ply_text("<@!42>3c3>12", me, TypedPlies::Mention).as_deref(),
            Some("3c3>12")
        );
        assert_eq!(
            ply_text("c3", me, TypedPlies::Mention),
            None,
            "no mention, no text"
        );
        assert_eq!(
            ply_text("<@7> c3", me, TypedPlies::Mention),
            None,
            "someone else"
        );
        assert_eq!(ply_text("nice move", me, TypedPlies::Plain), None);
        assert_eq!(ply_text("<@42>", me, TypedPlies::Plain), None);
        assert_eq!(ply_text(&"a".repeat(49), me, TypedPlies::Plain), None);
    }
}
