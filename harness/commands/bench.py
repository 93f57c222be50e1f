"""`sudoku-bench bench`: per-puzzle timing of solvers over a file, in one process."""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path
from typing import Any

from tabulate import tabulate

from corpora.corpus import open_corpus
from harness.bench.timing import Timing, bench
from harness.commands import solvers_files
from harness.commands.run import DEFAULTS
from solvers.base import SPANS

EPILOG = f"""examples:
  sudoku-bench bench --solver dlx top1465.txt
  sudoku-bench bench --solver dlx --solver mrv --limit 1 puzzles.txt   # first solution only
  sudoku-bench bench --solver dlx --max 200 --repeat 3 puzzles.txt
  sudoku-bench bench --solver dlx gen9-hard --json --out dlx.json      # figures as JSON

Each solve is timed as 'sudoku-bench run' times it: the span the solver declares
(call: its work in this process; exchange: a request to a persistent program and
the answer; process: the programs it starts, start-up included), after a warm-up,
with every answer verified. The defaults are run's: --limit {DEFAULTS["limit"]} (proves
uniqueness) and --time-limit {DEFAULTS["timeout"]:g}. With several solvers the ratio
column compares medians to the first solver."""


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = sub.add_parser(
        "bench",
        help="time solvers puzzle by puzzle in one process",
        description="Time solvers on every puzzle of a corpus in this process (no isolation, "
        "no limits beyond --time-limit) and print µs per puzzle (median, mean, p90, max), "
        "CPU and puzzles per second. For studies with hard limits use 'run'.",
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
    parser.add_argument(
        "--limit",
        type=int,
        default=DEFAULTS["limit"],
        metavar="K",
        help="solutions to look for (default %(default)s, as in run: 2 proves uniqueness)",
    )
    parser.add_argument(
        "--time-limit",
        type=float,
        default=DEFAULTS["timeout"],
        metavar="S",
        help="seconds per puzzle, passed to the solver (default %(default)g, as in run)",
    )
    parser.add_argument(
        "--max", type=int, default=None, metavar="N", help="only the first N puzzles"
    )
    parser.add_argument(
        "--repeat", type=int, default=1, metavar="K", help="best of K solves per puzzle"
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--out", metavar="PATH", help="write the output to PATH instead")
    solvers_files.add_argument(parser)
    parser.set_defaults(run=run)
    return parser


def figures(timing: Timing) -> dict[str, Any]:
    """One solver's figures, as the JSON output gives them."""
    f = timing.figures()
    return {
        "solver": timing.spec,
        "span": timing.span,
        "puzzles": len(timing.seconds),
        "statuses": dict(sorted(timing.statuses.items())),
        "wrong": timing.wrong,
        **{k: round(v, 3) for k, v in f.items()},
        "median_cpu_us": round(statistics.median(timing.cpu) * 1e6, 3) if timing.cpu else None,
        "median_nodes": statistics.median(timing.nodes) if timing.nodes else None,
    }


def table(timings: list[Timing]) -> str:
    rows = []
    first_median = None
    for t in timings:
        f = t.figures()
        if not f:
            rows.append([t.spec, t.span, 0] + [""] * 10)
            continue
        first_median = first_median or f["median_us"]
        rows.append(
            [
                t.spec,
                t.span,
                len(t.seconds),
                ", ".join(f"{k} {v}" for k, v in sorted(t.statuses.items())),
                t.wrong,
                f"{f['median_us']:.0f}",
                f"{f['mean_us']:.0f}",
                f"{f['p90_us']:.0f}",
                f"{f['max_us']:.0f}",
                f"{statistics.median(t.cpu) * 1e6:.0f}" if t.cpu else "",
                f"{f['per_second']:.1f}",
                f"{statistics.median(t.nodes):.0f}" if t.nodes else "",
                f"{f['median_us'] / first_median:.2f}",
            ]
        )
    headers = ["solver", "span", "puzzles", "statuses", "wrong", "median µs", "mean µs",
               "p90 µs", "max µs", "median CPU µs", "puzzles/s", "median nodes", "ratio"]  # fmt: skip
    spans = sorted({t.span for t in timings})
    notes = "\n".join(f"span {s}: {SPANS[s]}" for s in spans if s in SPANS)
    return tabulate(rows, headers=headers) + "\n\n" + notes


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
        progress=sys.stderr.isatty() and not args.out,
    )
    settings = {
        "corpus": args.file,
        "puzzles": len(puzzles),
        "limit": args.limit,
        "time_limit": args.time_limit,
        "repeat": args.repeat,
    }
    if args.json:
        text = json.dumps({**settings, "solvers": [figures(t) for t in timings]}, indent=2)
    else:
        head = (
            f"{args.file}: {len(puzzles)} puzzles, limit={args.limit}, "
            f"time limit {args.time_limit:g} s, best of {args.repeat}"
        )
        text = head + "\n" + table(timings)
    if args.out:
        Path(args.out).write_text(text + "\n", encoding="utf-8")
        print(f"wrote {args.out}", file=sys.stderr)
    else:
        print(text)
    return 1 if any(t.wrong for t in timings) else 0
