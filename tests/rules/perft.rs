//! The public perft vectors of RULES.md. Cheap depths run always; deep ones with `--ignored`.

use bredon::tak::{perft, Position, Setup};

const START: [(usize, [u64; 5]); 6] = [
    (3, [9, 72, 1200, 17792, 271812]),
    (4, [16, 240, 7440, 216464, 6468872]),
    (5, [25, 600, 43320, 2999784, 187855252]),
    (6, [36, 1260, 132720, 13586048, 1253506520]),
    (7, [49, 2352, 339696, 48051008, 6813380628]),
    (8, [64, 4032, 764064, 142512336, 26642455192]),
];

const ENDGAME: &str = "2,2,21S,2,2,2/2,x,222221,2,2,x/1,1,2221C,x,111112C,2S/x,1,2S,x2,121211212/1,1,1212S,1S,2,1S/x2,2,1,21,1 1 42";

fn check_start(max_depth: usize, sizes: impl Fn(usize) -> bool) {
    for (size, counts) in START {
        if !sizes(size) {
            continue;
        }
        let mut p = Position::new(Setup::new(size).unwrap());
        for depth in 1..=max_depth {
            assert_eq!(
                perft(&mut p, depth as u32),
                counts[depth - 1],
                "{size}x{size} depth {depth}"
            );
        }
        assert_eq!(
            p,
            Position::new(Setup::new(size).unwrap()),
            "perft leaves the position as it was"
        );
    }
}

#[test]
fn start_positions_to_depth_3() {
    check_start(3, |_| true);
}

#[test]
fn small_boards_to_depth_4_and_5() {
    check_start(4, |s| s <= 6);
    let mut p = Position::new(Setup::new(4).unwrap());
    assert_eq!(perft(&mut p, 5), 6468872);
}

#[test]
fn three_by_three_to_depth_6_where_roads_start() {
    let mut p = Position::new(Setup::new(3).unwrap());
    assert_eq!(perft(&mut p, 6), 3712952);
}

#[test]
fn playtak_endgame_to_depth_3() {
    let mut p = Position::from_tps(ENDGAME).unwrap();
    let counts = [140, 21402, 2774593];
    for (i, &c) in counts.iter().enumerate() {
        assert_eq!(perft(&mut p, i as u32 + 1), c);
    }
}

#[test]
#[ignore = "deep: run with cargo test --release -- --ignored"]
fn deep_vectors() {
    check_start(5, |_| true);
    let mut p = Position::new(Setup::new(3).unwrap());
    assert_eq!(perft(&mut p, 7), 52364896);
    let mut p = Position::from_tps(ENDGAME).unwrap();
    assert_eq!(perft(&mut p, 4), 395359484);
}
