#!/usr/bin/env bash
# Regenerates the contact sheet: every case at full size and at 400 px (Discord's preview).
# Usage: docs/contact-sheet.sh   (BREDON=path/to/bredon to use another build)
set -euo pipefail
cd "$(dirname "$0")/.."
BREDON=${BREDON:-target/debug/bredon}
[ -x "$BREDON" ] || cargo build --quiet
out=docs/sheet
mkdir -p "$out"
draw() { # name, then bredon render arguments
    local name=$1
    shift
    "$BREDON" render --preview -o "$out/$name.png" "$@" >/dev/null
}
MID6="x6/x2,2,x3/x,1,21,2S,x2/x,1C,12,x3/x2,1,x,2,x/x6 2 8"
draw opening-6x6 --tps "x6/x6/x6/x6/x6/x6 1 1"
draw midgame-6x6-spread --tps "$MID6" --last "2d3<11"
draw tall-stacks-6x6 --tps "x6/x6/x,21212121212C,12121212S,x,2121C,x/x6/x6/x6 1 10"
draw hidden-parts-6x6 --hide flats,heights,labels --tps "x6/x6/x,21212121212C,12121212S,x,2121C,x/x6/1,1,1,1,x2/x6 1 10"
draw reserve-tray-6x6 --tray --tps "$MID6" --last "2d3<11"
draw spread-onto-stacks-5x5 --tps "x5/x5/1,1,12,21,1/x5/x5 2 8" --last "3a3>12"
draw tall-stacks-8x8 --tps "x8/x8/x8/x3,1212121212121212121212,x4/x8/x8/x8/x2,1C,x,2S,x,21212,x 2 20"
draw spread-onto-tall-stacks-8x8 --tps "x8/x8/x8/x3,1212121212121212121,x4/x3,1212122,x4/x8/x8/x2,1C,x,2S,x,21212,x 2 20" --last "3d6-12"
draw walls-and-caps-5x5-light --theme light --tps "x5/x,1S,2S,1C,2C/x5/x,1,2,x2/x5 1 5"
draw tak-7x7 --tps "x7/x7/x7/1,1,1,1,1,1,x/x7/2,2,2,2,2,x2/x7 2 7" --last f4
draw tinue-5x5 --tps "x5/1,1,1,1,x/x5/1,1,1,1,x/2,2,2,2,2S 2 6" --last d2
draw road-win-5x5-light --theme light --tps "x2,1,x2/x2,1,x2/1,1,1,1,1/x5/2,2,2,2,x 2 8"
draw flat-win-4x4 --tps "1,2,1,2/2,1,2,1/1,2,1,1/2,1,2,1 2 9"
draw time-out-6x6 --tps "$MID6" --last "2d3<11" --timeout black
draw flat-draw-3x3-colorblind --theme colorblind --tps "2,1,2/1,2,1/2,1,1S 2 5" --last Sc1
for theme in dark light colorblind colorblind-light tritan high-contrast wood slate; do
    draw "theme-$theme" --theme "$theme" --tps "$MID6" --last "2d3<11"
done
draw size-3x3 --tps "x3/x,1,x/2,x2 1 2"
draw size-4x4 --tps "x4/x,2,x2/x,1,1,x/x4 2 3"
draw size-5x5 --tps "x5/x,2,x3/x,1,12,x2/x,2,x3/x5 1 4"
draw size-7x7 --tps "x7/x7/x2,2,x4/x,1,21,1C,x3/x2,2S,x4/x7/x7 1 6"
draw names-cjk-rtl-emoji --tps "$MID6" --player1 "名前 Mei 🐢" --player2 "שלום سلام"
draw takat-7 --game takat --tps "1222,11/2,1212,x/21,22 1 b2 8" --last c2-b2
draw takat-19 --game takat --tps "x,2,x/11,x,1212,x/2,x,22211,x,x/x,21,x,2/x,x,1 2 c3 9" --last b3-c3
draw takat-six --game takat --tps "x,x/111121,221,x/x,x 2 b1 6" --last b2-b1
draw takat-threat --game takat --tps "x,x/11112,2211,x/2,x 2 c1 6" --last c2-c1
echo "wrote $(ls "$out" | wc -l) pictures to $out"
