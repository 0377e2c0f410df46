//! The slash commands, a file per feature; each maps its options and calls the handler path
//! (`respond`). The order of `all` is the order Discord lists them in.

mod analysis;
mod challenge;
mod info;
mod play;
mod records;
mod settings;
mod tournament;
mod university;

use super::{Data, Error};

pub fn all() -> Vec<poise::Command<Data, Error>> {
    vec![
        challenge::challenge(),
        challenge::challenge_member(),
        challenge::accept(),
        challenge::decline(),
        challenge::cancel(),
        play::play(),
        play::board(),
        play::undo(),
        play::draw(),
        play::resign(),
        challenge::rematch(),
        records::ptn(),
        analysis::analyze(),
        university::bid(),
        university::wallet(),
        records::history(),
        records::games(),
        records::mygames(),
        settings::notify(),
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
