//! A Takat player: iterative-deepening negamax with alpha-beta over a node budget, so it plays
//! the same on every machine. Seven circles are small enough that this sees wins several plies
//! deep; the evaluation rewards tall stacks (White's aim) and mobility (both sides lose when
//! they cannot move).

use super::position::{Ply, Position};
use super::result::Color;

const WIN: i32 = 100_000;

/// What a search found.
#[derive(Clone, Copy, Debug)]
pub struct Found {
    pub ply: Ply,
    /// From the side to move's view; beyond ±(WIN - 100) a forced result.
    pub score: i32,
    pub depth: u32,
}

struct Search {
    nodes: u64,
    budget: u64,
}

/// The best ply for the side to move within `budget` nodes and `max_depth` plies, or `None` if
/// the game is over. `seed` breaks ties between equal plies so games vary. `seen` are the
/// positions of the game so far: a ply that returns to one scores no better than a draw, so a
/// player that is ahead does not wander into a repetition.
pub fn search(
    p: &Position,
    seen: &[Position],
    max_depth: u32,
    budget: u64,
    seed: u64,
) -> Option<Found> {
    if p.end().is_some() {
        return None;
    }
    let mut plies = Vec::new();
    p.legal_plies(&mut plies);
    // A fixed shuffle by the seed, so equal plies are not always taken in board order.
    let mut state = seed | 1;
    for i in (1..plies.len()).rev() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        plies.swap(i, (state % (i as u64 + 1)) as usize);
    }
    let mut s = Search { nodes: 0, budget };
    let mut best: Option<Found> = None;
    for depth in 1..=max_depth {
        let mut alpha = -WIN - 1;
        let mut scored = Vec::with_capacity(plies.len());
        let mut complete = true;
        for &ply in &plies {
            let mut q = *p;
            q.apply(ply);
            let mut score = -s.negamax(&q, depth - 1, -WIN - 1, -alpha, 1);
            if score > 0 && seen.iter().any(|old| old.repeats(&q)) {
                score = 0;
            }
            if s.nodes > s.budget && best.is_some() {
                complete = false;
                break;
            }
            alpha = alpha.max(score);
            scored.push((score, ply));
        }
        if !complete {
            break;
        }
        scored.sort_by_key(|&(score, _)| -score);
        let (score, ply) = scored[0];
        best = Some(Found { ply, score, depth });
        plies = scored.into_iter().map(|(_, p)| p).collect();
        if score.abs() > WIN - 100 || s.nodes > s.budget {
            break;
        }
    }
    best
}

impl Search {
    fn negamax(&mut self, p: &Position, depth: u32, mut alpha: i32, beta: i32, ply: i32) -> i32 {
        self.nodes += 1;
        if let Some(end) = p.end() {
            return match end.winner() {
                Some(w) if w == p.to_move() => WIN - ply,
                Some(_) => -(WIN - ply),
                None => 0,
            };
        }
        if depth == 0 || self.nodes > self.budget {
            return evaluate(p);
        }
        let mut plies = Vec::new();
        p.legal_plies(&mut plies);
        let mut best = -WIN - 1;
        for m in plies {
            let mut q = *p;
            q.apply(m);
            let score = -self.negamax(&q, depth - 1, -beta, -alpha, ply + 1);
            best = best.max(score);
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        best
    }
}

/// The side to move's view: White gains from tall stacks (steeply, so one tall stack beats two
/// short ones) and both gain from having more plies than the opponent.
fn evaluate(p: &Position) -> i32 {
    let board = p.board();
    // What a stack of each height is worth to White: only tall ones threaten six.
    const TALL: [i32; 7] = [0, 0, 2, 6, 20, 60, 0];
    let mut white = 0;
    for c in 0..board.len() as u8 {
        white += TALL[p.stack(c).height() as usize];
    }
    let mut plies = Vec::new();
    p.legal_plies(&mut plies);
    let mine = plies.len() as i32;
    // The opponent's mobility: as if it were their turn (no just-moved restriction to apply).
    let theirs = {
        let mut q = *p;
        q.pass();
        plies.clear();
        q.legal_plies(&mut plies);
        plies.len() as i32
    };
    let mobility = (mine - theirs) * 10;
    let stacks = if p.to_move() == Color::White {
        white
    } else {
        -white
    };
    stacks + mobility
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_a_stack_of_six_in_one() {
        // b1 is five high; White's two on top of b2 (four high) may climb onto it.
        let p = Position::from_text("x,x/11112,2211,x/x,x 1 - 5").unwrap();
        let found = search(&p, &[], 4, 50_000, 7).unwrap();
        assert_eq!(p.name(found.ply), "b2-b1");
        assert!(found.score > WIN - 100);
    }

    /// A random player: xorshift over the legal plies.
    fn random_ply(p: &Position, state: &mut u64) -> Ply {
        let mut plies = Vec::new();
        p.legal_plies(&mut plies);
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        plies[(*state % plies.len() as u64) as usize]
    }

    #[test]
    fn beats_random_play_with_either_colour() {
        for seed in 1..=20u64 {
            for engine in [Color::White, Color::Black] {
                let mut g = super::super::Game::new(Position::new(7).unwrap());
                let mut state = seed * 7919;
                let mut seen = Vec::new();
                while g.result().is_none() && g.ply_count() < 400 {
                    let p = *g.position();
                    seen.push(p);
                    let ply = if p.to_move() == engine {
                        search(&p, &seen, 4, 20_000, seed).unwrap().ply
                    } else {
                        random_ply(&p, &mut state)
                    };
                    g.play(ply).unwrap();
                }
                let winner = g.result().and_then(|r| r.winner());
                assert_eq!(
                    winner,
                    Some(engine),
                    "seed {seed}, engine {engine:?}: {:?}\n{}",
                    g.result(),
                    g.to_record(&[])
                );
            }
        }
    }
}
