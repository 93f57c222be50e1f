"""The engine's HoDoKu figures against HoDoKu's own (``--help`` says how to run it).

The human engine prints a HoDoKu score and level beside its Sudoku Explainer
ratings, from a second pass over the puzzle in HoDoKu's order of techniques
(`solvers.human.hodoku_path`).  This program rates the same 9x9 puzzles with the engine
and with ``hodoku-py`` (a Python port of HoDoKu's solver; install it with
``pip install 'sudoku-bench[hodoku]'``) and prints, per set, how often the
two agree: the level exactly, the score exactly and within 5%, and Spearman's
rank correlation of the scores.  ``--misses`` lists the disagreements.

Corpora are built-in names or files; ``--sample N`` rates N puzzles drawn
with ``--seed``.  Each puzzle is rated once by each program, in ``--jobs``
worker processes.  Nothing here asserts anything: it prints figures.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import statistics
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from corpora.corpus import puzzles_from_argument
from solvers.grid import Grid, PuzzleFormatError
from solvers.human import rate

INSTALL = "pip install 'sudoku-bench[hodoku]'"


@dataclass(frozen=True)
class Pair:
    """One puzzle rated by both: the engine's (score, level) and HoDoKu's."""

    puzzle: str
    ours_score: int
    ours_level: str
    theirs_score: int
    theirs_level: str
    theirs_solved: bool


def hodoku_solver():  # noqa: ANN201 (the port's type, imported lazily)
    """HoDoKu's solver with its default configuration, or a clear message when absent."""
    try:
        from hodoku import Solver
    except ImportError:
        raise SystemExit(f"needs hodoku-py: {INSTALL}") from None
    return Solver()


def rate_both(puzzle: str) -> Pair:
    """Rate one 9x9 puzzle (81 characters, ``.`` blanks) with the engine and with HoDoKu."""
    ours = rate(Grid.parse(puzzle))
    theirs = hodoku_solver().solve(puzzle)
    return Pair(
        puzzle,
        ours.score,
        ours.level or "",
        int(theirs.score),
        theirs.level.name.capitalize() if hasattr(theirs.level, "name") else str(theirs.level),
        bool(theirs.solved),
    )


@dataclass(frozen=True)
class Agreement:
    """The agreement figures of one set."""

    name: str
    puzzles: int
    level_equal: int
    score_equal: int
    score_within_5: int
    spearman: float | None

    def row(self) -> list[str]:
        def pct(k: int) -> str:
            return f"{100 * k / self.puzzles:.1f}%" if self.puzzles else "-"

        rho = "-" if self.spearman is None else f"{self.spearman:.3f}"
        return [
            self.name,
            str(self.puzzles),
            pct(self.level_equal),
            pct(self.score_equal),
            pct(self.score_within_5),
            rho,
        ]


HEADER = ["set", "puzzles", "level =", "score =", "score ±5%", "Spearman ρ (score)"]


def agreement(name: str, pairs: Sequence[Pair]) -> Agreement:
    """Exact level, exact score, score within 5% of HoDoKu's, and the rank correlation."""
    from scipy.stats import spearmanr

    within = sum(abs(p.ours_score - p.theirs_score) <= 0.05 * p.theirs_score for p in pairs)
    rho = None
    ours = [p.ours_score for p in pairs]
    theirs = [p.theirs_score for p in pairs]
    if len(pairs) > 2 and len(set(ours)) > 1 and len(set(theirs)) > 1:
        rho = float(spearmanr(ours, theirs).statistic)
    return Agreement(
        name,
        len(pairs),
        sum(p.ours_level == p.theirs_level for p in pairs),
        sum(p.ours_score == p.theirs_score for p in pairs),
        within,
        rho,
    )


def markdown(rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(HEADER) + " |", "|" + " --- |" * len(HEADER)]
    return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in rows])


def load(argument: str, sample: int, seed: int) -> list[str]:
    """The 9x9 puzzles of a corpus name or file, as 81-character lines (a sample if asked)."""
    grids = [p.grid for p in puzzles_from_argument(argument)]
    lines = [g.format() for g in grids if g.size == 9]
    if sample and sample < len(lines):
        lines = random.Random(seed).sample(lines, sample)
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m harness.bench.hodoku",
        description=__doc__.split("\n\n")[0],
        epilog="example: python -m harness.bench.hodoku gen9-easy gen9-hard --sample 100 --jobs 2",
    )
    parser.add_argument("corpora", nargs="+", help="built-in corpus names or puzzle files")
    parser.add_argument("--sample", type=int, default=0, help="rate N puzzles of each set")
    parser.add_argument("--seed", type=int, default=1, help="seed of the sample (default 1)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--misses", action="store_true", help="list every disagreement")
    args = parser.parse_args(argv)
    hodoku_solver()  # fail early, with the install command, when the port is missing
    rows = []
    for argument in args.corpora:
        try:
            puzzles = load(argument, args.sample, args.seed)
        except (OSError, PuzzleFormatError) as exc:
            print(f"python -m harness.bench.hodoku: {exc}", file=sys.stderr)
            return 2
        if args.jobs > 1:
            with multiprocessing.Pool(args.jobs) as pool:
                pairs = pool.map(rate_both, puzzles, chunksize=4)
        else:
            pairs = [rate_both(p) for p in puzzles]
        label = Path(argument).name if Path(argument).is_file() else argument
        rows.append(agreement(label, pairs).row())
        if args.misses:
            for p in pairs:
                if (p.ours_score, p.ours_level) != (p.theirs_score, p.theirs_level):
                    print(
                        f"{argument}: {p.puzzle} ours {p.ours_score} {p.ours_level}, "
                        f"HoDoKu {p.theirs_score} {p.theirs_level}"
                        + ("" if p.theirs_solved else " (HoDoKu did not finish)")
                    )
        ratios = [p.ours_score / p.theirs_score for p in pairs if p.theirs_score]
        if ratios:
            print(
                f"{argument}: median score ratio ours/HoDoKu {statistics.median(ratios):.3f}",
                file=sys.stderr,
            )
    print(markdown(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
