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

/// Every command. What belongs to a server (its settings, tournaments, vacations, the
/// University, moderators' aborts, the server's list of games) is installed with the server and
/// used there only; the rest is installed with a server or by a user and works anywhere: in
/// servers, in a DM with Bredon, and in DMs and group DMs between users, where Bredon is no
/// member and speaks only in answers (interactions/application-commands, "Installation Context"
/// and "Interaction Contexts"; left out, Discord lets a command be used wherever the app is
/// installed).
pub fn all() -> Vec<poise::Command<Data, Error>> {
    use serenity::{InstallationContext as Install, InteractionContext as Where};
    let mut commands = listed();
    for c in &mut commands {
        let (install, used) = match c.guild_only {
            true => (vec![Install::Guild], vec![Where::Guild]),
            false => (
                vec![Install::Guild, Install::User],
                vec![Where::Guild, Where::BotDm, Where::PrivateChannel],
            ),
        };
        c.install_context = Some(install);
        c.interaction_context = Some(used);
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
