"""The human engine against Sudoku Explainer: ``python -m harness.bench.human --help``.

Per set it prints the share of puzzles the engine finishes by logic (not
``stuck``), how often its ER, EP and ED equal Sudoku Explainer's (ER also
within 0.1 and 0.3), the time to rate one puzzle (median, mean, p90, max) and the
share of that time spent searching for forcing chains.

Inputs: Sudoku Explainer's ratings, ``NAME.se.txt`` files of ``puzzle
ER/EP/ED`` lines (every such file in a directory, or files by path), and
puzzle files without reference ratings (only finishing and time figures).
Times are wall-clock ``perf_counter`` seconds of `solvers.human.rate`, one
puzzle at a time in this process (or in each of ``--jobs`` worker processes),
after the compiled kernels are loaded (as the harness's warm-up does); nothing
here asserts a time.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import solvers
from corpora.corpus import read_puzzles
from harness.measure import settle_heap
from solvers.grid import Grid, PuzzleFormatError
from solvers.human import UnsoundStep, rate
from solvers.human.solver import load_kernels
from solvers.human.table import BY_NAME

# Sudoku Explainer's ratings of reference sets (not shipped): NAME.se.txt files.
RATINGS = Path(os.environ.get("SUDOKU_BENCH_RATINGS", "ratings"))
FORCING_FAMILY = "forcing"


@dataclass(frozen=True)
class Reference:
    """One puzzle and, when known, Sudoku Explainer's ER/EP/ED for it."""

    grid: Grid
    se: tuple[float, float, float] | None = None


@dataclass
class SetFigures:
    """What one set measured: outcomes, agreement counts and times."""

    name: str
    puzzles: int = 0
    finished: int = 0
    rated: int = 0  # puzzles with a reference rating
    er_exact: int = 0
    er_near: int = 0
    er_close: int = 0
    ep_exact: int = 0
    ed_exact: int = 0
    seconds: list[float] = field(default_factory=list)
    forcing_seconds: float = 0.0
    er_misses: dict[tuple[float, float], int] = field(default_factory=dict)
    checked: int = 0  # steps checked against the solution (--check)
    unsound: int = 0
    technique_seconds: dict[str, float] = field(default_factory=dict)  # (--breakdown)

    def row(self) -> list[str]:
        """The table row: counts as percentages, times in ms."""

        def pct(k: int, of: int) -> str:
            return f"{100 * k / of:.1f}%" if of else "-"

        median, mean, p90, most = time_figures(self.seconds) if self.seconds else (0.0,) * 4
        total = sum(self.seconds)
        return [
            self.name,
            str(self.puzzles),
            pct(self.finished, self.puzzles),
            pct(self.er_exact, self.rated),
            pct(self.er_near, self.rated),
            pct(self.er_close, self.rated),
            pct(self.ep_exact, self.rated),
            pct(self.ed_exact, self.rated),
            f"{1e3 * median:.1f}" if self.seconds else "-",
            f"{1e3 * mean:.1f}" if self.seconds else "-",
            f"{1e3 * p90:.1f}",
            f"{1e3 * most:.1f}" if self.seconds else "-",
            pct(round(1000 * self.forcing_seconds), round(1000 * total)) if total else "-",
        ]


def time_figures(seconds: list[float]) -> tuple[float, float, float, float]:
    """Median, mean, p90 and max of per-puzzle times (not empty)."""
    s = sorted(seconds)
    return (
        statistics.median(s),
        statistics.fmean(s),
        s[min(len(s) - 1, int(0.9 * len(s)))],
        s[-1],
    )


HEADER = [
    "set",
    "puzzles",
    "finished",
    "ER =",
    "ER ±0.1",
    "ER ±0.3",
    "EP =",
    "ED =",
    "median ms",
    "mean ms",
    "p90 ms",
    "max ms",
    "forcing time",
]


def read_se(path: Path) -> list[Reference]:
    """The puzzles and ratings of a ``.se.txt`` file; a bad line names file and line."""
    out = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split()
        try:
            er, ep, ed = (float(x) for x in parts[1].split("/"))
            grid = Grid.parse(parts[0], source=str(path), first_line=number)
        except (IndexError, ValueError) as exc:
            if isinstance(exc, PuzzleFormatError):
                raise
            raise PuzzleFormatError(
                f"expected 'puzzle ER/EP/ED', found {line[:60]!r}", source=str(path), line=number
            ) from None
        out.append(Reference(grid, (er, ep, ed)))
    return out


@dataclass(frozen=True)
class Outcome:
    """What rating one puzzle gave: its rating, the seconds it took and, when its
    steps were checked, how many (`unsound` names the first unsound step instead)."""

    status: str = ""
    er: float = 0.0
    ep: float = 0.0
    ed: float = 0.0
    seconds: float = 0.0
    forcing_seconds: float = 0.0
    checked: int = 0
    unsound: str | None = None
    profile: dict[str, float] = field(default_factory=dict)
    """Seconds per technique of the Sudoku Explainer pass (`rate`'s profile)."""


def rate_one(job: tuple[Grid, str, bool]) -> Outcome:
    """Rate one puzzle (`job`: grid, technique set, check) and time it; with the check,
    every step is checked against the solution dlx finds (the times include it)."""
    grid, techniques, check = job
    forcing = {t.name for t in BY_NAME.values() if t.family == FORCING_FAMILY}
    profile: dict[str, float] = {}
    solution = None
    if check:
        solved = solvers.get("dlx").solve(grid, limit=2)
        solution = solved.solution if solved.unique else None
    start = time.perf_counter()
    try:
        r = rate(grid, techniques, profile=profile, solution=solution)
    except UnsoundStep as exc:
        return Outcome(unsound=f"{grid.format()}: {exc}")
    return Outcome(
        r.status,
        r.er,
        r.ep,
        r.ed,
        time.perf_counter() - start,
        sum(v for k, v in profile.items() if k in forcing),
        r.steps if solution is not None else 0,
        profile=profile,
    )


def measure(
    name: str,
    refs: list[Reference],
    techniques: str,
    progress: bool,
    check: bool = False,
    jobs: int = 1,
) -> SetFigures:
    """Rate every puzzle of a set and tally the figures (see `rate_one`); `jobs` > 1
    rates them in that many worker processes, each puzzle still timed on its own."""
    figures = SetFigures(name)
    work = [(ref.grid, techniques, check) for ref in refs]
    if jobs > 1:
        with multiprocessing.Pool(jobs, initializer=warm_up) as pool:
            _tally(figures, refs, pool.imap(rate_one, work), progress)
    else:
        warm_up()  # (as the harness warms solvers up: no puzzle's time holds the load)
        _tally(figures, refs, map(rate_one, work), progress)
    return figures


def warm_up() -> None:
    """What the harness does in a worker before timing solves: load the kernels, then
    settle the heap (`harness.measure.settle_heap`)."""
    load_kernels()
    settle_heap()


def _tally(figures: SetFigures, refs: list[Reference], outcomes, progress: bool) -> None:
    """Add each outcome to the figures as it arrives."""
    for i, (ref, out) in enumerate(zip(refs, outcomes, strict=True), 1):
        if progress and i % 50 == 0:
            print(f"  {figures.name}: {i}/{len(refs)}", file=sys.stderr, flush=True)
        if out.unsound is not None:
            figures.unsound += 1
            print(f"  UNSOUND {out.unsound}", file=sys.stderr, flush=True)
            continue
        figures.seconds.append(out.seconds)
        figures.checked += out.checked
        figures.forcing_seconds += out.forcing_seconds
        for technique, spent in out.profile.items():
            figures.technique_seconds[technique] = (
                figures.technique_seconds.get(technique, 0.0) + spent
            )
        figures.puzzles += 1
        figures.finished += out.status != "stuck"
        if ref.se is not None:
            er, ep, ed = ref.se
            figures.rated += 1
            figures.er_exact += round(out.er, 1) == er
            figures.er_near += abs(out.er - er) <= 0.1 + 1e-9
            figures.er_close += abs(out.er - er) <= 0.3 + 1e-9
            figures.ep_exact += round(out.ep, 1) == ep
            figures.ed_exact += round(out.ed, 1) == ed
            if round(out.er, 1) != er:
                key = (er, round(out.er, 1))
                figures.er_misses[key] = figures.er_misses.get(key, 0) + 1


def set_notes(figures: SetFigures, check: bool, misses: bool, breakdown: int = 0) -> list[str]:
    """The lines printed under the table for one set: its soundness count (`check`), its
    most frequent ER misses (`misses`) and the `breakdown` techniques that took the most
    time, as markdown list items."""
    out = []
    if check:
        out.append(
            f"- {figures.name}: soundness: {figures.checked} steps checked, "
            f"{figures.unsound} unsound"
        )
    if misses and figures.er_misses:
        top = sorted(figures.er_misses.items(), key=lambda kv: -kv[1])[:12]
        out.append(
            f"- {figures.name}: ER misses (SE -> ours: count): "
            + ", ".join(f"{se}->{ours}: {k}" for (se, ours), k in top)
        )
    if breakdown and figures.seconds:
        out.append(f"- {figures.name}: {time_split(figures, breakdown)}")
    return out


def time_split(figures: SetFigures, top: int) -> str:
    """Where a set's rating time went: the `top` techniques by their searches' seconds in
    the Sudoku Explainer pass, the pass's other searches, and the rest (the HoDoKu-order
    pass and the engine's work between searches), each as a share of the time."""
    total = sum(figures.seconds)
    spent = sorted(figures.technique_seconds.items(), key=lambda kv: -kv[1])
    parts = [f"{name} {100 * s / total:.1f}%" for name, s in spent[:top]]
    others = sum(s for _, s in spent[top:])
    rest = total - sum(s for _, s in spent)
    parts.append(f"other searches {100 * others / total:.1f}%")
    parts.append(f"the rest (the HoDoKu-order pass and the engine) {100 * rest / total:.1f}%")
    return "time by technique: " + ", ".join(parts)


def markdown(rows: list[list[str]]) -> str:
    """A Markdown table of the rows under `HEADER`."""
    lines = ["| " + " | ".join(HEADER) + " |", "|" + " --- |" * len(HEADER)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def sets(args: argparse.Namespace) -> list[tuple[str, list[Reference]]]:
    """The sets to measure, in the order given: rating files first, then puzzle files."""
    out: list[tuple[str, list[Reference]]] = []
    for given in args.ratings:
        path = Path(given)
        files = sorted(path.glob("*.se.txt")) if path.is_dir() else [path]
        for f in files:
            if args.only and f.name.removesuffix(".se.txt") not in args.only:
                continue
            out.append((f.name.removesuffix(".se.txt"), read_se(f)))
    for given in args.puzzles:
        out.append((Path(given).stem, [Reference(p.grid) for p in read_puzzles(given)]))
    rng = random.Random(args.seed)
    out = [
        (name, rng.sample(refs, args.sample) if 0 < args.sample < len(refs) else refs)
        for name, refs in out
    ]
    if args.limit:
        out = [(name, refs[: args.limit]) for name, refs in out]
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m harness.bench.human", description=__doc__)
    parser.add_argument(
        "--ratings",
        nargs="*",
        default=[str(RATINGS)],
        help="NAME.se.txt files or directories of them (default: %(default)s)",
    )
    parser.add_argument("--only", nargs="*", help="rating sets to keep, by NAME")
    parser.add_argument("--puzzles", nargs="*", default=[], help="puzzle files without ratings")
    parser.add_argument(
        "--sample", type=int, default=0, help="a random sample of N puzzles per set"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the sample")
    parser.add_argument("--limit", type=int, default=0, help="first N puzzles of every set")
    parser.add_argument("--techniques", default="all", help="technique set (default: all)")
    parser.add_argument("--misses", action="store_true", help="list the ER disagreements")
    parser.add_argument("--progress", action="store_true", help="progress on stderr")
    parser.add_argument(
        "--breakdown",
        type=int,
        default=0,
        metavar="N",
        help="also print, per set, the N techniques whose searches took the most time",
    )
    parser.add_argument(
        "--check", action="store_true", help="also check every step against the solution"
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=1,
        help="worker processes rating the puzzles (each still timed on its own; with other "
        "jobs on the same cores the times grow)",
    )
    args = parser.parse_args(argv)
    try:
        chosen = sets(args)
    except (OSError, PuzzleFormatError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    rows = []
    notes = []  # per set, after the table: markdown would end a table at a line without pipes
    for name, refs in chosen:
        figures = measure(name, refs, args.techniques, args.progress, args.check, args.jobs)
        rows.append(figures.row())
        print(markdown(rows[-1:]).splitlines()[-1] if rows[:-1] else markdown(rows), flush=True)
        notes.extend(set_notes(figures, args.check, args.misses, args.breakdown))
    if notes:
        print()
        print("\n".join(notes), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
