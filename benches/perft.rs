//! Rules speed: perft (move generation + make/unmake) and Tak detection; and the engine's
//! static evaluation, which the searcher calls at nearly every leaf.

use bredon::engine::eval::evaluate;
use bredon::tak::{perft, Color, Position, Setup};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

const ENDGAME: &str = "2,2,21S,2,2,2/2,x,222221,2,2,x/1,1,2221C,x,111112C,2S/x,1,2S,x2,121211212/1,1,1212S,1S,2,1S/x2,2,1,21,1 1 42";

/// Mid-game positions: no road threat, a placement threat, a spread threat, a tall-stack fight.
const MIDGAME: [(&str, &str); 4] = [
    (
        "quiet 6x6",
        "x2,2,x3/x,2,1,1,x2/x,1,21C,2,x2/x,2,1,12C,1,x/x2,2,1,x2/x6 1 12",
    ),
    (
        "placement threat 6x6",
        "x6/x6/1,1,1,1,1,x/x6/2,2,2,2,x2/x6 2 6",
    ),
    ("spread threat 5x5", "x5/x5/x5/x2,1,x2/1,1,2,1,1 2 5"),
    ("endgame 6x6", ENDGAME),
];

fn perft_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    let mut start = Position::new(Setup::new(6).unwrap());
    group.throughput(Throughput::Elements(13_586_048));
    group.bench_function("6x6 start depth 4", |b| b.iter(|| perft(&mut start, 4)));
    let mut endgame = Position::from_tps(ENDGAME).unwrap();
    group.throughput(Throughput::Elements(2_774_593));
    group.bench_function("6x6 endgame depth 3", |b| b.iter(|| perft(&mut endgame, 3)));
    group.finish();
}

fn tak_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("tak detection");
    for (name, tps) in MIDGAME {
        let p = Position::from_tps(tps).unwrap();
        group.bench_with_input(BenchmarkId::new("is_tak both players", name), &p, |b, p| {
            b.iter(|| (p.is_tak(Color::White), p.is_tak(Color::Black)))
        });
        let mut out = Vec::with_capacity(64);
        group.bench_with_input(BenchmarkId::new("all road wins", name), &p, |b, p| {
            b.iter(|| {
                out.clear();
                p.road_wins(p.to_move(), &mut out);
                out.len()
            })
        });
    }
    group.finish();
}

fn evaluation_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("evaluation");
    for (name, tps) in MIDGAME {
        let p = Position::from_tps(tps).unwrap();
        group.bench_with_input(BenchmarkId::from_parameter(name), &p, |b, p| {
            b.iter(|| evaluate(p))
        });
    }
    group.finish();
}

criterion_group!(benches, perft_benches, tak_benches, evaluation_benches);
criterion_main!(benches);
