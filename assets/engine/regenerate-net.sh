#!/usr/bin/env bash
# Regenerates assets/engine/net-6x6.txt, the network Bredon evaluates 6x6 with: Tiltak's games
# against itself (6x6, komi 2), every quiet position of them labelled by Tiltak's chance after a
# 4,000-node search (`bredon label`), then the network trained on those chances
# (`bredon tune --net`). Usage: assets/engine/regenerate-net.sh /path/to/tiltak/target/release
# (a Tiltak built with `cargo build --release --bin main --bin tei --features smol`). Tiltak
# thinks by the clock, so a new run plays other games; about 140 minutes on two cores.
set -euo pipefail
tiltak=$(cd "$1" && pwd)/tei
cd "$(dirname "$0")/../.."
cargo build --release --quiet
bredon=$PWD/target/release/bredon
data=$(mktemp -d)
self_play() { # openings, movetime, games, first game, file
    "$bredon" match --a "tei:$tiltak" --b "tei:$tiltak" --size 6 --komi 2 --openings "$1" \
        --movetime "$2" --games "$3" --first-game "$4" --ptn "$data/$5" >/dev/null
}
# Two processes side by side, one core each. The first 2,400 openings of a larger book are the
# same, so the third pair plays openings the others did not.
self_play 2400 20 400 1 slow1.ptn & self_play 2400 20 391 401 slow2.ptn & wait
self_play 2400 10 1000 1001 fast1.ptn & self_play 2400 10 1000 2001 fast2.ptn & wait
self_play 5000 10 1000 4801 more1.ptn & self_play 5000 10 1000 5801 more2.ptn & wait
self_play 5000 10 1000 6801 last1.ptn & self_play 5000 10 1000 7801 last2.ptn & wait
"$bredon" label --ptn "$data/slow1.ptn" --ptn "$data/slow2.ptn" --teacher "tei:$tiltak" \
    --nodes 4000 --threads 2 >"$data/slow.tsv"
"$bredon" label --ptn "$data/fast1.ptn" --ptn "$data/fast2.ptn" --teacher "tei:$tiltak" \
    --nodes 4000 --threads 2 >"$data/fast.tsv"
"$bredon" label --ptn "$data/more1.ptn" --ptn "$data/more2.ptn" --teacher "tei:$tiltak" \
    --nodes 4000 --threads 2 >"$data/more.tsv"
"$bredon" label --ptn "$data/last1.ptn" --ptn "$data/last2.ptn" --teacher "tei:$tiltak" \
    --nodes 4000 --threads 2 >"$data/last.tsv"
"$bredon" tune --labels "$data/slow.tsv" --labels "$data/fast.tsv" --labels "$data/more.tsv" \
    --labels "$data/last.tsv" \
    --teacher-share 1 --net assets/engine/net-6x6.txt
echo "games and labels kept in $data"
