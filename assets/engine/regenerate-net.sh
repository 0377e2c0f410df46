#!/usr/bin/env bash
# Regenerates a network Bredon evaluates with: assets/engine/net-6x6.txt (the default) or
# net-5x5.txt. Tiltak's games against itself (6x6 komi 2, or 5x5 komi 0), every quiet position
# of them labelled by Tiltak's chance after a 4,000-node search (`bredon label`), then the
# network trained on those chances (`bredon tune --net`).
# Usage: assets/engine/regenerate-net.sh /path/to/tiltak/target/release [6|5]
# (a Tiltak built with `cargo build --release --bin main --bin tei --features smol`). Tiltak
# thinks by the clock, so a new run plays other games; about four hours on two cores for 6x6,
# two for 5x5.
set -euo pipefail
tiltak=$(cd "$1" && pwd)/tei
size=${2:-6}
cd "$(dirname "$0")/../.."
cargo build --release --quiet
bredon=$PWD/target/release/bredon
data=$(mktemp -d)
# Tiltak exits now and then in a long run, which ends the match ("the engine ... exited"): the
# process is started again from the game after the last one its file holds, until all are played
# (three starts in a row that add no game stop the script, saying so).
self_play() { # komi, openings, movetime, games, first game, file
    local played=0 stalled=0 before
    while [ "$played" -lt "$4" ]; do
        before=$played
        "$bredon" match --a "tei:$tiltak" --b "tei:$tiltak" --size "$size" --komi "$1" \
            --openings "$2" --movetime "$3" --games $(($4 - played)) \
            --first-game $(($5 + played)) --ptn "$data/$6" >/dev/null || true
        # Each game in the file starts with its tags; no file yet counts 0.
        played=$(grep -c '^\[Size ' "$data/$6" 2>/dev/null || true)
        played=${played:-0}
        if [ "$played" -gt "$before" ]; then stalled=0; else stalled=$((stalled + 1)); fi
        if [ "$stalled" -ge 3 ]; then
            echo "self-play into $6 stopped after $played of $4 games" >&2
            kill -TERM $$ # the script, not only this background copy of the function
            return 1
        fi
    done
}
label() { # labels file, then the games' files
    local out=$1
    shift
    "$bredon" label "${@/#/--ptn=}" --teacher "tei:$tiltak" --nodes 4000 --threads 2 >"$out"
}
# Two processes side by side, one core each. The first openings of a larger book are the same
# whatever its size, so a later pair with a larger book plays openings the others did not.
case $size in
6)
    # From game 9001 (opening 4501): openings neither the matches against Tiltak nor the games
    # of the network before this one began with. Six pairs of 1,000 games each, the first from
    # a book of 7,000 openings, the others from one of 12,000.
    sets=(first second third fourth fifth sixth)
    for i in "${!sets[@]}"; do
        first=$((9001 + 2000 * i))
        book=$((i == 0 ? 7000 : 12000))
        self_play 2 $book 10 1000 $first "${sets[i]}1.ptn" &
        self_play 2 $book 10 1000 $((first + 1000)) "${sets[i]}2.ptn" &
        wait
    done
    training=(--epochs 48 --decay 3e-5)
    ;;
5)
    # From game 1001 (opening 501): the first 500 openings stay for matches against Tiltak.
    self_play 0 5000 10 1250 1001 first1.ptn & self_play 0 5000 10 1250 2251 first2.ptn & wait
    self_play 0 5000 10 1250 3501 second1.ptn & self_play 0 5000 10 1250 4751 second2.ptn & wait
    self_play 0 5000 10 1250 6001 third1.ptn & self_play 0 5000 10 1250 7251 third2.ptn & wait
    self_play 0 7000 10 1250 8501 fourth1.ptn & self_play 0 7000 10 1250 9751 fourth2.ptn & wait
    sets=(first second third fourth)
    training=()
    ;;
*)
    echo "a network is trained for 6x6 or 5x5, not $size" >&2
    exit 2
    ;;
esac
labels=()
for set in "${sets[@]}"; do
    label "$data/$set.tsv" "$data/$set"1.ptn "$data/$set"2.ptn
    labels+=(--labels "$data/$set.tsv")
done
"$bredon" tune "${labels[@]}" --teacher-share 1 "${training[@]}" --net "assets/engine/net-${size}x$size.txt"
echo "games and labels kept in $data"
