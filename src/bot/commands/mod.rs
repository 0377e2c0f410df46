//! The slash commands, a file per feature; each maps its options and calls the handler path
//! (`respond`). The order of `all` is the order Discord lists them in.

mod analysis;
mod challenge;
mod info;
mod play;
mod puzzle;
mod records;
mod settings;
mod tournament;
mod university;

use super::{Data, Error};
use poise::serenity_prelude as serenity;

/// Every command, installed with the server only (Bredon is no user app), usable in servers, and
/// in a DM with Bredon those that need no server (interactions/application-commands,
/// "Installation Context" and "Interaction Contexts"; left out, Discord lets a command be used
/// wherever the app is installed).
pub fn all() -> Vec<poise::Command<Data, Error>> {
    let mut commands = listed();
    for c in &mut commands {
        c.install_context = Some(vec![serenity::InstallationContext::Guild]);
        c.interaction_context = Some(match c.guild_only {
            true => vec![serenity::InteractionContext::Guild],
            false => vec![
                serenity::InteractionContext::Guild,
                serenity::InteractionContext::BotDm,
            ],
        });
    }
    commands
}

fn listed() -> Vec<poise::Command<Data, Error>> {
    vec![
        challenge::challenge(),
        challenge::challenge_member(),
        challenge::accept(),
        challenge::decline(),
        challenge::cancel(),
        play::play(),
        play::premove(),
        play::note(),
        play::board(),
        play::undo(),
        play::draw(),
        play::resign(),
        challenge::rematch(),
        records::ptn(),
        analysis::analyze(),
        puzzle::puzzle(),
        university::bid(),
        university::wallet(),
        records::history(),
        records::games(),
        records::mygames(),
        settings::notify(),
        settings::vacation(),
        records::stats(),
        records::leaderboard(),
        settings::settings(),
        tournament::tournament(),
        settings::abort(),
        info::position(),
        info::rules(),
        info::help(),
    ]
}
