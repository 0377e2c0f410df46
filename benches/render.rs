//! Picture speed: render + PNG encode of the positions the issue names.

use bredon::render::{encode_png, render, Scene, Theme};
use bredon::tak::{Ply, Position};
use criterion::{criterion_group, criterion_main, Criterion};

pub const MIDGAME_6X6: &str = "x2,2,x3/x,2,1,1,x2/x,1,21C,2,x2/x,2,1,12C,1,x/x2,2,1,x2/x6 1 12";
pub const TALL_8X8: &str = "x8/x2,1212121212121212121212,x5/x3,2,21C,x3/x,12,x,2121212S,x4/x2,112,x,2,x3/x8/x3,1,x4/x8 2 30";

fn bench(c: &mut Criterion) {
    let theme = Theme::default();
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
