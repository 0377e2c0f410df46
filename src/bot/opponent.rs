//! Bredon as a player: when it is the bot's turn in an engine game, think on a blocking thread
//! (never holding up other games) and play through the service like anyone else. With
//! `BREDON_TEI_ENGINE` set, an external TEI engine thinks instead; if it crashes or goes silent,
//! the players are told, it is restarted, and the game is kept.

use super::reply::{self, Buttons};
use crate::engine::{search, tei, Level};
use crate::service::{Ctx, Outcome, Service};
use crate::store::records::PlayerRef;
use poise::serenity_prelude as serenity;
use std::sync::{Arc, Mutex};
use std::time::Duration;

pub struct Opponent {
    pub service: Arc<Service>,
    /// The bot's own user.
    pub me: PlayerRef,
    /// `program args...` of an external engine, from `BREDON_TEI_ENGINE`.
    tei_command: Option<Vec<String>>,
    tei: Mutex<Option<tei::Client>>,
    /// Thinking time for `hard` and for TEI engines.
    pub think: Duration,
}

enum Turn {
    Played(Box<Outcome>),
    Nothing,
}

impl Opponent {
    pub fn new(service: Arc<Service>, me: PlayerRef) -> Opponent {
        let tei_command = std::env::var("BREDON_TEI_ENGINE")
            .ok()
            .map(|c| c.split_whitespace().map(String::from).collect::<Vec<_>>())
            .filter(|c| !c.is_empty());
        let think = std::env::var("BREDON_ENGINE_SECS")
            .ok()
            .and_then(|s| s.parse::<f64>().ok())
            .map_or(Duration::from_secs(3), Duration::from_secs_f64);
        Opponent {
            service,
            me,
            tei_command,
            tei: Mutex::new(None),
            think,
        }
    }

    /// Plays the bot's turn in `channel` if there is one (and answers undo and draw requests).
    pub fn spawn_turn(self: &Arc<Self>, http: Arc<serenity::Http>, channel: u64) {
        let me = Arc::clone(self);
        tokio::spawn(async move { me.turns(http, channel).await });
    }

    async fn turns(self: Arc<Self>, http: Arc<serenity::Http>, channel: u64) {
        // An undo answer may make it the bot's move: a few steps at most.
        for _ in 0..3 {
            let me = Arc::clone(&self);
            let turn = tokio::task::spawn_blocking(move || me.turn(channel)).await;
            let outcome = match turn {
                Ok(Ok(Turn::Played(outcome))) => *outcome,
                Ok(Ok(Turn::Nothing)) => return,
                Ok(Err(why)) => {
                    tracing::warn!(channel, %why, "engine turn failed");
                    let text = format!("✋ Bredon's engine failed ({why}). The game is kept; the engine is restarting and will move on the next action here, or use /board.");
                    let _ = serenity::ChannelId::new(channel)
                        .send_message(&http, serenity::CreateMessage::new().content(text))
                        .await;
                    return;
                }
                Err(e) => {
                    tracing::error!(channel, error = %e, "engine task failed");
                    return;
                }
            };
            let p = reply::parts(outcome, Buttons::None).await;
            let message = serenity::CreateMessage::new()
                .content(p.content)
                .add_files(p.files)
                .components(p.components);
            if let Err(e) = serenity::ChannelId::new(channel)
                .send_message(&http, message)
                .await
            {
                tracing::warn!(channel, error = %e, "could not post the engine's ply");
            }
        }
    }

    fn turn(&self, channel: u64) -> Result<Turn, String> {
        let Some(game) = self
            .service
            .store()
            .game(channel)
            .map_err(|e| e.to_string())?
        else {
            return Ok(Turn::Nothing);
        };
        let Some(level) = game.settings.engine.clone() else {
            return Ok(Turn::Nothing);
        };
        if !game.players.iter().any(|p| p.id == self.me.id) {
            return Ok(Turn::Nothing);
        }
        let ctx = Ctx {
            guild: game.guild,
            channel,
            user: self.me.clone(),
            now_ms: reply::now_ms(),
            moderator: false,
        };
        if game.undo_request.is_some_and(|u| u != self.me.id) {
            return self
                .service
                .answer_undo(&ctx, true)
                .map(|o| Turn::Played(Box::new(o)))
                .map_err(|r| r.0);
        }
        if game.draw_offer.is_some_and(|u| u != self.me.id) {
            return self
                .service
                .answer_draw(&ctx, false)
                .map(|o| Turn::Played(Box::new(o)))
                .map_err(|r| r.0);
        }
        let g = Service::rebuild(&game).map_err(|r| r.0)?;
        if g.result().is_some() || game.players[g.position().to_move().index()].id != self.me.id {
            return Ok(Turn::Nothing);
        }
        let ply = match &self.tei_command {
            Some(command) => {
                self.tei_ply(command, &game.settings.tps, g.start().setup(), &game.plies)?
            }
            None => {
                let level = Level::parse(&level)?;
                let found = search(g.position(), level.limits(self.think), game.id)
                    .ok_or("the game is over")?;
                g.position().ptn(found.ply)
            }
        };
        self.service
            .play(&ctx, &ply)
            .map(|o| Turn::Played(Box::new(o)))
            .map_err(|r| format!("its ply {ply} was refused: {}", r.0))
    }

    fn tei_ply(
        &self,
        command: &[String],
        tps: &Option<String>,
        setup: &crate::tak::Setup,
        plies: &[String],
    ) -> Result<String, String> {
        let mut slot = self.tei.lock().map_err(|_| "the engine lock is poisoned")?;
        if slot.is_none() {
            *slot = Some(tei::Client::spawn(&command[0], &command[1..])?);
        }
        let client = slot.as_mut().expect("just started");
        match client.best_ply(tps.as_deref(), setup, plies, self.think) {
            Ok(ply) => Ok(ply),
            Err(first) => {
                // Crashed or silent: restart once and ask again; if that fails too, report.
                tracing::warn!(error = %first, "TEI engine failed; restarting");
                client
                    .restart()
                    .and_then(|_| client.best_ply(tps.as_deref(), setup, plies, self.think))
                    .map_err(|again| {
                        *slot = None;
                        format!("{first}; after a restart: {again}")
                    })
            }
        }
    }
}
