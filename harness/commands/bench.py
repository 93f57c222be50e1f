"""`sudoku-bench bench`: per-puzzle timing of solvers over a file, in one process."""

from __future__ import annotations

import argparse
import statistics
import sys

from tabulate import tabulate

from corpora.corpus import open_corpus
from harness.bench.timing import bench
from harness.commands import solvers_files

EPILOG = """examples:
  sudoku-bench bench --solver dlx top1465.txt
  sudoku-bench bench --solver dlx --solver mrv --limit 2 puzzles.txt   # side by side
  sudoku-bench bench --solver dlx --max 200 --repeat 3 puzzles.txt
  sudoku-bench bench --solver dlx gen9-hard                            # a built-in corpus

Times only the solve call, after a warm-up, with every answer verified. With
several solvers the ratio column compares medians to the first solver."""


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = sub.add_parser(
        "bench",
        help="time solvers puzzle by puzzle in one process",
        description="Time solvers on every puzzle of a corpus in this process (no isolation, "
        "no limits beyond --time-limit) and print µs per puzzle (median, mean, p90, max) "
        "and puzzles per second. For studies with hard limits use 'run'.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "file",
        metavar="CORPUS",
        help="a file of puzzles, a built-in corpus or a fetched collection",
    )
    parser.add_argument(
        "--solver", action="append", metavar="S", help="solver to time (repeatable; default dlx)"
    )
    parser.add_argument("--limit", type=int, default=1, metavar="K", help="solutions to look for")
    parser.add_argument(
        "--time-limit", type=float, default=None, metavar="S", help="seconds per puzzle"
    )
    parser.add_argument(
        "--max", type=int, default=None, metavar="N", help="only the first N puzzles"
    )
    parser.add_argument(
        "--repeat", type=int, default=1, metavar="K", help="best of K solves per puzzle"
    )
    solvers_files.add_argument(parser)
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace) -> int:
    solvers_files.load(args)
    puzzles = list(open_corpus(args.file).puzzles())[: args.max]
    specs = args.solver or ["dlx"]
    timings = bench(
        specs,
        puzzles,
        limit=args.limit,
        time_limit=args.time_limit,
        repeat=args.repeat,
        progress=sys.stderr.isatty(),
    )
    rows = []
    first_median = None
    for t in timings:
        f = t.figures()
        if not f:
            rows.append([t.spec, 0] + [""] * 9)
            continue
        first_median = first_median or f["median_us"]
        rows.append(
            [
                t.spec,
                len(t.seconds),
                ", ".join(f"{k} {v}" for k, v in sorted(t.statuses.items())),
                t.wrong,
                f"{f['median_us']:.0f}",
                f"{f['mean_us']:.0f}",
                f"{f['p90_us']:.0f}",
                f"{f['max_us']:.0f}",
                f"{f['per_second']:.1f}",
                f"{statistics.median(t.nodes):.0f}" if t.nodes else "",
                f"{f['median_us'] / first_median:.2f}",
            ]
        )
    print(f"{args.file}: {len(puzzles)} puzzles, limit={args.limit}, best of {args.repeat}")
    print(
        tabulate(
            rows,
            headers=[
                "solver",
                "puzzles",
                "statuses",
                "wrong",
                "median µs",
                "mean µs",
                "p90 µs",
                "max µs",
                "puzzles/s",
                "median nodes",
                "ratio",
            ],
        )
    )
    return 1 if any(t.wrong for t in timings) else 0
