//! Tournament bookkeeping speed: pairing a Swiss round of 32 players late in the event (the
//! backtracking search's hard case: many players already met), the round robin schedule, the
//! standings with tie-breaks, and the crosstable picture with its PNG.
//! Run: cargo bench --bench tournament

use bredon::render::crosstable::{render_crosstable, Crosstable};
use bredon::render::{encode_png, Theme};
use bredon::tournament::{round_robin, standings, swiss, Entry, Format, Pair, Played, Points};
use criterion::{criterion_group, criterion_main, Criterion};
use std::collections::HashSet;

const PLAYERS: usize = 32;
const ROUNDS: usize = 7;

/// Seven Swiss rounds of 32 players, each result decided by a fixed rule.
struct History {
    rounds: Vec<Vec<Played>>,
    /// What the eighth round's pairing starts from.
    entries: Vec<Entry>,
    met: HashSet<(usize, usize)>,
}

fn history() -> History {
    let mut rounds: Vec<Vec<Played>> = Vec::new();
    let mut met = HashSet::new();
    for r in 0..ROUNDS {
        let table = standings(PLAYERS, &rounds, Format::Swiss(ROUNDS as u32 + 1));
        let entries = entries(&table);
        let pairs = swiss(&entries, &met, r);
        let played = pairs
            .iter()
            .enumerate()
            .map(|(b, p)| {
                if let Some(black) = p.black {
                    met.insert((p.white.min(black), p.white.max(black)));
                }
                Played {
                    pair: *p,
                    result: Some([Points::White, Points::Draw, Points::Black][(b + r) % 3]),
                }
            })
            .collect();
        rounds.push(played);
    }
    let table = standings(PLAYERS, &rounds, Format::Swiss(ROUNDS as u32 + 1));
    History {
        entries: entries(&table),
        rounds,
        met,
    }
}

fn entries(table: &[bredon::tournament::Standing]) -> Vec<Entry> {
    table.iter().map(Entry::of).collect()
}

fn bench(c: &mut Criterion) {
    let History {
        rounds,
        entries,
        met,
    } = history();
    c.bench_function("swiss: round 8 of 32 players", |b| {
        b.iter(|| swiss(&entries, &met, ROUNDS))
    });
    c.bench_function("round robin: the whole schedule of 32 players", |b| {
        b.iter(|| {
            (0..31)
                .map(|r| round_robin(PLAYERS, r).len())
                .sum::<usize>()
        })
    });
    let format = Format::Swiss(ROUNDS as u32 + 1);
    c.bench_function("standings: 32 players, 7 rounds", |b| {
        b.iter(|| standings(PLAYERS, &rounds, format))
    });
    let names: Vec<String> = (0..PLAYERS).map(|i| format!("player {i}")).collect();
    let withdrawn = vec![false; PLAYERS];
    let table = standings(PLAYERS, &rounds, format);
    c.bench_function("crosstable: 32 players, 8 rounds, PNG", |b| {
        b.iter(|| {
            let img = render_crosstable(
                &Crosstable {
                    title: "Bench Cup",
                    names: &names,
                    withdrawn: &withdrawn,
                    standings: &table,
                    format,
                    rounds: ROUNDS + 1,
                },
                &Theme::default(),
            );
            encode_png(&img).len()
        })
    });
    // Every pair in the history is distinct: the bench pairs a real late round.
    let pairs: Vec<Pair> = swiss(&entries, &met, ROUNDS);
    assert!(pairs.iter().all(|p| p
        .black
        .is_none_or(|b| !met.contains(&(p.white.min(b), p.white.max(b))))));
}

criterion_group!(benches, bench);
criterion_main!(benches);
