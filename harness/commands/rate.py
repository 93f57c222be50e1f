"""`sudoku-bench rate`: the difficulty of every puzzle in a file, and the distribution."""

from __future__ import annotations

import argparse
import csv
import json
import statistics
import sys
import time
from collections import Counter

from tabulate import tabulate

import solvers
from corpora.corpus import Puzzle, puzzles_from_argument
from harness.errors import refuse_constraints
from solvers.human import CATEGORIES, LEVELS, Rating, UnsoundStep, rate
from solvers.human.table import GROUPS, resolve

EPILOG = """examples:
  sudoku-bench rate puzzles.txt
  sudoku-bench rate puzzles.txt --techniques tier1 --format csv > ratings.csv
  sudoku-bench rate puzzles.txt --format json --max 100
  sudoku-bench rate puzzles.txt --check          # soundness: every step against dlx's solution

Columns: ER (the hardest step, Sudoku-Explainer style), EP (hardest step up to the first
placement), ED (the first step), score and level (HoDoKu style: Easy <= 800, Medium <= 1000,
Hard <= 1600, Unfair <= 1800, Extreme), class (Simple: naked singles; Easy: singles;
Intermediate: subsets and locked candidates; Expert: more, or guessing), whether logic alone
finished, and the techniques used with their counts."""

PROGRESS_FROM = 300  # puzzles; a progress bar on stderr beyond this


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = sub.add_parser(
        "rate",
        help="rate the difficulty of puzzles",
        description="Rate every puzzle of a file with the human-style engine (easiest step "
        "first) on the scales people use: Sudoku-Explainer-style ER/EP/ED, a HoDoKu-style "
        "score and level, and a four-class label; then print the distribution.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("file", metavar="FILE|PUZZLE", help="a file of puzzles (or one puzzle)")
    parser.add_argument(
        "--format",
        choices=("table", "csv", "json"),
        default="table",
        help="a table with a summary (default), CSV rows, or JSON lines",
    )
    parser.add_argument(
        "--max", type=int, default=None, metavar="N", help="only the first N puzzles"
    )
    add_engine_options(parser)
    parser.set_defaults(run=run)
    return parser


def add_engine_options(parser: argparse.ArgumentParser) -> None:
    """The options `rate` and `explain` share: the technique set and soundness mode."""
    parser.add_argument(
        "--techniques",
        default="all",
        metavar="SET",
        help=f"techniques to use: {', '.join(GROUPS)}, or names joined by + (default all)",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="soundness mode: check every step against the solution (found with dlx)",
    )


FIELDS = ["puzzle", "er", "ep", "ed", "score", "level", "class", "logic", "steps", "techniques"]


def _techniques(rating: Rating) -> str:
    return ", ".join(f"{name} {count}" for name, count in rating.counts.items())


def _row(puzzle: Puzzle, rating: Rating) -> list:
    return [
        puzzle.id,
        f"{rating.er:.1f}",
        f"{rating.ep:.1f}",
        f"{rating.ed:.1f}",
        rating.score,
        rating.level or rating.status,
        rating.category or "",
        "yes" if rating.solved_by_logic else "no",
        rating.steps,
        _techniques(rating),
    ]


def _summary(ratings: list[Rating], seconds: list[float], checked: int | None) -> list[str]:
    total = len(ratings)
    if not total:
        return ["no puzzles"]
    solved = sum(r.solved_by_logic for r in ratings)
    levels = Counter(r.level or r.status for r in ratings)
    classes = Counter(r.category or r.status for r in ratings)
    buckets = Counter(min(int(r.er), 9) for r in ratings if r.solved_by_logic)
    ms = sorted(1000 * s for s in seconds)
    lines = [
        f"{total} puzzles, finished by logic alone: {solved} ({100 * solved / total:.1f}%), "
        f"techniques: {ratings[0].config}, {ratings[0].engine}",
        "level: "
        + ", ".join(f"{k} {levels[k]}" for k in [*LEVELS, "invalid", "contradiction"] if levels[k]),
        "class: "
        + ", ".join(
            f"{k} {classes[k]}" for k in [*CATEGORIES, "invalid", "contradiction"] if classes[k]
        ),
        "ER (finished puzzles): "
        + (", ".join(f"{b}.x {buckets[b]}" for b in sorted(buckets)) or "-"),
        f"time per puzzle: median {statistics.median(ms):.2f} ms, mean {statistics.fmean(ms):.2f} ms, "
        f"max {ms[-1]:.1f} ms",
    ]
    if checked is not None:
        lines.append(f"soundness: {checked} steps checked against the solutions, none unsound")
    return lines


def run(args: argparse.Namespace) -> int:
    config = args.techniques
    resolve(config)  # a bad name is a usage error before any work
    puzzles = puzzles_from_argument(args.file)[: args.max]
    refuse_constraints(puzzles, "rate")
    iterator = puzzles
    if len(puzzles) > PROGRESS_FROM and sys.stderr.isatty():
        from tqdm import tqdm

        iterator = tqdm(puzzles, unit="puzzle", leave=False, file=sys.stderr)
    dlx = solvers.get("dlx") if args.check else None
    ratings: list[Rating] = []
    seconds: list[float] = []
    rows = []
    checked = 0
    writer = csv.writer(sys.stdout) if args.format == "csv" else None
    if writer:
        writer.writerow(FIELDS)
    for puzzle in iterator:
        solution = None
        if dlx is not None:
            truth = dlx.solve(puzzle.grid, limit=2)
            solution = truth.solution if truth.unique else None
        start = time.perf_counter()
        try:
            rating = rate(puzzle.grid, config, solution=solution)
        except UnsoundStep as exc:
            print(f"sudoku-bench: {puzzle.id}: {exc}", file=sys.stderr)
            return 1
        seconds.append(time.perf_counter() - start)
        if solution is not None:
            checked += rating.steps
        ratings.append(rating)
        if args.format == "json":
            print(
                json.dumps(
                    {"puzzle_id": puzzle.id, "puzzle": puzzle.grid.format(), **rating.as_dict()}
                )
            )
        elif writer:
            writer.writerow(_row(puzzle, rating))
        else:
            rows.append(_row(puzzle, rating))
    summary = _summary(ratings, seconds, checked if args.check else None)
    if args.format == "table":
        print(tabulate(rows, headers=FIELDS, disable_numparse=True))
        print()
        print("\n".join(summary))
    elif args.format == "json":
        print(json.dumps({"summary": summary}))
    else:
        print("\n".join(summary), file=sys.stderr)
    return 0
