//! The handler path of slash commands: who acts where (the service's `Ctx`), the service called on
//! a blocking thread, refusals answered ephemerally, outcomes handed to the publisher.

use super::blocking::{blocking, failed_inside};
use super::checks::{is_moderator, may_post};
use super::data::interaction;
use super::delivery::failure::describe;
use super::delivery::posting::created_ms;
use super::delivery::publish::{Ready, Via};
use super::delivery::replies::{self, refuse, Asked};
use super::post::{escape, Post};
use super::{Context, Data, Error};
use crate::clock::now_ms;
use crate::service::{Ctx, Deferral, Outcome, Refusal, RequestToken, Service};
use crate::store::records::PlayerRef;
use poise::serenity_prelude as serenity;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::watch;

/// A player by the name the server knows them by: their nickname there, else their display
/// name, else their user name.
pub fn player_ref(user: &serenity::User, nick: Option<&str>) -> PlayerRef {
    let name = nick
        .or(user.global_name.as_deref())
        .unwrap_or(&user.name)
        .to_string();
    PlayerRef {
        id: user.id.get(),
        name,
    }
}

/// The player a command's user option names, by the nickname Discord resolved with it.
pub fn option_player(ctx: Context<'_>, user: &serenity::User) -> PlayerRef {
    let resolved = interaction(ctx).and_then(|i| i.data.resolved.members.get(&user.id));
    player_ref(user, resolved.and_then(|m| m.nick.as_deref()))
}

/// Who runs a slash command where; its answer may carry the outcome.
pub fn service_ctx(ctx: Context<'_>) -> Ctx {
    let member = interaction(ctx).and_then(|i| i.member.as_deref());
    Ctx {
        request: interaction(ctx).map(|i| RequestToken {
            token: i.token.clone(),
            issued_ms: created_ms(i.id.get()),
            deferral: Deferral::default(),
        }),
        ..interaction_ctx(ctx.guild_id(), ctx.channel_id(), ctx.author(), member)
    }
}

/// The service context of an interaction: who acts where, now, and whether as a moderator.
pub fn interaction_ctx(
    guild: Option<serenity::GuildId>,
    channel: serenity::ChannelId,
    user: &serenity::User,
    member: Option<&serenity::Member>,
) -> Ctx {
    Ctx {
        guild: guild.map_or(0, |g| g.get()),
        channel: channel.get(),
        user: player_ref(user, member.and_then(|m| m.nick.as_deref())),
        now_ms: now_ms(),
        moderator: is_moderator(member.and_then(|m| m.permissions)),
        request: None,
    }
}

pub type Work = tokio::task::JoinHandle<Result<Ready, Refusal>>;

/// Who an interaction's answer is for: a slow answer is deferred where the answer will be, so a
/// private one never shows "thinking" in the channel.
#[derive(Clone, Copy, PartialEq)]
enum Audience {
    Channel,
    /// The asker alone (an ephemeral answer).
    Asker,
}

/// What the work knows of its answer's audience before its slow part (Bredon's reply): told
/// inside the same crossing to the service, so by the time a deferral is due it is mostly known.
/// With it, the request's `Deferral`, which the work's letter reads as it is written.
#[derive(Clone)]
pub struct Foresight {
    audience: Arc<watch::Sender<Option<Audience>>>,
    deferral: Deferral,
}

impl Foresight {
    fn known(audience: Audience) -> Foresight {
        Foresight {
            audience: Arc::new(watch::Sender::new(Some(audience))),
            // An outcome decided before: its letter is written.
            deferral: Deferral::written(),
        }
    }

    /// Not known until the work `learn`s it.
    pub fn asking() -> Foresight {
        Foresight {
            audience: Arc::new(watch::Sender::new(None)),
            deferral: Deferral::written(),
        }
    }

    /// For the work acting as `ctx`: a deferral is told to the letter it writes.
    pub fn answering(mut self, ctx: &Ctx) -> Foresight {
        if let Some(request) = &ctx.request {
            self.deferral = request.deferral.clone();
        }
        self
    }

    /// The service's word (its `tell_private`, as `Service::play_then` takes it).
    pub fn learn(&self, private: bool) {
        let audience = match private {
            true => Audience::Asker,
            false => Audience::Channel,
        };
        self.audience.send_replace(Some(audience));
    }

    /// The audience, waiting at most `wait` for the work to tell it; the channel if it has not.
    async fn audience(&self, wait: Duration) -> Audience {
        let mut told = self.audience.subscribe();
        let known = tokio::time::timeout(wait, told.wait_for(Option::is_some)).await;
        match known {
            Ok(Ok(audience)) => audience.unwrap_or(Audience::Channel),
            _ => Audience::Channel,
        }
    }
}

/// Runs a service action (after checking Bredon may post here) and answers it.
pub async fn act(
    ctx: Context<'_>,
    f: impl FnOnce(&Service, &Ctx) -> Result<Outcome, Refusal> + Send + 'static,
) -> Result<(), Error> {
    act_on(ctx, async { Ok(()) }, move |s, c, ()| f(s, c)).await
}

/// `act` for an action whose answer is always private (a note, a private puzzle).
pub async fn act_privately(
    ctx: Context<'_>,
    f: impl FnOnce(&Service, &Ctx) -> Result<Outcome, Refusal> + Send + 'static,
) -> Result<(), Error> {
    act_for(
        ctx,
        Foresight::known(Audience::Asker),
        async { Ok(()) },
        move |s, c, ()| f(s, c),
    )
    .await
}

/// `act` for an action whose answer is private when the service tells so (a ply or a hint of
/// a private puzzle): `f` hands its third argument to the service as `tell_private`, which
/// tells it in the same crossing, before its slow part.
pub async fn act_asking(
    ctx: Context<'_>,
    f: impl FnOnce(&Service, &Ctx, &dyn Fn(bool)) -> Result<Outcome, Refusal> + Send + 'static,
) -> Result<(), Error> {
    let foresight = Foresight::asking();
    let told = foresight.clone();
    act_for(ctx, foresight, async { Ok(()) }, move |s, c, ()| {
        f(s, c, &|private| told.learn(private))
    })
    .await
}

/// `act` on what `fetch` brings first (a PlayTak game): fetched as part of the work, so a slow
/// answer is deferred, and a failure refused, as an action's are.
pub async fn act_on<T: Send + 'static>(
    ctx: Context<'_>,
    fetch: impl std::future::Future<Output = Result<T, Refusal>> + Send + 'static,
    f: impl FnOnce(&Service, &Ctx, T) -> Result<Outcome, Refusal> + Send + 'static,
) -> Result<(), Error> {
    act_for(ctx, Foresight::known(Audience::Channel), fetch, f).await
}

async fn act_for<T: Send + 'static>(
    ctx: Context<'_>,
    foresight: Foresight,
    fetch: impl std::future::Future<Output = Result<T, Refusal>> + Send + 'static,
    f: impl FnOnce(&Service, &Ctx, T) -> Result<Outcome, Refusal> + Send + 'static,
) -> Result<(), Error> {
    if let Some(refusal) = may_post(ctx, false) {
        return refuse(ctx, refusal).await;
    }
    let sctx = service_ctx(ctx);
    let foresight = foresight.answering(&sctx);
    let publisher = Arc::clone(&ctx.data().publisher);
    let work: Work = tokio::spawn(async move {
        let fetched = fetch.await?;
        let outcome = blocking(&publisher.service, move |s| f(s, &sctx, fetched)).await?;
        Ok(publisher.ready(outcome).await)
    });
    respond_to(Asker::Command(ctx), work, foresight).await
}

/// Answers with an outcome already decided (and stored).
pub async fn answer(ctx: Context<'_>, outcome: Outcome) -> Result<(), Error> {
    let publisher = Arc::clone(&ctx.data().publisher);
    let work: Work = tokio::spawn(async move { Ok(publisher.ready(outcome).await) });
    respond(ctx, work).await
}

/// An interaction whose first response is still owed: a slash command, or the Move form.
pub enum Asker<'a> {
    Command(Context<'a>),
    Form {
        submit: &'a serenity::ModalInteraction,
        data: &'a Data,
    },
}

impl<'a> Asker<'a> {
    fn data(&self) -> &'a Data {
        match self {
            Asker::Command(ctx) => ctx.data(),
            Asker::Form { data, .. } => data,
        }
    }

    fn channel(&self) -> u64 {
        match self {
            Asker::Command(ctx) => ctx.channel_id().get(),
            Asker::Form { submit, .. } => submit.channel_id.get(),
        }
    }

    /// The interaction's id (which holds its creation time) and token.
    fn interaction(&self) -> Option<Asked<'a>> {
        match self {
            Asker::Command(ctx) => interaction(*ctx).map(Asked::command),
            Asker::Form { submit, .. } => Some(Asked::form(submit)),
        }
    }

    fn http(&self) -> &'a serenity::Http {
        &self.data().publisher.http
    }

    /// "Bredon is thinking…", seen by `audience`: the outcome edits it.
    async fn show_thinking(&self, audience: Audience) -> Result<(), serenity::Error> {
        let private = audience == Audience::Asker;
        match self {
            Asker::Command(ctx) => replies::defer(*ctx, private).await,
            Asker::Form { submit, .. } => {
                replies::defer_answer(self.http(), Asked::form(submit), private).await
            }
        }
    }

    /// How the answer goes out, after a deferral seen by `deferred` or none (`marked` when the
    /// letter says it was deferred).
    async fn via(&self, deferred: Option<Audience>, private: bool, marked: bool) -> Via<'a> {
        match (self, self.interaction(), deferred) {
            // A private "thinking" message takes the private answer as a follow-up. A public
            // answer (the puzzle ended in between) cannot be in it: it goes, and the answer
            // goes to the channel.
            (_, Some(Asked { token, .. }), Some(Audience::Asker)) if private => {
                Via::Followup(token)
            }
            (_, Some(Asked { token, .. }), Some(Audience::Asker)) => {
                if let Err(e) = replies::delete_answer(self.http(), token).await {
                    tracing::info!(error = %describe(&e), "a private \"thinking\" message stays");
                }
                Via::Channel
            }
            (_, Some(Asked { id, token }), Some(Audience::Channel)) => Via::Deferred {
                token,
                issued_ms: created_ms(id),
                marked,
            },
            (Asker::Command(ctx), _, _) => Via::Reply(*ctx),
            (Asker::Form { submit, .. }, _, _) => Via::Form(submit),
        }
    }

    /// A word for the asker alone beside the public answer just given (the lines the Move form
    /// kept): an ephemeral follow-up. Lost with the interaction, it is only a confirmation:
    /// `/premove` lists the lines again.
    async fn aside(&self, text: &str) -> Result<(), Error> {
        let Some(Asked { token, .. }) = self.interaction() else {
            return Ok(());
        };
        let aside = Post::text(escape(text));
        if let Err(e) = replies::follow_privately(self.http(), token, aside).await {
            tracing::info!(error = %describe(&e), "a private aside was not delivered");
        }
        Ok(())
    }

    /// A refusal for the user alone; after a deferral, the "thinking" message goes first.
    async fn refuse(&self, refusal: Refusal, deferred: bool) -> Result<(), Error> {
        if let (true, Some(asked)) = (deferred, self.interaction()) {
            replies::delete_answer(self.http(), asked.token).await?;
        }
        let post = Post::refusal(&refusal);
        match self {
            Asker::Command(ctx) => refuse(*ctx, refusal).await,
            Asker::Form { submit, .. } if deferred => {
                replies::follow_privately(self.http(), &submit.token, post).await?;
                Ok(())
            }
            Asker::Form { submit, .. } => {
                replies::answer_at_once(self.http(), Asked::form(submit), post, true).await?;
                Ok(())
            }
        }
    }
}

/// Publishes the work's outcome as the command's answer, a new message so its pings notify.
async fn respond(ctx: Context<'_>, work: Work) -> Result<(), Error> {
    respond_to(
        Asker::Command(ctx),
        work,
        Foresight::known(Audience::Channel),
    )
    .await
}

/// Publishes the work's outcome as the interaction's answer. Work that takes longer than
/// `Data::defer_after` (1.5 s; Discord wants the first response within 3 s of the interaction's
/// creation: interactions/receiving-and-responding) is deferred first, and at once if the
/// interaction arrived late (queued, or replayed after a RESUME) and its window is nearly gone.
/// If no answer can be given, the outbox posts the outcome in the channel. The deferral is seen
/// by the audience the work `foresight`s.
pub async fn respond_to(
    asker: Asker<'_>,
    mut work: Work,
    foresight: Foresight,
) -> Result<(), Error> {
    let data = asker.data();
    let left = asker
        .interaction()
        .map_or(RESPONSE_WINDOW, |asked| window_left(asked.id, now_ms()));
    let defer_after = data.defer_after.min(left.saturating_sub(DEFER_MARGIN));
    let channel = asker.channel();
    let publisher = &data.publisher;
    // With the window nearly gone, even finished work is deferred: the answer's upload might
    // not arrive in time.
    let waited = match defer_after.is_zero() {
        true => None,
        false => tokio::time::timeout(defer_after, &mut work).await.ok(),
    };
    let mut marked = false;
    let (done, deferred) = match waited {
        Some(done) => (done, None),
        None => {
            // Told to the letter before anything is awaited (the work may write it meanwhile)
            // and before the deferral goes out: whatever happens to that, the outbox then knows
            // that an edit of the "thinking" message owes its pings. Only a public deferral's
            // answer is such an edit.
            let told = foresight.deferral.mark_deferred();
            let wait = FORESIGHT_WAIT.min(left.saturating_sub(defer_after + DEFER_MARGIN));
            let audience = foresight.audience(wait).await;
            marked = told && audience == Audience::Channel;
            if let Err(e) = asker.show_thinking(audience).await {
                // Too late to answer: the work goes on, and what it stores the outbox posts.
                tracing::info!(error = %describe(&e), "could not defer; the outbox posts the outcome");
                let publisher = Arc::clone(publisher);
                tokio::spawn(async move {
                    let _ = work.await;
                    publisher.spawn_turn(channel);
                });
                return Ok(());
            }
            (work.await, Some(audience))
        }
    };
    match done.unwrap_or_else(|e| Err(failed_inside(e))) {
        Ok(ready) => {
            let via = asker.via(deferred, ready.outcome.private, marked).await;
            let aside = ready.outcome.aside.clone();
            publisher.publish(channel, ready, via).await?;
            match aside {
                Some(aside) => asker.aside(&aside).await,
                None => Ok(()),
            }
        }
        Err(refusal) => {
            let refused = asker.refuse(refusal, deferred.is_some()).await;
            // A refused action is still an action here: if Bredon's move is waiting (its engine
            // failed before), it tries again now.
            publisher.spawn_turn(channel);
            refused
        }
    }
}

/// Discord's window for the first response to an interaction (interactions/receiving-and-
/// responding), and how much of it a deferral is given to arrive.
const RESPONSE_WINDOW: Duration = Duration::from_secs(3);
const DEFER_MARGIN: Duration = Duration::from_millis(700);
/// How long a deferral waits, at most and while the window allows, for the work to tell whether
/// its answer is private (a store read).
const FORESIGHT_WAIT: Duration = Duration::from_millis(150);

/// Whether the interaction with this id has too little of its window left to answer with
/// anything slower than a deferral.
pub fn window_nearly_gone(id: u64) -> bool {
    answer_time_left(id).is_zero()
}

/// How long the first answer to the interaction with this id may still take to start, leaving
/// the margin a deferral is given to arrive.
pub fn answer_time_left(id: u64) -> Duration {
    window_left(id, now_ms()).saturating_sub(DEFER_MARGIN)
}

/// What is left at `now_ms` of the response window of the interaction with this id, whose
/// creation time the id holds (reference, "Snowflakes": milliseconds since 2015 above bit 22).
fn window_left(id: u64, now_ms: i64) -> Duration {
    let created = created_ms(id);
    let age = Duration::from_millis((now_ms - created).max(0) as u64);
    RESPONSE_WINDOW.saturating_sub(age)
}

/// Runs `f` on a blocking thread and posts the text it returns (already escaped where it holds
/// names); refusals go out ephemeral.
pub async fn say(
    ctx: Context<'_>,
    ephemeral: bool,
    f: impl FnOnce(&Service, &Ctx) -> Result<String, Refusal> + Send + 'static,
) -> Result<(), Error> {
    let sctx = service_ctx(ctx);
    match blocking(&ctx.data().service, move |s| f(s, &sctx)).await {
        Err(r) => refuse(ctx, r).await,
        Ok(text) => replies::reply(ctx, Post::text(text), ephemeral).await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_response_window_counts_from_the_interactions_creation() {
        // 2026-11-24 12:00:00 UTC as an id, as Discord's snowflakes hold it.
        let created: i64 = 1_795_521_600_000;
        let id = ((created - 1_420_070_400_000) as u64) << 22 | 17;
        assert_eq!(window_left(id, created), RESPONSE_WINDOW);
        assert_eq!(window_left(id, created + 2_800), Duration::from_millis(200));
        assert_eq!(window_left(id, created + 10_000), Duration::ZERO);
        // A clock behind Discord's sees a fresh interaction, never more than the window.
        assert_eq!(window_left(id, created - 5_000), RESPONSE_WINDOW);
    }
}
