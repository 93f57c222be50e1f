"""`sudoku-bench generate --variant KIND`: puzzles with constraints, as native JSON or f-puzzles.

The puzzles come from `corpora.variant_generate` (one recipe for every kind;
several kinds combine in one puzzle), one puzzle per line of a JSON list, so
``solve``, ``run`` and ``corpora inspect`` read the output back.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from typing import IO, Any

import solvers
from corpora import fpuzzles, rating
from corpora.variant_generate import Made, NoPuzzle, kinds_of, make_many
from harness.errors import CommandError
from solvers.variants import ConstraintError
from solvers.variants.canonical import puzzle_data

FORMATS = ("native", "fpuzzles")
CLASSIC_ONLY = {  # option -> its value when not given
    "symmetry": "none",
    "minimal": False,
    "clues": None,
    "rating": None,
    "require": [],
    "kind": "unique",
    "budget": None,
}
"""Options of the classic generator that the variant recipe has no use for."""


def check_options(args: argparse.Namespace) -> tuple[str, ...]:
    """The kinds asked for; `CommandError` for an unknown kind or an option that does
    not apply to variant puzzles."""
    try:
        chosen = kinds_of(args.variant)
    except ValueError as error:
        raise CommandError(f"--variant: {error}") from None
    for option, default in CLASSIC_ONLY.items():
        if getattr(args, option) != default:
            flag = "--" + option.replace("_", "-")
            raise CommandError(f"{flag} is for classic puzzles; --variant puzzles take none")
    if args.difficulty is not None:
        args.difficulty = _level(args.difficulty, chosen)
    if args.format not in FORMATS:
        raise CommandError(
            f"--format {args.format}: --variant puzzles are written as {' or '.join(FORMATS)}"
        )
    return chosen


def _level(text: str, chosen: tuple[str, ...]) -> str:
    """The difficulty asked for, checked: a level name, and kinds the human engine rates."""
    try:
        level = rating.level_name(text)
    except ValueError as error:
        raise CommandError(f"--difficulty: {error}") from None
    rated = solvers.solver_class("human").constraint_kinds
    unrated = [kind for kind in chosen if kind not in rated]
    if unrated:
        raise CommandError(
            f"--difficulty: the human engine, which rates puzzles, does not take "
            f"{', '.join(unrated)}; it rates {', '.join(sorted(rated))}"
        )
    return level


def run(args: argparse.Namespace, chosen: tuple[str, ...], box: tuple[int, int], seed: str) -> int:
    """Make the puzzles and write them; `CommandError` when the kinds cannot take the size."""
    out = open(args.out, "w", encoding="utf-8") if args.out else sys.stdout  # noqa: SIM115
    try:
        made = made_or_refused(
            chosen, box, args.count, seed, args.jobs, args.difficulty, args.attempts
        )
        write(made, out, args)
    finally:
        if args.out:
            out.close()
    return 0


def made_or_refused(
    chosen: tuple[str, ...],
    box: tuple[int, int],
    count: int,
    seed: str,
    jobs: int,
    level: str | None = None,
    attempts: int = 100,
) -> Iterator[Made]:
    """The puzzles, with a failure of the recipe turned into a one-line `CommandError`."""
    side = box[0] * box[1]
    try:
        yield from make_many(chosen, box, count, seed, jobs=jobs, level=level, attempts=attempts)
    except (NoPuzzle, ConstraintError) as error:
        raise CommandError(
            f"--variant {' --variant '.join(chosen)}: the recipe finds no {side}x{side} grid "
            f"that keeps these rules ({error})"
        ) from None


def write(made: Iterator[Made], out: IO[str], args: argparse.Namespace) -> None:
    """A JSON list, one puzzle per line (f-puzzles objects with ``--format fpuzzles``);
    nothing at all when the first puzzle fails."""
    for i, m in enumerate(made):
        out.write(("[\n" if i == 0 else ",\n") + json.dumps(_data(m, args)))
        out.flush()
    out.write("\n]\n" if args.count else "[]\n")


def _data(made: Made, args: argparse.Namespace) -> dict[str, Any]:
    if args.format == "fpuzzles":
        try:
            data = fpuzzles.to_fpuzzles(made.puzzle)
        except fpuzzles.FPuzzlesError as error:
            raise CommandError(f"--format fpuzzles: {error}") from None
        if args.solution:
            data["solution"] = list(made.solution.cells)
        return data
    return puzzle_data(made.puzzle, solution=made.solution if args.solution else None)
