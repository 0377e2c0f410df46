//! Perft: the number of leaves of the tree of legal plies, the standard test of move generation.

use super::ply::Ply;
use super::position::Position;

/// Leaves at `depth`. A finished game is a leaf with nothing below it; the last depth is counted
/// without playing its plies (`count_plies` is exact, game-ending plies included).
pub fn perft(position: &mut Position, depth: u32) -> u64 {
    let mut lists = vec![Vec::with_capacity(256); depth as usize];
    walk(position, depth, &mut lists)
}

fn walk(position: &mut Position, depth: u32, lists: &mut [Vec<Ply>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    if position.ply_index() > 0 && position.is_over() {
        return 0;
    }
    if depth == 1 {
        return position.count_plies();
    }
    let (list, rest) = lists.split_first_mut().expect("one list per depth");
    list.clear();
    position.generate_plies(list);
    let mut total = 0;
    for &ply in list.iter() {
        let undo = position.play_unchecked(ply);
        total += walk(position, depth - 1, rest);
        position.undo(undo);
    }
    total
}
