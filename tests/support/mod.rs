//! Helpers shared by integration tests.

#![allow(dead_code)]

use bredon::tak::{Game, Position, Setup};

/// A legal game of `plies` plies on a `size` board that is still running: each ply is chosen
/// pseudo-randomly from `seed` among those that do not end the game, moves before placements,
/// so reserves last.
pub fn long_game(size: usize, plies: usize, seed: u64) -> Game {
    let mut game = Game::new(Position::new(Setup::new(size).unwrap()));
    let mut state = seed ^ 0x9E37_79B9_7F4A_7C15;
    while game.plies().len() < plies {
        let mut legal = Vec::new();
        game.position().generate_plies(&mut legal);
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let start = (state >> 33) as usize % legal.len();
        let mut candidates: Vec<_> = legal
            .iter()
            .cycle()
            .skip(start)
            .take(legal.len())
            .copied()
            .collect();
        candidates.sort_by_key(|p| game.position().ptn(*p).len() < 3);
        let ply = candidates
            .into_iter()
            .find(|&p| {
                let mut trial = game.clone();
                trial.play(p).is_ok() && trial.result().is_none()
            })
            .expect("a ply that keeps the game going");
        game.play(ply).unwrap();
    }
    game
}
