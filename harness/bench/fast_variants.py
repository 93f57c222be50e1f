"""`fast` on the built-in variant corpora, beside CP-SAT: ``python -m harness.bench.fast_variants``.

For each corpus, every puzzle ``fast`` takes is solved with ``limit=2`` (the
uniqueness proof) by ``fast`` and by ``cpsat`` (its defaults: one worker),
one puzzle at a time through `Solver.stage`, so only the solve is timed (the
tables and the model are built before).  A puzzle's time is the median of
``--repeat`` runs after a warm-up run, wall clock; the figure is the median
over the puzzles.  Every answer is checked with `solvers.check` against the
corpus's truth, and both solvers must prove it unique (a failure aborts).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import solvers
from corpora.corpus import open_corpus
from harness.measure import settle_heap
from solvers.base import Solver
from solvers.grid import Grid

CORPORA = ("killer9", "jigsaw9", "x9", "antiknight9", "mixed9", "variants6")


def solve_time(solver: Solver, puzzle: Grid, repeat: int) -> tuple[float, object]:
    """The median seconds of `repeat` staged runs (after one warm-up), and the last result."""
    staged = solver.stage(puzzle, limit=2)
    result = staged.finish(staged.run())
    times = []
    for _ in range(repeat):
        staged = solver.stage(puzzle, limit=2)
        began = time.perf_counter()
        raw = staged.run()
        times.append(time.perf_counter() - began)
        result = staged.finish(raw)
    return statistics.median(times), result


def measure(name: str, others: list[Solver], repeat: int) -> list[str]:
    """One table row: the corpus, the puzzles fast takes, and each solver's median µs."""
    fast = solvers.get("fast")
    corpus = open_corpus(name)
    truth = corpus.truth()
    taken = [p for p in corpus.puzzles() if fast.handles(p.grid)]
    times: dict[str, list[float]] = {}
    guesses = []
    for puzzle in taken:
        known = truth[puzzle.id].solution
        for solver in (fast, *others):
            seconds, result = solve_time(solver, puzzle.grid, repeat)
            assert isinstance(result, solvers.SolveResult)
            solution = result.solution
            if not result.unique or solution is None or solution.format("line") != known:
                raise SystemExit(f"{solver.spec} on {puzzle.id}: {result.status} — not the truth")
            if solvers.check(puzzle.grid, solution):
                raise SystemExit(f"{solver.spec} on {puzzle.id}: the verifier rejects the answer")
            times.setdefault(solver.spec, []).append(seconds)
            if solver is fast:
                guesses.append(result.stats["guesses"])
    row = [name, f"{len(taken)}", f"{statistics.mean(guesses):.1f}" if guesses else "-"]
    fast_us = statistics.median(times["fast"]) * 1e6 if taken else 0.0
    row.append(f"{fast_us:.0f}" if taken else "-")
    for solver in others:
        us = statistics.median(times[solver.spec]) * 1e6 if taken else 0.0
        row += [f"{us:.0f}", f"{us / fast_us:.1f}"] if taken else ["-", "-"]
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m harness.bench.fast_variants", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--corpus", action="append", help=f"default: {', '.join(CORPORA)}")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs per puzzle")
    parser.add_argument("--versus", default="cpsat", help="solver specs, comma-separated")
    args = parser.parse_args(argv)
    others = [solvers.get(spec) for spec in args.versus.split(",") if spec]
    fast = solvers.get("fast")
    fast.warm_up()
    for solver in others:
        solver.warm_up()
    settle_heap()
    names = args.corpus or list(CORPORA)
    print(
        f"# fast on variant corpora — {time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} cores, "
        f"load average {os.getloadavg()[0]:.1f}; limit=2, one puzzle at a time, wall µs per "
        f"puzzle (median over puzzles of the median of {args.repeat} runs)\n"
    )
    heads = ["corpus", "puzzles fast takes", "fast guesses/puzzle", "fast µs"]
    for solver in others:
        heads += [f"{solver.spec} µs", f"{solver.spec}/fast"]
    print("| " + " | ".join(heads) + " |")
    print("|" + " --- |" * len(heads))
    for name in names:
        print("| " + " | ".join(measure(name, others, args.repeat)) + " |", flush=True)
    print("\nEvery answer of every solver equals the corpus's truth, proved unique and verified.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
