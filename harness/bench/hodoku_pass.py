"""The time of the HoDoKu-order pass alone (``--help`` says how to run it).

`solvers.human.rate` solves a puzzle twice: the engine's propagation (Sudoku
Explainer's order) and the pass in HoDoKu's order that gives the HoDoKu score
and level (`solvers.human.hodoku_path`).  This program times the second alone:
for each puzzle it runs the propagation first, untimed, then times
`hodoku_path` from the same start, and prints per set the median, mean, p90 and
largest time, and how many of the pass's steps were forcing chains, forcing
nets and brute force.  Corpora are built-in names or files; ``--sample N`` times
N puzzles drawn with ``--seed``.  Times are wall-clock ``perf_counter``
milliseconds in this process; nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from harness.bench.hodoku import load
from solvers.grid import Grid, PuzzleFormatError
from solvers.human.engine import propagate
from solvers.human.hodoku_path import hodoku_path
from solvers.human.state import CandidateState
from solvers.human.table import resolve

HEADER = ["set", "puzzles", "median ms", "mean ms", "p90 ms", "max ms", "chains", "nets", "guesses"]
LAST_RESORT = ("Forcing Chain", "Forcing Net", "Brute Force")


def time_pass(puzzle: str) -> tuple[float, dict[str, int]]:
    """Milliseconds of the HoDoKu pass over one puzzle, and its step counts."""
    grid = Grid.parse(puzzle)
    start = CandidateState.from_grid(grid)
    config = propagate(start.copy(), tuple(t.name for t in resolve(None))).config
    began = time.perf_counter()
    path = hodoku_path(grid, config, start)
    return 1000 * (time.perf_counter() - began), path.counts


def row(name: str, timed: list[tuple[float, dict[str, int]]]) -> list[str]:
    """One set's figures: times, and the last-resort steps summed over the set."""
    ms = sorted(t for t, _ in timed)
    p90 = ms[int(0.9 * (len(ms) - 1))]
    used = [str(sum(c.get(kind, 0) for _, c in timed)) for kind in LAST_RESORT]
    figures = (statistics.median(ms), statistics.mean(ms), p90, ms[-1])
    return [name, str(len(ms)), *(f"{x:,.1f}" for x in figures), *used]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m harness.bench.hodoku_pass",
        description=__doc__.split("\n\n")[0],
        epilog="example: python -m harness.bench.hodoku_pass gen9-extreme --sample 30",
    )
    parser.add_argument("corpora", nargs="+", help="built-in corpus names or puzzle files")
    parser.add_argument("--sample", type=int, default=0, help="time N puzzles of each set")
    parser.add_argument("--seed", type=int, default=1, help="seed of the sample (default 1)")
    args = parser.parse_args(argv)
    rows = []
    for argument in args.corpora:
        try:
            puzzles = load(argument, args.sample, args.seed)
        except (OSError, PuzzleFormatError) as exc:
            print(f"python -m harness.bench.hodoku_pass: {exc}", file=sys.stderr)
            return 2
        if not puzzles:
            continue
        label = Path(argument).name if Path(argument).is_file() else argument
        rows.append(row(label, [time_pass(p) for p in puzzles]))
    lines = ["| " + " | ".join(HEADER) + " |", "|" + " --- |" * len(HEADER)]
    print("\n".join(lines + ["| " + " | ".join(r) + " |" for r in rows]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
