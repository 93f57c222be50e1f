"""Figures for the constraint-programming backends that `sudoku-bench bench` does not print.

Per solver: puzzles solved under a per-puzzle time limit, µs per puzzle
(median, p90, max), the model-building share (``build_seconds`` in the
result stats over the whole solve time) and the median search effort, measured side by side in one
process, interleaved per puzzle, every answer verified.  It also makes the
16x16 test set: a dlx solution of the empty grid, relabelled at random, with
cells blanked in random order while dlx still proves the solution unique.

    python -m harness.bench.cp --solver cpsat --solver "cpsat[model=boolean]" FILE
    python -m harness.bench.cp --sample 100 --solver constraint FILE
    python -m harness.bench.cp --make16 10 --seed 1 --out sixteen.txt
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Sequence

from tabulate import tabulate

import solvers
from corpora.corpus import read_puzzles
from harness.bench.timing import Timing
from solvers.base import Status
from solvers.grid import Grid
from solvers.transforms import relabel_digits


def make_unique_puzzles(
    count: int, box: int = 4, *, seed: int = 0, givens: int = 0, check_limit: float = 5.0
) -> list[Grid]:
    """`count` puzzles of side box*box with a unique solution, blanked as far as dlx proves.

    Cells are blanked in random order; a blank is kept only when dlx proves
    the solution still unique within `check_limit` seconds.  Blanking stops at
    `givens` clues (0: go on while any cell can go).
    """
    dlx = solvers.get("dlx")
    solved = dlx.solve(Grid.empty(box)).solution
    if solved is None:
        raise RuntimeError("dlx found no solution of the empty grid")
    n = solved.size
    puzzles = []
    for k in range(count):
        rng = random.Random(seed * 1_000_003 + k)
        grid = relabel_digits(n, rng.sample(range(1, n + 1), n)).apply(solved)
        cells = list(grid.cells)
        order = list(range(n * n))
        rng.shuffle(order)
        for i in order:
            if sum(1 for v in cells if v) <= givens:
                break
            kept, cells[i] = cells[i], 0
            if not dlx.solve(grid.replace(cells), limit=2, time_limit=check_limit).unique:
                cells[i] = kept
        puzzles.append(grid.replace(cells))
    return puzzles


def measure(
    specs: Sequence[str], puzzles: Sequence[Grid], *, limit: int, time_limit: float
) -> list[dict]:
    """Solve every puzzle with every solver (interleaved); one summary row per solver."""
    instances = [solvers.get(spec) for spec in specs]
    for solver in instances:  # warm-up: imports, cached models
        solver.solve(puzzles[0], limit=limit, time_limit=time_limit)
    timings = [Timing(s.spec) for s in instances]
    build: list[list[float]] = [[] for _ in instances]
    backtracks: list[list[int]] = [[] for _ in instances]
    solving: list[list[float]] = [[] for _ in instances]
    for puzzle in puzzles:
        for k, solver in enumerate(instances):
            start = time.perf_counter()
            result = solver.solve(puzzle, limit=limit, time_limit=time_limit)
            timings[k].seconds.append(time.perf_counter() - start)
            timings[k].statuses[result.status.value] += 1
            timings[k].wrong += any(solvers.check(puzzle, s) for s in result.solutions)
            build[k].append(result.stats.get("build_seconds", 0.0))
            timings[k].nodes.append(result.stats.get("nodes", 0))
            backtracks[k].append(result.stats.get("backtracks", 0))
            solving[k].append(result.stats.get("solve_seconds", 0.0))
    rows = []
    for timing, built, backs, solve in zip(timings, build, backtracks, solving, strict=True):
        f = timing.figures()
        total = sum(timing.seconds)
        rows.append(
            {
                "solver": timing.spec,
                "puzzles": len(timing.seconds),
                "solved": timing.statuses[Status.SOLVED.value]
                + timing.statuses[Status.MULTIPLE.value],
                "statuses": dict(timing.statuses),
                "wrong": timing.wrong,
                "median_us": f["median_us"],
                "p90_us": f["p90_us"],
                "max_us": f["max_us"],
                "build_median_us": statistics.median(built) * 1e6,
                "build_share": sum(built) / total if total else 0.0,
                "solve_median_us": statistics.median(solve) * 1e6,
                "median_nodes": statistics.median(timing.nodes),
                "median_backtracks": statistics.median(backs),
            }
        )
    return rows


def _print(rows: list[dict], header: str) -> None:
    print(header)
    table = [
        [
            r["solver"],
            r["puzzles"],
            r["solved"],
            ", ".join(f"{k} {v}" for k, v in sorted(Counter(r["statuses"]).items())),
            r["wrong"],
            f"{r['median_us']:.0f}",
            f"{r['p90_us']:.0f}",
            f"{r['max_us']:.0f}",
            f"{r['build_median_us']:.0f}",
            f"{100 * r['build_share']:.0f}%",
            f"{r['solve_median_us']:.0f}",
            f"{r['median_nodes']:g}",
            f"{r['median_backtracks']:g}",
        ]
        for r in rows
    ]
    headers = ["solver", "puzzles", "solved", "statuses", "wrong"]
    headers += ["median µs", "p90 µs", "max µs", "median build µs", "build share"]
    headers += ["median solve µs"]
    headers += ["median nodes", "median backtracks"]
    print(tabulate(table, headers=headers))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m harness.bench.cp",
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("file", nargs="?", help="a file of puzzles")
    parser.add_argument("--solver", action="append", default=[], metavar="S")
    parser.add_argument("--limit", type=int, default=1, help="solutions to look for")
    parser.add_argument("--time-limit", type=float, default=10.0, help="seconds per puzzle")
    parser.add_argument("--max", type=int, default=None, help="only the first N puzzles")
    parser.add_argument("--sample", type=int, default=None, help="N puzzles drawn at random")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--make16", type=int, default=0, metavar="N", help="make N 16x16 puzzles")
    parser.add_argument("--givens", type=int, default=0, help="--make16: stop at this many")
    parser.add_argument("--out", help="--make16: write the puzzles here")
    args = parser.parse_args(argv)
    if args.make16:
        puzzles = make_unique_puzzles(args.make16, seed=args.seed, givens=args.givens)
        text = "".join(f"{p.format()}  # {p.givens} givens\n" for p in puzzles)
        if args.out:
            with open(args.out, "w", encoding="utf-8") as out:
                out.write(f"# made by harness.bench.cp --make16 {args.make16} --seed {args.seed}\n")
                out.write(text)
        else:
            sys.stdout.write(text)
        return 0
    if not args.file or not args.solver:
        parser.error("give a FILE and at least one --solver (or --make16 N)")
    puzzles = [p.grid for p in read_puzzles(args.file)][: args.max]
    if args.sample and args.sample < len(puzzles):
        picked = sorted(random.Random(args.seed).sample(range(len(puzzles)), args.sample))
        puzzles = [puzzles[i] for i in picked]
    rows = measure(args.solver, puzzles, limit=args.limit, time_limit=args.time_limit)
    header = f"{args.file}: {len(puzzles)} puzzles, limit={args.limit}, "
    header += f"time limit {args.time_limit:g} s"
    _print(rows, header)
    return 1 if any(r["wrong"] for r in rows) else 0


if __name__ == "__main__":
    raise SystemExit(main())
