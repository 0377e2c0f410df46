//! What the service benches share: live 6x6 games in channels 1..=n, and a random ply timed.

use bredon::service::{ChallengeOptions, Ctx, Service};
use bredon::store::records::{PlayerRef, Seat};
use std::time::{Duration, Instant};

/// Player `who` in `channel` (of one of 50 servers).
pub fn ctx(channel: u64, who: u64) -> Ctx {
    Ctx {
        guild: channel % 50,
        channel,
        user: PlayerRef {
            id: who,
            name: format!("player{who}"),
        },
        now_ms: 0,
        moderator: false,
        request: None,
    }
}

/// A 6x6 game in each of channels `1..=games`.
pub fn start_games(service: &Service, games: u64) {
    for channel in 1..=games {
        let o = ChallengeOptions {
            opponent: Some(ctx(channel, channel * 2 + 1).user),
            seat: Seat::White,
            size: Some(6),
            ..ChallengeOptions::default()
        };
        service.challenge(&ctx(channel, channel * 2), &o).unwrap();
        service.accept(&ctx(channel, channel * 2 + 1)).unwrap();
    }
}

/// Plays one random legal ply in `channel` as whoever is to move; its time if it was stored.
pub fn ply(service: &Service, channel: u64, seed: &mut u64) -> Option<Duration> {
    let game = service.store().game(channel).unwrap()?;
    let plies = service.legal_plies(channel).unwrap();
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    let choice = &plies[(*seed % plies.len() as u64) as usize];
    let mover = game.players[game.plies.len() % 2].id;
    let started = Instant::now();
    let stored = service.play(&ctx(channel, mover), choice).is_ok();
    stored.then(|| started.elapsed())
}

/// The `p` quantile of sorted times, in milliseconds.
pub fn quantile_ms(sorted: &[Duration], p: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize].as_secs_f64() * 1e3
}
