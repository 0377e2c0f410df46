//! The static evaluation: a linear function of features of the position, the weights fitted by
//! `bredon tune` to strong games' positions, each labelled by its result and a stronger engine's
//! chance for it (see `tune`), not set by hand. On 5x5 and 6x6, where Tiltak's games were labelled
//! for it, a small network (`net`) reads the same features with the two sides apart
//! (`split_features`) instead.
//!
//! Most features are counted for each side and enter as the side to move's minus the
//! opponent's, so the evaluation is the same for either colour. Two are the side to move's own
//! and the opponent's apart: how many empty squares each still needs for a road (a threat in two
//! for the side to move is worth far more than one for the side that just moved), and the
//! tempo. One is the position's: near the end of a flat race, how many placements are left
//! before it ends (so who places last). The linear weights, fitted before that count existed,
//! give it 0.

use super::net;
use crate::tak::square::edges;
use crate::tak::{Bitboard, Color, Position};

/// Flats on top (komi counted for Black) in the opening, fading out as reserves run low.
pub(crate) const FLATS_OPENING: usize = 0;
/// Flats on top, fading in as reserves run low (the flat race).
pub(crate) const FLATS_ENDGAME: usize = 1;
const WALLS: usize = 2;
const CAPS: usize = 3;
const RESERVE: usize = 4;
/// Flats on top by kind of square (`square_kind`: corners, edges, rings inwards).
pub(crate) const FLAT_SQUARE: usize = 5;
const SQUARE_KINDS: usize = 10;
const CAP_SQUARE: usize = FLAT_SQUARE + SQUARE_KINDS;
/// Rows and columns by how many of the side's road pieces they hold (0..=8): with nothing of
/// the opponent's in them, with only the opponent's flats, or blocked by a wall or capstone.
const LINE_OPEN: usize = CAP_SQUARE + SQUARE_KINDS;
const LINE_SOFT: usize = LINE_OPEN + 9;
const LINE_BLOCKED: usize = LINE_SOFT + 9;
/// The most rows (or columns) one road group spans (0..=8).
const SPAN: usize = LINE_BLOCKED + 9;
const GROUPS: usize = SPAN + 9;
/// Own pieces under own tops (the carry limit deep): under flats, and under walls or capstones.
const SUPPORTS_FLAT: usize = GROUPS + 1;
const SUPPORTS_HARD: usize = SUPPORTS_FLAT + 1;
/// The opponent's pieces under own tops.
const CAPTIVES_FLAT: usize = SUPPORTS_HARD + 1;
const CAPTIVES_HARD: usize = CAPTIVES_FLAT + 1;
/// Empty squares next to the side's road pieces.
const LIBERTIES: usize = CAPTIVES_HARD + 1;
const FLATS_TOGETHER: usize = LIBERTIES + 1;
/// The opponent's stacks next to the side's capstone.
const CAP_CONTACT: usize = FLATS_TOGETHER + 1;
const PER_SIDE: usize = CAP_CONTACT + 1;
/// Fewest empty squares the side to move needs for a road (1..=6, 7 for more or none).
const MY_DISTANCE: usize = PER_SIDE;
const DISTANCES: usize = 7;
const THEIR_DISTANCE: usize = MY_DISTANCE + DISTANCES;
const TEMPO: usize = THEIR_DISTANCE + DISTANCES;
const TEMPO_ENDGAME: usize = TEMPO + 1;
/// How many placements are left before the game ends on flats if both sides only place from
/// now on (1..=8; none for more): its parity says who places last in the flat race.
const RACE_PLACEMENTS: usize = TEMPO_ENDGAME + 1;
const RACE_COUNTS: usize = 8;

/// How many features describe a position.
pub const FEATURES: usize = RACE_PLACEMENTS + RACE_COUNTS;

/// The name of feature `i` (for `bredon tune`'s report).
pub fn feature_name(i: usize) -> String {
    // Each group's name, with the count (or, for distances, the distance) its index stands for.
    let groups: [(usize, usize, usize, &str); 9] = [
        (FLAT_SQUARE, SQUARE_KINDS, 0, "flats on square kind"),
        (CAP_SQUARE, SQUARE_KINDS, 0, "capstone on square kind"),
        (LINE_OPEN, 9, 0, "open lines holding"),
        (LINE_SOFT, 9, 0, "lines with their flats holding"),
        (LINE_BLOCKED, 9, 0, "blocked lines holding"),
        (SPAN, 9, 0, "widest group span"),
        (MY_DISTANCE, DISTANCES, 1, "side to move's road distance"),
        (THEIR_DISTANCE, DISTANCES, 1, "opponent's road distance"),
        (RACE_PLACEMENTS, RACE_COUNTS, 1, "race placements left"),
    ];
    for (start, len, first, name) in groups {
        if (start..start + len).contains(&i) {
            return format!("{name} {}", i - start + first);
        }
    }
    let single = [
        (FLATS_OPENING, "flats (opening)"),
        (FLATS_ENDGAME, "flats (endgame)"),
        (WALLS, "walls"),
        (CAPS, "capstones on the board"),
        (RESERVE, "pieces in reserve"),
        (GROUPS, "road groups"),
        (SUPPORTS_FLAT, "own pieces under own flats"),
        (SUPPORTS_HARD, "own pieces under walls and capstones"),
        (CAPTIVES_FLAT, "their pieces under own flats"),
        (CAPTIVES_HARD, "their pieces under walls and capstones"),
        (LIBERTIES, "empty squares next to road pieces"),
        (FLATS_TOGETHER, "flats next to own flats"),
        (CAP_CONTACT, "their stacks next to the capstone"),
        (TEMPO, "tempo"),
        (TEMPO_ENDGAME, "tempo (endgame)"),
    ];
    single
        .iter()
        .find(|(j, _)| *j == i)
        .map_or_else(|| format!("feature {i}"), |(_, n)| n.to_string())
}

/// Hundredths of a flat per unit of each feature.
pub type Weights = [f32; FEATURES];

/// The weights Bredon plays with: fitted by `bredon tune` (docs/DEVELOPING.md gives the
/// commands and the data).
pub const WEIGHTS: Weights = [
    40.8, 132.6, 44.3, -48.4, -82.2, 0.3, 5.2, 16.1, 10.7, 22.8, 25.7, 0.0, 0.0, 0.0, 0.0, -143.8,
    -78.0, 49.6, -21.0, 69.2, 96.6, 0.0, 0.0, 0.0, 0.0, 0.0, -5.8, -2.5, 4.0, 6.3, 0.0, 0.0, 0.0,
    0.0, -17.3, -1.0, 3.3, 9.1, 23.3, 31.5, 0.0, 0.0, 0.0, -4.5, -5.1, -4.9, -7.4, -3.2, 13.0, 0.0,
    0.0, 0.0, 21.1, -47.0, -17.9, 5.4, 10.1, 22.4, 0.0, 0.0, 0.0, -9.5, 46.7, 89.5, -32.7, 13.7,
    4.0, -1.1, 13.7, 0.0, 66.6, 24.0, 9.9, -4.5, -2.4, 25.2, 0.0, 2.9, 26.2, 31.0, 46.4, 36.9, 9.8,
    56.1, 31.7, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
];

/// Where features go: summed with weights (the search) or kept (tuning).
trait Sink {
    fn add(&mut self, feature: usize, value: f32);
}

struct Score<'a> {
    weights: &'a Weights,
    total: f32,
}

impl Sink for Score<'_> {
    #[inline]
    fn add(&mut self, feature: usize, value: f32) {
        self.total += self.weights[feature] * value;
    }
}

struct Vector([f32; FEATURES]);

impl Sink for Vector {
    fn add(&mut self, feature: usize, value: f32) {
        self.0[feature] += value;
    }
}

/// The position's value for the side to move, in hundredths of a flat: by the size's network on
/// 5x5 and 6x6 (where its data is), by the linear weights on other sizes.
pub fn evaluate(pos: &Position) -> i32 {
    if let Some(net) = net::for_size(pos.size()) {
        return net.evaluate(&split_features(pos));
    }
    evaluate_with(pos, &WEIGHTS)
}

pub fn evaluate_with(pos: &Position, weights: &Weights) -> i32 {
    let mut score = Score {
        weights,
        total: 0.0,
    };
    describe(pos, &mut score);
    score.total.round() as i32
}

/// Every feature's value in `pos` (what `evaluate_with` weighs).
pub fn features(pos: &Position) -> [f32; FEATURES] {
    let mut v = Vector([0.0; FEATURES]);
    describe(pos, &mut v);
    v.0
}

/// How many numbers describe a position to the network: each side's own features apart (the
/// side to move's, then the opponent's, komi counted on Black's flats), then the road distances
/// and the tempo.
pub const SPLIT_FEATURES: usize = 2 * PER_SIDE + (FEATURES - PER_SIDE);
const _: () = assert!(SPLIT_FEATURES == super::net::INPUTS);

/// The features of `pos` with the two sides apart (see `SPLIT_FEATURES`).
pub fn split_features(pos: &Position) -> [f32; SPLIT_FEATURES] {
    let me = pos.to_move();
    let phase = endgame(pos);
    let mut out = [0.0; SPLIT_FEATURES];
    // The side to move's features at 0, the opponent's at PER_SIDE; the common ones (all at
    // PER_SIDE or above) after both sides', also PER_SIDE on.
    side(pos, me, 1.0, phase, &mut Shifted(&mut out, 0));
    side(
        pos,
        me.opponent(),
        1.0,
        phase,
        &mut Shifted(&mut out, PER_SIDE),
    );
    let komi = pos.setup().komi.halves() as f32 / 2.0;
    let black = if me == Color::Black { 0 } else { PER_SIDE };
    out[black + FLATS_OPENING] += komi * (1.0 - phase);
    out[black + FLATS_ENDGAME] += komi * phase;
    common_features(pos, phase, &mut Shifted(&mut out, PER_SIDE));
    out
}

/// Features written `.1` places on into the network's inputs.
struct Shifted<'a>(&'a mut [f32; SPLIT_FEATURES], usize);

impl Sink for Shifted<'_> {
    #[inline]
    fn add(&mut self, feature: usize, value: f32) {
        self.0[self.1 + feature] += value;
    }
}

/// How far the game is towards its flat race: 0 with full reserves, 1 when a side's is empty.
fn endgame(pos: &Position) -> f32 {
    let start = pos.setup().reserves[0].total().max(1) as f32;
    let left = pos
        .reserve(Color::White)
        .total()
        .min(pos.reserve(Color::Black).total()) as f32;
    (1.0 - left / start).clamp(0.0, 1.0)
}

fn describe(pos: &Position, sink: &mut impl Sink) {
    let me = pos.to_move();
    let phase = endgame(pos);
    side(pos, me, 1.0, phase, sink);
    side(pos, me.opponent(), -1.0, phase, sink);
    let komi = pos.setup().komi.halves() as f32 / 2.0;
    let black = if me == Color::Black { komi } else { -komi };
    sink.add(FLATS_OPENING, black * (1.0 - phase));
    sink.add(FLATS_ENDGAME, black * phase);
    common_features(pos, phase, sink);
}

/// The features that are not one side's minus the other's: road distances and the tempo.
fn common_features(pos: &Position, phase: f32, sink: &mut impl Sink) {
    let me = pos.to_move();
    let mine = road_distance(pos, me).min(DISTANCES as u32).max(1) as usize;
    let theirs = road_distance(pos, me.opponent())
        .min(DISTANCES as u32)
        .max(1) as usize;
    sink.add(MY_DISTANCE + mine - 1, 1.0);
    sink.add(THEIR_DISTANCE + theirs - 1, 1.0);
    sink.add(TEMPO, 1.0);
    sink.add(TEMPO_ENDGAME, phase);
    let left = race_placements(pos);
    if (1..=RACE_COUNTS as u32).contains(&left) {
        sink.add(RACE_PLACEMENTS + left as usize - 1, 1.0);
    }
}

/// How many placements end the game on flats if both sides only place from now on, the side to
/// move first: the board's empty squares, or fewer where a reserve runs out first (the side to
/// move places its last piece on the odd one, the opponent on the even one).
pub(super) fn race_placements(pos: &Position) -> u32 {
    let mine = pos.reserve(pos.to_move()).total();
    let theirs = pos.reserve(pos.to_move().opponent()).total();
    let by_reserve = if mine <= theirs {
        (2 * mine).saturating_sub(1)
    } else {
        2 * theirs
    };
    by_reserve.min(pos.empty_squares().count())
}

/// The features counted for one side, added with `sign` (+1 the side to move, -1 the other).
fn side(pos: &Position, c: Color, sign: f32, phase: f32, sink: &mut impl Sink) {
    let size = pos.size();
    let e = edges(size);
    let mine = pos.controlled_by(c);
    let theirs = pos.controlled_by(c.opponent());
    let road = pos.road_squares(c);
    let hard = pos.walls() | pos.caps();
    let flats = mine & !hard;
    let caps = mine & pos.caps();
    let mut add = |feature: usize, value: f32| sink.add(feature, sign * value);

    let flat_count = flats.count() as f32;
    add(FLATS_OPENING, flat_count * (1.0 - phase));
    add(FLATS_ENDGAME, flat_count * phase);
    add(WALLS, (mine & pos.walls()).count() as f32);
    add(CAPS, caps.count() as f32);
    add(RESERVE, pos.reserve(c).total() as f32);
    for sq in flats.squares() {
        add(FLAT_SQUARE + square_kind(sq.file(), sq.rank(), size), 1.0);
    }
    for sq in caps.squares() {
        add(CAP_SQUARE + square_kind(sq.file(), sq.rank(), size), 1.0);
        add(
            CAP_CONTACT,
            (sq.bit().neighbours(e.board) & theirs).count() as f32,
        );
    }

    let blockers = (theirs & hard) | (mine & pos.walls());
    for i in 0..size {
        for line in [Bitboard(e.south.0 << (8 * i)), Bitboard(e.west.0 << i)] {
            let held = (road & line).count() as usize;
            let kind = if !(blockers & line).is_empty() {
                LINE_BLOCKED
            } else if !(theirs & line).is_empty() {
                LINE_SOFT
            } else {
                LINE_OPEN
            };
            add(kind + held, 1.0);
        }
    }

    let mut rest = road;
    let mut span_best = 0;
    let mut groups = 0.0;
    while let Some(sq) = rest.squares().next() {
        let group = sq.bit().flood(road);
        rest = Bitboard(rest.0 & !group.0);
        groups += 1.0;
        let (mut rows, mut cols) = (0u32, 0u32);
        for s in group.squares() {
            rows |= 1 << s.rank();
            cols |= 1 << s.file();
        }
        span_best = span_best.max(rows.count_ones()).max(cols.count_ones());
    }
    add(SPAN + span_best as usize, 1.0);
    add(GROUPS, groups);

    for sq in mine.squares() {
        let stack = pos.stack(sq);
        if stack.height() < 2 {
            continue;
        }
        let below = stack.colors().rev().skip(1).take(size);
        let (mut own, mut captive) = (0.0, 0.0);
        for x in below {
            if x == c {
                own += 1.0;
            } else {
                captive += 1.0;
            }
        }
        if hard.contains(sq) {
            add(SUPPORTS_HARD, own);
            add(CAPTIVES_HARD, captive);
        } else {
            add(SUPPORTS_FLAT, own);
            add(CAPTIVES_FLAT, captive);
        }
    }
    add(
        LIBERTIES,
        (road.neighbours(e.board) & pos.empty_squares()).count() as f32,
    );
    add(
        FLATS_TOGETHER,
        (flats & flats.neighbours(e.board)).count() as f32,
    );
}

/// The kind of a square, the same for its eight mirror images: 0 a corner, then by distance
/// from the nearer edges (10 kinds cover boards up to 8x8).
pub(crate) fn square_kind(file: u8, rank: u8, size: usize) -> usize {
    let last = size as u8 - 1;
    let a = file.min(last - file) as usize;
    let b = rank.min(last - rank) as usize;
    let (lo, hi) = (a.min(b), a.max(b));
    hi * (hi + 1) / 2 + lo
}

/// The fewest empty squares `c` must place on to finish a road across the board (0: a road
/// already; more than the board's size: none possible), counting the opponent's pieces and
/// walls as blocks.
fn road_distance(pos: &Position, c: Color) -> u32 {
    let e = edges(pos.size());
    let road = pos.road_squares(c);
    let open = pos.empty_squares();
    let across = |from: Bitboard, to: Bitboard| -> u32 {
        let mut reached = (from & road).flood(road);
        for placed in 0..=pos.size() as u32 {
            if !(reached & to).is_empty() {
                return placed;
            }
            let step = (reached.neighbours(e.board) | from) & open & !reached;
            if step.is_empty() {
                break;
            }
            let within = reached | step | road;
            reached = (reached | step).flood(within);
        }
        u32::MAX
    };
    across(e.north, e.south).min(across(e.west, e.east))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position(tps: &str) -> Position {
        Position::from_tps(tps).unwrap()
    }

    #[test]
    fn square_kinds_are_the_same_under_mirroring() {
        for size in 3..=8u8 {
            for f in 0..size {
                for r in 0..size {
                    let k = square_kind(f, r, size as usize);
                    assert!(k < SQUARE_KINDS);
                    assert_eq!(k, square_kind(r, f, size as usize));
                    assert_eq!(k, square_kind(size - 1 - f, r, size as usize));
                }
            }
        }
        assert_eq!(square_kind(0, 0, 6), 0);
        assert_ne!(square_kind(2, 2, 6), square_kind(1, 2, 6));
    }

    #[test]
    fn the_race_counts_the_placements_left_to_its_end() {
        // White's last piece ends the game on the first placement; with Black to move, White's
        // last piece comes second. Where the board fills first, its empty squares count.
        for (tps, left) in [
            ("111111111,x2/2222222,x2/x3 1 9", 1),
            ("111111111,x2/2222222,x2/x3 2 9", 2),
            ("1,2,1/2,1,2/x2,1 2 5", 2),
            ("x3/x,1,x/x2,2 1 2", 9 - 2),
        ] {
            let p = position(tps);
            assert_eq!(race_placements(&p), left, "{tps}");
            let one_hot = &features(&p)[RACE_PLACEMENTS..RACE_PLACEMENTS + RACE_COUNTS];
            let expected: Vec<f32> = (1..=RACE_COUNTS as u32)
                .map(|n| if n == left { 1.0 } else { 0.0 })
                .collect();
            assert_eq!(one_hot, &expected[..], "{tps}");
        }
    }

    #[test]
    fn every_feature_has_a_name_of_its_own() {
        let names: std::collections::HashSet<String> = (0..FEATURES).map(feature_name).collect();
        assert_eq!(names.len(), FEATURES);
        assert!(!names.iter().any(|n| n.starts_with("feature ")));
        assert_eq!(feature_name(MY_DISTANCE), "side to move's road distance 1");
        assert_eq!(feature_name(SPAN + 4), "widest group span 4");
    }

    #[test]
    fn road_distance_counts_the_empty_squares_still_needed() {
        // White holds a1..e1: one square from a road; Black's lone flat needs five more.
        let pos = position("1,1,1,1,1,x/x6/x6/x6/x6/2,x5 1 4");
        assert_eq!(road_distance(&pos, Color::White), 1);
        assert_eq!(road_distance(&pos, Color::Black), 5);
        // A Black wall on f6's row end blocks that line: White goes around through row 2.
        let pos = position("1,1,1,1,1,2S/x6/x6/x6/x6/2,x5 1 4");
        assert_eq!(road_distance(&pos, Color::White), 2);
    }

    #[test]
    fn the_evaluation_is_the_same_for_either_colour() {
        // The same shape for White to move and, mirrored in colour, for Black to move.
        let white = position("1,1,x4/2,x5/x6/x6/x6/x6 1 2");
        let black = position("2,2,x4/1,x5/x6/x6/x6/x6 2 2");
        assert_eq!(features(&white)[..PER_SIDE], features(&black)[..PER_SIDE]);
        assert_eq!(evaluate(&white), evaluate(&black));
        // Komi is Black's alone: the same shape is worth more to Black than to White.
        let komi = |tps: &str| {
            let setup = crate::tak::Setup::new(6)
                .unwrap()
                .with_komi(crate::tak::Komi::parse("2").unwrap());
            Position::from_tps_with(tps, setup).unwrap()
        };
        let (white, black) = (
            komi("1,1,x4/2,x5/x6/x6/x6/x6 1 2"),
            komi("2,2,x4/1,x5/x6/x6/x6/x6 2 2"),
        );
        assert!(evaluate(&black) > evaluate(&white));
        assert_eq!(
            features(&white)[2..PER_SIDE],
            features(&black)[2..PER_SIDE],
            "komi moves the flat counts alone"
        );
    }

    #[test]
    fn each_network_wants_flats_and_fears_a_road_in_two() {
        // Per size: a quiet even position; the same with the side to move a flat behind; White
        // to move with a row two empty squares from a road; the same pieces scattered.
        let cases = [
            (
                "x6/x6/x2,1,2,x2/x6/x6/x6 1 3",
                "x6/x6/x2,1,2,x2/x2,1,x3/x6/x6 2 3",
                "x6/x6/1,1,1,1,x2/x6/2,2,x4/x4,2,2 1 5",
                "x6/1,x5/x,1,x2,1,x/x6/2,2,x3,1/x4,2,2 1 5",
            ),
            (
                "x5/x5/x,1,2,x2/x5/x5 1 3",
                "x5/x5/x,1,2,x2/x,1,x3/x5 2 3",
                "x5/x5/1,1,1,x2/2,x4/x3,2,2 1 4",
                "1,x4/x2,1,x2/x4,1/2,x4/x3,2,2 1 4",
            ),
        ];
        for (even, flat_down, row, scattered) in cases {
            let pos = position(even);
            let net = net::for_size(pos.size()).expect("a network for 5x5 and 6x6");
            let eval = |tps: &str| net.evaluate(&split_features(&position(tps)));
            assert_eq!(
                evaluate(&pos),
                eval(even),
                "`evaluate` asks the size's network"
            );
            let (even, flat_down) = (eval(even), eval(flat_down));
            assert!(flat_down < even, "{flat_down} < {even}");
            let (row, scattered) = (eval(row), eval(scattered));
            assert!(row > scattered + 50, "{row} > {scattered} + 50");
        }
    }
}
