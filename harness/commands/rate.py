"""`sudoku-bench rate`: the difficulty of every puzzle in a file, and the distribution."""

from __future__ import annotations

import argparse
import csv
import json
import multiprocessing
import os
import shutil
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import solvers
from corpora.corpus import Puzzle, puzzles_from_argument
from harness.commands.fit import fitted_table
from harness.errors import refuse_constraints
from solvers.human import CATEGORIES, LEVELS, Rating, UnsoundStep, rate
from solvers.human.table import GROUPS, resolve
from solvers.human.trace import technique_title

EPILOG = """examples:
  sudoku-bench rate puzzles.txt
  sudoku-bench rate puzzles.txt --techniques tier1 --format csv > ratings.csv
  sudoku-bench rate puzzles.txt --format json --max 100
  sudoku-bench rate puzzles.txt --check          # soundness: every step against dlx's solution

Columns: ER/EP/ED (Sudoku-Explainer style: the hardest step, the hardest step up to the first
placement, the first step), score and level (HoDoKu's, from a pass in HoDoKu's order of
techniques: Easy <= 800, Medium <= 1000, Hard <= 1600, Unfair <= 1800, Extreme), class (Simple: naked singles; Easy: singles;
Intermediate: subsets and locked candidates; Expert: more, or guessing), and the techniques
used with their counts (the table says when logic alone did not finish; CSV and JSON also have
a "logic" and a "steps" field).  The docs' page on the engine explains the scales."""

PROGRESS_FROM = 300  # puzzles; a progress bar on stderr beyond this


def positive_int(text: str) -> int:
    """A worker count: a whole number from 1 to four per core."""
    cap = 4 * (os.cpu_count() or 1)
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 1 <= value <= cap:
        raise argparse.ArgumentTypeError(f"{value} is not between 1 and {cap} (4 per core)")
    return value


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = sub.add_parser(
        "rate",
        help="rate the difficulty of puzzles",
        description="Rate every puzzle of a file with the human-style engine (easiest step "
        "first) on the scales people use: Sudoku-Explainer-style ER/EP/ED, HoDoKu's "
        "score and level (a second pass in HoDoKu's order), and a four-class label; then print the distribution.",
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
    parser.add_argument(
        "--jobs",
        type=positive_int,
        default=1,
        metavar="N",
        help="rate in N worker processes (default 1; the output keeps the file's order)",
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


TABLE_FIELDS = ["puzzle", "ER/EP/ED", "score", "level", "class", "techniques (steps)"]


def _table_row(puzzle: Puzzle, rating: Rating) -> list:
    """The terminal's compact row: the last column wraps to the width left."""
    unfinished = "" if rating.solved_by_logic else f"{rating.status}, not finished by logic: "
    return [
        puzzle.id,
        f"{rating.er:.1f}/{rating.ep:.1f}/{rating.ed:.1f}",
        rating.score,
        rating.level or rating.status,
        rating.category or "",
        unfinished + _techniques(rating, titles=True),
    ]


def _techniques(rating: Rating, *, titles: bool = False) -> str:
    """The techniques used with their counts: by their usual names for people (the
    table), by their table names for programs (CSV, JSON)."""
    return ", ".join(
        f"{technique_title(name) if titles else name} {count}"
        for name, count in rating.counts.items()
    )


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
    counted = f"{total} puzzle" + ("" if total == 1 else "s")
    lines = [
        f"{counted}, finished by logic alone: {solved} ({100 * solved / total:.1f}%), "
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
        f"max {ms[-1]:.2f} ms",
    ]
    if checked is not None:
        lines.append(f"soundness: {checked} steps checked against the solutions, none unsound")
    return lines


@dataclass(frozen=True)
class Rated:
    """One puzzle's rating, its time, and the steps checked (or the unsound step's text)."""

    rating: Rating | None
    seconds: float
    checked: int
    unsound: str = ""


def rate_one(job: tuple[Puzzle, str, bool]) -> Rated:
    """Rate one puzzle (in this process or a worker); with `check`, against dlx's solution."""
    puzzle, config, check = job
    solution = None
    if check:
        truth = solvers.get("dlx").solve(puzzle.grid, limit=2)
        solution = truth.solution if truth.unique else None
    start = time.perf_counter()
    try:
        rating = rate(puzzle.grid, config, solution=solution)
    except UnsoundStep as exc:
        return Rated(None, time.perf_counter() - start, 0, str(exc))
    seconds = time.perf_counter() - start
    return Rated(rating, seconds, rating.steps if solution is not None else 0)


def rated_in_order(jobs: list[tuple[Puzzle, str, bool]], workers: int) -> Iterator[Rated]:
    """The ratings in the file's order, from this process or from `workers` processes."""
    if workers <= 1 or len(jobs) < 2:
        yield from map(rate_one, jobs)
        return
    with multiprocessing.Pool(min(workers, len(jobs))) as pool:
        yield from pool.imap(rate_one, jobs, chunksize=max(1, min(16, len(jobs) // (4 * workers))))


def run(args: argparse.Namespace) -> int:
    config = args.techniques
    resolve(config)  # a bad name is a usage error before any work
    puzzles = puzzles_from_argument(args.file)[: args.max]
    refuse_constraints(puzzles, "rate")
    results: Iterable[Rated] = rated_in_order([(p, config, args.check) for p in puzzles], args.jobs)
    if len(puzzles) > PROGRESS_FROM and sys.stderr.isatty():
        from tqdm import tqdm

        results = tqdm(results, total=len(puzzles), unit="puzzle", leave=False, file=sys.stderr)
    ratings: list[Rating] = []
    seconds: list[float] = []
    rows = []
    checked = 0
    writer = csv.writer(sys.stdout) if args.format == "csv" else None
    if writer:
        writer.writerow(FIELDS)
    for puzzle, rated in zip(puzzles, results, strict=True):
        if rated.rating is None:
            print(f"sudoku-bench: {puzzle.id}: {rated.unsound}", file=sys.stderr)
            return 1
        rating = rated.rating
        seconds.append(rated.seconds)
        checked += rated.checked
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
            rows.append(_table_row(puzzle, rating))
    summary = _summary(ratings, seconds, checked if args.check else None)
    if args.format == "table":
        print(fitted_table(rows, TABLE_FIELDS, shutil.get_terminal_size().columns))
        print()
        print("\n".join(summary))
    elif args.format == "json":
        print(json.dumps({"summary": summary}))
    else:
        print("\n".join(summary), file=sys.stderr)
    return 0
