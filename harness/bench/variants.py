"""Median time per constraint kind, per solver, over the built-in variant corpora.

Every solver that takes a corpus's puzzles (`Solver.handles`) solves them in
one process, timed as a worker of ``sudoku-bench run`` times a solve
(`harness.measure.measured_solve`), the solvers taking turns by blocks of
puzzles as ``sudoku-bench bench`` does, after a warm-up solve; every answer
is checked by `solvers.verify.check`.  The table gives, per constraint kind
(a puzzle of several kinds counts for each) and per solver, the median time
and its ratio to the fastest solver of that kind.

    python -m harness.bench.variants                      # every variant corpus
    python -m harness.bench.variants --corpus killer9 --sample 10 --solver cpsat --solver sat

``--sample N`` draws N puzzles of each combination of kinds in each corpus, so
``mixed9`` and ``variants6`` keep every kind they hold.
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from tabulate import tabulate

import solvers
from corpora.corpus import Puzzle, open_corpus
from corpora.variant_builtin import RECIPES
from harness.bench.timing import BLOCK
from harness.measure import measured_solve
from harness.report.tables import format_seconds
from solvers.base import Solver, Status
from solvers.registry import names, solver_class
from solvers.variants import kinds
from solvers.variants.constraints import KINDS

CORPORA = tuple(r.name for r in RECIPES)
ANSWERED = {Status.SOLVED, Status.MULTIPLE, Status.UNSOLVABLE, Status.INVALID}


@dataclass
class Tally:
    """One solver's solves: seconds per kind, statuses, wrong answers, puzzles refused."""

    spec: str
    seconds: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    unsolved: Counter[str] = field(default_factory=Counter)  # kind -> puzzles not answered
    statuses: Counter[str] = field(default_factory=Counter)
    wrong: int = 0
    refused: int = 0


def default_solvers() -> list[str]:
    """Every installed solver that runs on its own and takes at least one constraint kind."""
    chosen = []
    for name in names():
        cls = solver_class(name)
        if cls.standalone and cls.constraint_kinds and cls.supported():
            chosen.append(name)
    return chosen


def sample(puzzles: list[Puzzle], count: int | None, seed: int) -> list[Puzzle]:
    """`count` puzzles drawn at random from each combination of kinds (all of a combination
    with fewer; all when `count` is None), in their corpus order: a mixed corpus keeps
    every kind it holds."""
    if count is None:
        return puzzles
    groups: dict[frozenset[str], list[int]] = defaultdict(list)
    for i, puzzle in enumerate(puzzles):
        groups[kinds(puzzle.grid)].append(i)
    rng = random.Random(seed)
    picked = sorted(
        i for members in groups.values() for i in rng.sample(members, min(count, len(members)))
    )
    return [puzzles[i] for i in picked]


def measure(
    instances: Sequence[Solver],
    puzzles: Sequence[Puzzle],
    tallies: dict[str, Tally],
    *,
    limit: int,
    time_limit: float,
    block: int = BLOCK,
) -> None:
    """Solve each puzzle with each solver that takes it, by turns of `block` puzzles; the
    figures go to ``tallies[spec]``."""
    takers = [s for s in instances if any(s.handles(p.grid) for p in puzzles)]
    for solver in instances:
        if solver not in takers:
            tallies[solver.spec].refused += len(puzzles)
    for solver in takers:  # warm-up: imports, caches, JIT
        first = next(p for p in puzzles if solver.handles(p.grid))
        measured_solve(solver, first.grid, limit=limit, time_limit=time_limit)
    for start in range(0, len(puzzles), max(1, block)):
        for solver in takers:
            tally = tallies[solver.spec]
            for puzzle in puzzles[start : start + block]:
                _one(solver, tally, puzzle, limit, time_limit)


def _one(solver: Solver, tally: Tally, puzzle: Puzzle, limit: int, time_limit: float) -> None:
    if not solver.handles(puzzle.grid):
        tally.refused += 1
        return
    measured = measured_solve(solver, puzzle.grid, limit=limit, time_limit=time_limit)
    result = measured.result
    tally.statuses[result.status.value] += 1
    tally.wrong += any(solvers.check(puzzle.grid, s) for s in result.solutions)
    for kind in kinds(puzzle.grid):
        tally.seconds[kind].append(measured.wall)
        if result.status not in ANSWERED:
            tally.unsolved[kind] += 1


def table(tallies: Sequence[Tally]) -> str:
    """Kinds down, solvers across: median time, and its ratio to the fastest of the row."""
    tallies = [t for t in tallies if t.seconds]
    present = [k for k in KINDS if any(k in t.seconds for t in tallies)]
    rows = []
    for kind in present:
        medians = {t.spec: statistics.median(t.seconds[kind]) for t in tallies if t.seconds[kind]}
        fastest = min(medians.values())
        row = [kind, max(len(t.seconds[kind]) for t in tallies)]
        for t in tallies:
            if t.spec not in medians:
                row.append("—")
                continue
            cell = f"{format_seconds(medians[t.spec])} ({medians[t.spec] / fastest:.1f}x)"
            if t.unsolved[kind]:
                cell += f" {t.unsolved[kind]} unsolved"
            row.append(cell)
        rows.append(row)
    headers = ["kind", "puzzles", *(t.spec for t in tallies)]
    return tabulate(rows, headers=headers, tablefmt="github", disable_numparse=True)


def outcomes(tallies: Sequence[Tally]) -> str:
    """Per solver: puzzles solved, their statuses, wrong answers, puzzles it does not take."""
    rows = [
        [t.spec, sum(v for k, v in t.statuses.items() if Status(k) in ANSWERED),
         ", ".join(f"{k} {v}" for k, v in sorted(t.statuses.items())), t.wrong, t.refused]
        for t in tallies
    ]  # fmt: skip
    headers = ["solver", "answered", "statuses", "wrong", "not taken"]
    return tabulate(rows, headers=headers, tablefmt="github", disable_numparse=True)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m harness.bench.variants",
        description=__doc__.split("\n\n")[0],
        epilog=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--corpus", action="append", choices=CORPORA, metavar="NAME",
        help=f"a built-in variant corpus (repeatable; default all: {', '.join(CORPORA)})",
    )  # fmt: skip
    parser.add_argument(
        "--solver", action="append", metavar="S",
        help="solver spec (repeatable; default every installed solver taking some kind)",
    )  # fmt: skip
    parser.add_argument(
        "--sample", type=int, metavar="N",
        help="N puzzles of each corpus and combination of kinds (default: all)",
    )  # fmt: skip
    parser.add_argument("--seed", type=int, default=0, help="for --sample (default 0)")
    parser.add_argument("--limit", type=int, default=2, help="solutions to look for (default 2)")
    parser.add_argument(
        "--time-limit", type=float, default=10.0, metavar="S", help="seconds per solve (10)"
    )
    parser.add_argument("--block", type=int, default=BLOCK, help="puzzles per turn (25)")
    args = parser.parse_args(argv)
    if args.sample is not None and args.sample < 1:
        parser.error("--sample takes a positive number of puzzles")
    try:
        instances = [solvers.get(spec) for spec in args.solver or default_solvers()]
    except (ValueError, KeyError) as exc:
        parser.error(str(exc))
    tallies = {s.spec: Tally(s.spec) for s in instances}
    counts = []
    for name in args.corpus or CORPORA:
        puzzles = sample(list(open_corpus(name).puzzles()), args.sample, args.seed)
        counts.append(f"{name} {len(puzzles)}")
        measure(
            instances, puzzles, tallies,
            limit=args.limit, time_limit=args.time_limit, block=args.block,
        )  # fmt: skip
    ordered = list(tallies.values())
    print(
        f"{', '.join(counts)} puzzles; limit {args.limit}, time limit {args.time_limit:g} s; "
        "median time per solve, ratio to the fastest of the row"
    )
    print()
    print(table(ordered))
    print()
    print(outcomes(ordered))
    return 1 if any(t.wrong for t in ordered) else 0


if __name__ == "__main__":
    raise SystemExit(main())
