//! The Discord adapter: slash commands, buttons and timers mapped onto the service, outcomes mapped
//! onto messages. No game logic lives here, and no store: the bot asks the service.

mod blocking;
mod buttons;
mod checks;
mod choices;
mod commands;
mod config;
mod data;
mod delivery;
mod events;
mod gateway;
mod opponent;
mod post;
mod press;
mod register;
mod respond;
mod threads;
mod timers;
mod typed;
mod visibility;

pub use config::{Config, Shards, TypedPlies};
pub use data::{Context, Data, Error};
pub use delivery::waits::Waits;

use crate::service::Service;
use crate::store::Store;
use data::{Fatal, Publisher};
use poise::serenity_prelude as serenity;
use std::sync::Arc;

/// How long a request to Discord may take, an upload of a long game's GIF included.
const HTTP_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

/// Runs the bot until SIGINT/SIGTERM, then closes the gateway and flushes the store. A start-up
/// that cannot open the store or register the commands stops with the reason (never online and
/// deaf: without registered commands nobody can reach the bot). The commands are registered once
/// the handlers are ready, so interactions never wait behind the registration.
pub async fn run(config: Config) -> Result<(), String> {
    let store = Store::open_either(
        &config.data,
        config.shards.layout(),
        config.database_url.as_deref(),
    )
    .map_err(|e| e.to_string())?;
    let fatal = Arc::new(Fatal::default());
    let fatal_in_setup = Arc::clone(&fatal);
    // The same database handle, kept to flush after the gateway closes.
    let flush_on_exit = store.clone();
    let service = Arc::new(Service::starting_process(store).map_err(|e| e.0)?);
    let service_at_gateway = Arc::clone(&service);
    let registers = config.shards.has_first();
    let guild = config.guild;
    let tick = config.tick;
    let defer_after = config.defer_after;
    let analysis_per_position = config.analysis_per_position;
    let playtak = config.playtak.clone();
    let typed_plies = config.typed_plies;
    let layout = config.shards.layout();
    let web_url = config.web_url.clone();
    let waits = config.waits;
    let (http, gate) = http_client(&config.token, config.api_base.as_deref()).await?;
    let gate_in_setup = Arc::clone(&gate);
    if let Some(addr) = config.web_addr {
        // Bound before the bot connects: an address that cannot be served stops the start.
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|e| format!("cannot serve the web pages on {addr} (BREDON_WEB_ADDR): {e}"))?;
        // The address bound: port 0 in BREDON_WEB_ADDR takes any free port, named here.
        let bound = listener.local_addr().unwrap_or(addr);
        tracing::info!(addr = %bound, "serving the web pages");
        crate::web::serve_beside(listener, Arc::clone(&service), config.web_rate_limit)?;
    }
    let framework = poise::Framework::builder()
        .options(poise::FrameworkOptions {
            commands: commands::all(),
            event_handler: |ctx, event, _framework, data| {
                Box::pin(events::on_event(ctx, event, data))
            },
            on_error: |error| Box::pin(events::on_error(error)),
            command_check: Some(|ctx| Box::pin(events::command_check(ctx))),
            // Messages are read for typed plies only (`events`), never as prefix commands.
            prefix_options: poise::PrefixFrameworkOptions {
                mention_as_prefix: false,
                ..Default::default()
            },
            ..Default::default()
        })
        .initialize_owners(false)
        .setup(move |ctx, ready, framework| {
            Box::pin(async move {
                tracing::info!(user = %ready.user.name, guilds = ready.guilds.len(), "connected");
                let me = crate::store::records::PlayerRef {
                    id: ready.user.id.get(),
                    name: ready.user.name.clone(),
                };
                let publisher = Arc::new(Publisher {
                    http: Arc::clone(&ctx.http),
                    service: Arc::clone(&service),
                    engine: Arc::new(crate::service::EngineOpponent::from_env(me)),
                    claims: Arc::default(),
                    schedule: Arc::default(),
                    dm_channels: Default::default(),
                    fatal: Arc::clone(&fatal_in_setup),
                    cache: Arc::clone(&ctx.cache),
                    // Read by the outbox's first sweep, and every minute after.
                    refused: Default::default(),
                    web_url: web_url.clone(),
                    held_back_until_ms: std::sync::atomic::AtomicI64::new(i64::MIN),
                    turns: Default::default(),
                    gate: Arc::clone(&gate_in_setup),
                    order: Default::default(),
                    answers: Default::default(),
                    waits,
                    unheard: Default::default(),
                });
                tokio::spawn(delivery::outbox::outbox_loop(Arc::clone(&publisher)));
                tokio::spawn(timers::timer_loop(Arc::clone(&publisher), tick));
                // Engine games left waiting for the bot's move when the last process stopped.
                let waiting = service.engine_games(layout).map_err(|e| {
                    let reason = format!("reading the live games failed: {e}");
                    fatal_in_setup.raise(reason.clone());
                    reason
                })?;
                for channel in waiting {
                    publisher.spawn_turn(channel);
                }
                if registers {
                    let scope = match guild {
                        Some(id) => register::Scope::Guild(serenity::GuildId::new(id)),
                        None => register::Scope::Global,
                    };
                    let wanted =
                        poise::builtins::create_application_commands(&framework.options().commands);
                    let http = Arc::clone(&ctx.http);
                    let fatal = Arc::clone(&fatal_in_setup);
                    tokio::spawn(async move {
                        match register::sync(&http, scope, wanted).await {
                            Ok(true) => tracing::info!("slash commands registered"),
                            Ok(false) => tracing::info!("slash commands already registered"),
                            Err(reason) => fatal.raise(reason),
                        }
                    });
                } else {
                    tracing::info!("slash commands are left to the process that runs shard 0");
                }
                Ok(Data {
                    service: Arc::clone(&service),
                    publisher,
                    defer_after,
                    analysis_per_position,
                    analyses: Default::default(),
                    playtak: playtak.clone(),
                    typed_plies,
                    web_url: web_url.clone(),
                })
            })
        })
        .build();
    // GUILDS brings thread updates, channel deletions and server removals; messages only for
    // typed plies, and their text without a mention only with the privileged intent.
    let intents = serenity::GatewayIntents::GUILDS | config.typed_plies.intents();
    let mut client = serenity::ClientBuilder::new_with_http(http, intents)
        .framework(framework)
        .await
        .map_err(|e| format!("cannot start the Discord client: {e}"))?;
    if let Some(url) = &config.gateway_url {
        *client.ws_url.lock().await = url.clone();
    }
    let proxied = config.gateway_url.is_some();
    gateway::wait_to_identify(
        &client.http,
        &service_at_gateway,
        config.shards,
        proxied,
        config.identify_spacing,
    )
    .await;
    let manager = Arc::clone(&client.shard_manager);
    let fatal_watch = Arc::clone(&fatal);
    tokio::spawn(async move {
        tokio::select! {
            _ = shutdown_signal() => {
                tracing::info!("shutting down: closing the gateway and flushing the store");
            }
            _ = fatal_watch.raised.notified() => {}
        }
        manager.shutdown_all().await;
    });
    let started = match config.shards {
        Shards::Auto => client.start_autosharded().await,
        // serenity's range end is inclusive.
        Shards::Range { first, last, total } => client.start_shard_range(first..last, total).await,
    };
    flush_on_exit.flush().map_err(|e| e.to_string())?;
    if let Some(reason) = fatal.reason() {
        return Err(reason);
    }
    started.map_err(|e| match e {
        serenity::Error::Gateway(serenity::GatewayError::DisallowedGatewayIntents) => {
            "Discord refused the Message Content intent that BREDON_TYPED_PLIES=plain needs: turn \
             on Message Content Intent in the Developer Portal (your application, Bot, \
             Privileged Gateway Intents), or set BREDON_TYPED_PLIES=mention (plies typed as \
             @Bredon c3) or off"
                .to_string()
        }
        e => format!("the Discord connection failed: {e}"),
    })
}

/// Discord's REST API (or `api_base`'s proxy) with `token`, every request through this
/// process's gate (`gate.rs`): serenity's own limiter is off, the gate keeps the limits.
async fn http_client(
    token: &str,
    api_base: Option<&str>,
) -> Result<(serenity::Http, Arc<delivery::gate::Gate>), String> {
    // A request Discord never answers would hold up its handler or its channel's outbox for
    // good: it fails after `HTTP_TIMEOUT` instead, and is tried again like any other failure.
    let client = |timeout| {
        reqwest::Client::builder()
            .use_rustls_tls()
            .timeout(timeout)
            .build()
            .map_err(|e| format!("cannot set up HTTP: {e}"))
    };
    let gate = delivery::gate::Gate::open(api_base, client(HTTP_TIMEOUT)?).await?;
    let http = serenity::HttpBuilder::new(token)
        .client(client(
            HTTP_TIMEOUT + delivery::gate::LONGEST_WAIT_AT_THE_GATE,
        )?)
        .proxy(gate.base())
        .ratelimiter_disabled(true)
        .build();
    Ok((http, Arc::new(gate)))
}

/// `bredon register`: makes Discord's slash commands this build's (in `guild` only, or
/// everywhere) without starting the bot, as a deploy step. `Ok(true)` when it wrote them.
pub async fn register_commands(
    token: &str,
    api_base: Option<&str>,
    guild: Option<u64>,
) -> Result<bool, String> {
    let (http, _gate) = http_client(token, api_base).await?;
    let app = http.get_current_application_info().await.map_err(|e| {
        format!(
            "Discord did not name the application: {}",
            delivery::failure::describe(&e)
        )
    })?;
    http.set_application_id(app.id);
    let scope = match guild {
        Some(id) => register::Scope::Guild(serenity::GuildId::new(id)),
        None => register::Scope::Global,
    };
    let wanted = poise::builtins::create_application_commands(&commands::all());
    register::sync(&http, scope, wanted).await
}

async fn shutdown_signal() {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut term =
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(s) => s,
                Err(_) => return ctrl_c.await.unwrap_or(()),
            };
        tokio::select! {
            _ = ctrl_c => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    ctrl_c.await.unwrap_or(());
}
