//! `/analyze`: a finished game (the channel's last, one of the server's by number, a pasted
//! PTN, or a PlayTak game by its number), analysed on a blocking thread, two at a time at most
//! in a server.

use crate::bot::blocking::blocking;
use crate::bot::checks::may_post;
use crate::bot::data::{interaction, AnalysisSlots};
use crate::bot::delivery::replies::{self, refuse};
use crate::bot::post::{analysis_text, Post};
use crate::bot::respond::service_ctx;
use crate::bot::{Context, Error};
use crate::render::Theme;
use crate::service::analysis::{analyze_line, server_engine, Judge};
use crate::service::Refusal;
use poise::serenity_prelude as serenity;
use std::time::Duration;

/// An analysis takes at most this long in all (Discord keeps an interaction's token for 15
/// minutes: interactions/receiving-and-responding); long games get less time per position.
const ANALYSIS_BUDGET: Duration = Duration::from_secs(300);

/// The "thinking" message shows the analysis's progress this often.
const PROGRESS_EVERY: Duration = Duration::from_secs(2);

/// Analyse a finished game: mistakes marked, an evaluation chart, annotated PTN.
#[poise::command(slash_command)]
pub(super) async fn analyze(
    ctx: Context<'_>,
    #[description = "Which finished game of this server (its number in /history; default: this channel's last)"]
    #[min = 1]
    game: Option<u64>,
    #[description = "A game record to analyse instead, pasted as PTN (a PlayTak game)"]
    #[max_length = 6000]
    ptn: Option<String>,
    #[description = "A finished PlayTak game to analyse instead, by its number on playtak.com"]
    #[min = 1]
    playtak: Option<u64>,
    #[description = "A branch of the pasted PTN to analyse instead of its main line (PTN Ninja's name: 4b1)"]
    #[max_length = 100]
    branch: Option<String>,
) -> Result<(), Error> {
    if let Some(refusal) = may_post(ctx, false) {
        return refuse(ctx, refusal).await;
    }
    let http = ctx.data().publisher.http.as_ref();
    let guild = ctx.guild_id().map_or(0, |g| g.get());
    let Some(slot) = ctx.data().analyses.take(guild) else {
        let busy = format!(
            "Bredon is analysing {} games in this server already, as many as it runs at once; \
             try again when one has finished",
            AnalysisSlots::EACH
        );
        return refuse(ctx, Refusal(busy)).await;
    };
    // A game of this server is kept with its analysis (for its web page); other records not.
    let record = match (ptn, game, playtak) {
        (None, _, _) if branch.is_some() => Err(Refusal(
            "`branch:` names a branch of a pasted PTN: paste it in `ptn:` too".into(),
        )),
        (Some(_), Some(_), _) | (Some(_), _, Some(_)) | (_, Some(_), Some(_)) => Err(Refusal(
            "name one game, not several: `game:` for a game played here, `ptn:` for a pasted \
             record, `playtak:` for a PlayTak game by its number"
                .into(),
        )),
        (Some(ptn), None, None) => {
            let (sctx, text) = (service_ctx(ctx), ptn.clone());
            let fair = blocking(&ctx.data().service, move |s| {
                s.refuse_rated_text(&sctx, Some(&text), Some(&text))
            });
            fair.await.map(|()| (None, ptn))
        }
        (None, None, Some(id)) => {
            // PlayTak is given up to its timeout: "thinking" first.
            replies::defer(ctx, false).await?;
            match ctx.data().playtak.ptn(id).await {
                Ok(ptn) => Ok((None, ptn)),
                Err(failure) => {
                    // The slot is given back before the refusal is read.
                    drop(slot);
                    if let Some(asked) = interaction(ctx) {
                        replies::delete_answer(http, &asked.token).await?;
                    }
                    return refuse(ctx, Refusal(failure.to_string())).await;
                }
            }
        }
        (None, game, None) => {
            let sctx = service_ctx(ctx);
            blocking(&ctx.data().service, move |s| s.finished_record(&sctx, game))
                .await
                .map(|found| (Some(found.game), found.record))
        }
    };
    let (kept_as, record) = match record {
        Ok((_, record)) if crate::game::is_takat_record(&record) => {
            drop(slot);
            return refuse(
                ctx,
                Refusal("that game is Takat: analysis is for Tak games".into()),
            )
            .await;
        }
        Ok(record) => record,
        Err(r) => {
            drop(slot);
            return refuse(ctx, r).await;
        }
    };
    replies::defer(ctx, false).await?;
    let Some(interaction) = interaction(ctx) else {
        return Ok(());
    };
    let token = interaction.token.as_str();
    // At most one position per word of the record (tags and move numbers make it fewer).
    let positions = record.split_whitespace().count().max(1) as u32;
    let per_position = ctx
        .data()
        .analysis_per_position
        .min(ANALYSIS_BUDGET / positions);
    let (progress, mut seen) = tokio::sync::watch::channel((0usize, 0usize));
    let mut work = tokio::task::spawn_blocking(move || {
        // Held while the analysis runs, even past a handler that stopped waiting for it.
        let _slot = slot;
        let engine = server_engine();
        let judge = match &engine {
            Some(command) => Judge::Tei {
                command,
                movetime: per_position,
            },
            None => Judge::Own(crate::engine::Limits {
                time: Some(per_position),
                ..Default::default()
            }),
        };
        let progress = |done, total| {
            progress.send_replace((done, total));
        };
        analyze_line(
            &record,
            branch.as_deref(),
            judge,
            &Theme::default(),
            progress,
        )
    });
    let report = loop {
        tokio::select! {
            done = &mut work => break done,
            _ = tokio::time::sleep(PROGRESS_EVERY) => {
                let (done, total) = *seen.borrow_and_update();
                let shown = Post::text(format!("Analysing the game: search {done} of {total}…"));
                replies::edit_answer(http, token, shown).await?;
            }
        }
    };
    let report = match report {
        Ok(Ok(report)) => report,
        Ok(Err(reason)) => {
            replies::delete_answer(http, token).await?;
            return refuse(
                ctx,
                Refusal(format!("the record cannot be analysed: {reason}")),
            )
            .await;
        }
        Err(e) => {
            replies::delete_answer(http, token).await?;
            return refuse(
                ctx,
                Refusal(format!("Bredon failed inside ({e}); try again")),
            )
            .await;
        }
    };
    if let Some(game) = kept_as {
        let sctx = service_ctx(ctx);
        let kept = report.clone();
        let keeping = blocking(&ctx.data().service, move |s| {
            s.keep_analysis(&sctx, game, &kept)
        });
        // The analysis is posted all the same: only its web page goes without it.
        if let Err(Refusal(why)) = keeping.await {
            tracing::warn!(game, why, "an analysis was not kept for the game's page");
        }
    }
    let text = analysis_text(&report);
    let shown = Post {
        files: vec![
            serenity::CreateAttachment::bytes(report.chart, "evaluation.png"),
            serenity::CreateAttachment::bytes(report.ptn.into_bytes(), "analysis.ptn"),
        ],
        ..Post::text(text)
    };
    replies::edit_answer(http, token, shown).await?;
    // An edit notifies no one: the one who asked is told in a new message.
    let asker = ctx.author().id.get();
    let ping = Post::pinging(vec![asker], "the analysis is ready (above).");
    // The analysis stands above whatever happens to its ping.
    if let Err(e) = replies::reply(ctx, ping, false).await {
        tracing::info!(error = %e, "the analysis's ping did not go out");
    }
    Ok(())
}
