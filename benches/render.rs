//! Picture speed: render + PNG encode of the positions the issue names.

use bredon::render::{encode_png, render, Scene, Theme};
use bredon::tak::{Ply, Position};
use criterion::{criterion_group, criterion_main, Criterion};

pub const MIDGAME_6X6: &str = "x2,2,x3/x,2,1,1,x2/x,1,21C,2,x2/x,2,1,12C,1,x/x2,2,1,x2/x6 1 12";
pub const TALL_8X8: &str = "x8/x2,1212121212121212121212,x5/x3,2,21C,x3/x,12,x,2121212S,x4/x2,112,x,2,x3/x8/x3,1,x4/x8 2 30";

/// Mid-games of every size, for the render + PNG numbers of 3x3..8x8.
const MIDGAMES: [(&str, &str, &str); 6] = [
    ("3x3 mid-game", "x,2,x/x,21,1/1,x,2 1 4", "b2>"),
    ("4x4 mid-game", "x,2,x2/x,21,1,x/1,2,12,x/x3,1 1 6", "c2<"),
    (
        "5x5 mid-game",
        "x2,2,x2/x,21,1,2S,x/1,2,12,x2/x,1C,x,1,x/x5 1 8",
        "c3<",
    ),
    ("6x6 mid-game", MIDGAME_6X6, "c4-"),
    (
        "7x7 mid-game",
        "x7/x2,2,x4/x,1,21,1C,x3/x2,2S,12,x3/x,1,2,x,21,x2/x7/x7 1 9",
        "c5<",
    ),
    (
        "8x8 mid-game",
        "x8/x8/x2,2,x5/x,1,21,1C,x4/x2,2S,12,x,2,x2/x,1,2,x,21,x3/x8/x8 1 10",
        "d5<",
    ),
];

fn bench(c: &mut Criterion) {
    let theme = Theme::default();
    for (name, tps, last) in MIDGAMES {
        let p = Position::from_tps(tps).unwrap();
        let scene = Scene::of_position(&p, Some(Ply::parse(last).unwrap().ply), ["alice", "bob"]);
        c.bench_function(&format!("render+png {name}"), |b| {
            b.iter(|| encode_png(&render(&scene, &theme)))
        });
        println!(
            "{name}: PNG {} bytes",
            encode_png(&render(&scene, &theme)).len()
        );
    }
    for (name, tps, last) in [
        ("6x6 mid-game", MIDGAME_6X6, "c4-"),
        ("8x8 tall stacks", TALL_8X8, "d6>"),
    ] {
        let p = Position::from_tps(tps).unwrap();
        let last = Ply::parse(last).unwrap().ply;
        let scene = Scene::of_position(&p, Some(last), ["alice", "bob"]);
        c.bench_function(&format!("render+png {name}"), |b| {
            b.iter(|| encode_png(&render(&scene, &theme)))
        });
        c.bench_function(&format!("render only {name}"), |b| {
            b.iter(|| render(&scene, &theme))
        });
        let img = render(&scene, &theme);
        c.bench_function(&format!("png only {name}"), |b| b.iter(|| encode_png(&img)));
        println!("{name}: PNG {} bytes", encode_png(&img).len());
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
