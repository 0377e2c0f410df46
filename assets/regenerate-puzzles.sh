#!/usr/bin/env bash
# Regenerates assets/puzzles.jsonl, Bredon's starter puzzles: self-play games on 4x4 to 6x6
# (`bredon match --ptn`), then every "play and win" puzzle mined from them (`bredon puzzles
# mine`). The engines think by the clock, so a new run finds other games and other puzzles;
# these are the runs the shipped set came from. Takes about half an hour on two cores.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bredon=$PWD/target/release/bredon
games=$(mktemp -d)
cd "$games"
play() { # file, then bredon match arguments
    local file=$1
    shift
    "$bredon" match --ptn "$file" "$@" >/dev/null
}
play games-4x4.ptn --a hard --b easy --size 4 --games 30 --movetime 10 --openings 15
play games-4x4.ptn --a hard --b easy --size 4 --games 60 --movetime 10 --openings 30
play games-5x5.ptn --a hard --b easy --size 5 --games 40 --movetime 30 --openings 20
play games-5x5.ptn --a hard --b easy --size 5 --games 60 --movetime 10 --openings 30
play games-6x6.ptn --a hard --b medium --size 6 --komi 2 --games 40 --movetime 30 --openings 20
play games-6x6.ptn --a hard --b easy --size 6 --komi 2 --games 40 --movetime 15 --openings 20
play games-6x6.ptn --a hard --b easy --size 6 --komi 2 --games 40 --movetime 15 --openings 40
"$bredon" puzzles mine games-4x4.ptn games-5x5.ptn games-6x6.ptn \
    --out "$OLDPWD/assets/puzzles.jsonl"
# 7x7: ten games each of many pairings, komis and thinking times (the openings are drawn with a
# fixed seed, so variety comes from the engines), mined at 30,000 nodes per position: 200,000
# made one game cost more than all the smaller boards together.
seven() {
    play games-7x7.ptn --size 7 --games 10 "$@"
}
for i in 1 2 3 4 5 6 7 8 9 10; do
    seven --a hard --b easy --komi 2 --movetime 15 --openings $((5 * i))
done
seven --a hard --b beginner --movetime 10 --komi 2 --openings 10
seven --a hard --b medium --movetime 20 --komi 0 --openings 10
seven --a medium --b easy --komi 2 --openings 10
seven --a hard --b easy --movetime 40 --komi 0 --openings 10
seven --a medium --b beginner --komi 0 --openings 10
seven --a hard --b medium --movetime 8 --komi 2 --openings 10
seven --a easy --b beginner --komi 2 --openings 10
seven --a hard --b easy --movetime 25 --komi 1 --openings 10
seven --a medium --b hard --movetime 12 --komi 2 --openings 10
seven --a easy --b medium --komi 0 --openings 10
seven --a hard --b beginner --movetime 30 --komi 0 --openings 10
seven --a beginner --b hard --movetime 15 --komi 2 --openings 10
seven --a hard --b beginner --movetime 20 --komi 1 --openings 20
seven --a hard --b medium --movetime 30 --komi 2 --openings 20
seven --a medium --b easy --komi 0 --openings 20
seven --a hard --b easy --movetime 12 --komi 2 --openings 20
seven --a easy --b beginner --komi 0 --openings 20
seven --a hard --b medium --movetime 50 --komi 0 --openings 20
seven --a medium --b beginner --komi 2 --openings 20
seven --a beginner --b hard --movetime 25 --komi 0 --openings 20
"$bredon" puzzles mine games-7x7.ptn --nodes 30000 >>"$OLDPWD/assets/puzzles.jsonl"
# Issue 40: every puzzle's shortest forced line (no position twice; the solver's line with its
# circles cut out where the search runs out of nodes), those longer than 21 plies retired in
# place so numbers keep their puzzles; then more puzzles appended from games of node-limited
# engines (the same games, so the same puzzles, on every machine).
"$bredon" puzzles refine "$OLDPWD/assets/puzzles.jsonl" --out "$OLDPWD/assets/puzzles.jsonl"
play games-5x5-nodes.ptn --a medium --b easy --size 5 --games 80 --openings 40
"$bredon" puzzles mine games-5x5-nodes.ptn --out "$OLDPWD/assets/puzzles.jsonl" --append
# "Play and survive" puzzles (a threatened Tinuë to escape), appended after the others, from
# games of their own on 4x4 and 5x5 (the 5x5 mining takes about twenty minutes).
play games-4x4-survive.ptn --a hard --b easy --size 4 --games 40 --movetime 10 --openings 20
"$bredon" puzzles mine --survive --nodes 30000 games-4x4-survive.ptn \
    --out "$OLDPWD/assets/puzzles.jsonl" --append
play games-5x5-survive.ptn --a hard --b easy --size 5 --games 40 --movetime 10 --openings 20
"$bredon" puzzles mine --survive --nodes 30000 games-5x5-survive.ptn \
    --out "$OLDPWD/assets/puzzles.jsonl" --append
# "Play and win on flats" puzzles (Gaelets: a win on flats forced within five plies), appended
# after those, from games of node-limited engines on 4x4 and 5x5 (the same games, so the same
# puzzles, on every machine; the 5x5 games take about fifteen minutes).
play games-4x4-flats.ptn --a medium --b easy --size 4 --games 160 --openings 80
play games-5x5-flats.ptn --a hard --b medium --size 5 --games 100 --openings 50
"$bredon" puzzles mine --flats games-4x4-flats.ptn games-5x5-flats.ptn \
    --out "$OLDPWD/assets/puzzles.jsonl" --append
# And from 6x6 games of a stronger engine against itself, where flat races are played well:
# Tiltak (built outside this repository, its `tei` named by TILTAK_TEI) at 20 ms a ply, 100
# games with komi 2, about ten minutes of mining. The shipped four came from the first 100 games
# of a longer run of the same kind; Tiltak thinks by the clock, so another run finds others.
if [ -n "${TILTAK_TEI:-}" ]; then
    play games-6x6-tiltak.ptn --a "tei:$TILTAK_TEI" --b "tei:$TILTAK_TEI" --size 6 --komi 2 \
        --games 100 --openings 50 --movetime 20
    "$bredon" puzzles mine --flats games-6x6-tiltak.ptn --out "$OLDPWD/assets/puzzles.jsonl" \
        --append
fi
# "Play and survive" on 6x6 (issue 62), appended last: 120 games of three pairings with komi 2,
# mined on the cheaper test (a position with more than three replies the solver cannot decide
# within the budget is passed over at once), about eight minutes of mining on two cores.
play games-6x6-survive.ptn --a hard --b easy --size 6 --komi 2 --games 40 --movetime 10 --openings 20
play games-6x6-survive.ptn --a hard --b medium --size 6 --komi 2 --games 40 --movetime 10 --openings 40
play games-6x6-survive.ptn --a medium --b easy --size 6 --komi 2 --games 40 --movetime 10 --openings 60
"$bredon" puzzles mine --survive --nodes 30000 games-6x6-survive.ptn \
    --out "$OLDPWD/assets/puzzles.jsonl" --append
