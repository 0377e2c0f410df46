#!/usr/bin/env python3
"""Bredon's Tinue solver against Tiltak's proof search, process against process.

Positions: from every game of a PTN file that ended in a road, the positions 3, 5 and 7 plies
before the road (the winner to move). Each is solved by `bredon tinue --json` and by Tiltak's
`main` (`tinue SIZE KOMI`, then the TPS; it stops after 1,000,000 selections); verdicts are
compared and the wall time of each process summed.

Usage: docs/tinue-vs-tiltak.py GAMES.ptn TILTAK_MAIN [BREDON]
KOMI=0 in the environment solves every position with that komi instead of the game's (Tiltak
knows only some komi per size: 7x7 and 8x8 with komi 2 stop it).
(Tiltak built outside this repository: cargo build --release --bin main). A process that takes
longer than LIMIT_S seconds is stopped and counts as no verdict, at LIMIT_S.
"""
import json
import os
import subprocess
import sys
import time


LIMIT_S = 20


def run(cmd, stdin=None):
    """A process's output and wall time; past LIMIT_S seconds it is stopped (no verdict)."""
    started = time.perf_counter()
    try:
        out = subprocess.run(cmd, input=stdin, capture_output=True, text=True, timeout=LIMIT_S)
        return out.stdout, time.perf_counter() - started
    except subprocess.TimeoutExpired:
        return "", float(LIMIT_S)


def positions(bredon, ptn):
    found, game = [], 1
    while True:
        out = subprocess.run([bredon, "replay", "--json", "--game", str(game), ptn],
                             capture_output=True, text=True)
        if out.returncode != 0:
            return found
        replay = json.loads(out.stdout)
        plies = replay["plies"]
        result = plies[-1]["result"] if plies else None
        if result in ("R-0", "0-R"):
            for before in (3, 5, 7):
                if len(plies) > before + 2:
                    tps = plies[-before - 1]["tps"]
                    found.append((game, before, tps, replay["komi"]))
        game += 1


def main():
    ptn, tiltak = sys.argv[1], sys.argv[2]
    bredon = sys.argv[3] if len(sys.argv) > 3 else "target/release/bredon"
    rows, time_b, time_t = [], 0.0, 0.0
    agree = disagree = 0
    for game, before, tps, komi in positions(bredon, ptn):
        komi = os.environ.get("KOMI", komi)
        size = len(tps.split()[0].split("/"))
        out, tb = run([bredon, "tinue", "--json", "--komi", str(komi), "--tps", tps])
        ours = json.loads(out)["verdict"] if out else "unknown"
        out, tt = run([tiltak], f"tinue {size} {komi}\n{tps}\n")
        theirs = ("tinue" if "Some(Proved)" in out
                  else "no tinue" if "Some(Disproved)" in out else "unknown")
        time_b, time_t = time_b + tb, time_t + tt
        if "unknown" not in (ours, theirs):
            agree += ours == theirs
            disagree += ours != theirs
        rows.append((game, before, size, ours, theirs, tb, tt, tps))
        print(f"game {game:3} -{before} {size}x{size}: bredon {ours:9} {tb*1000:8.1f} ms | "
              f"tiltak {theirs:9} {tt*1000:8.1f} ms", flush=True)
    print(f"{len(rows)} positions: {agree} verdicts agree, {disagree} disagree; "
          f"bredon {time_b:.2f} s, tiltak {time_t:.2f} s in all")
    for r in rows:
        if "unknown" not in (r[3], r[4]) and r[3] != r[4]:
            print("DISAGREE", r)


main()
