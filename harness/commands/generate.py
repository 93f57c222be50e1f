"""`sudoku-bench generate`: make puzzles with a unique solution, reproducibly."""

from __future__ import annotations

import argparse
import random
import shlex
import sys
from collections.abc import Iterator

from corpora.generate import KINDS, Made, Spec, TargetNotMet, generate
from corpora.symmetry import SYMMETRIES
from corpora.variant_generate import ORDER as VARIANT_KINDS
from corpora.writers import FORMATS, Row, write_rows
from harness.commands import generate_variant as variant
from harness.errors import CommandError
from solvers.base import Status
from solvers.grid import box_shape_for

MAX_SIDE = 25  # 25x25 takes seconds per puzzle; 36x36 minutes; 49x49 may never finish

EPILOG = """examples:
  sudoku-bench generate --count 10 --seed 1                 # 9x9, unique, minimal by construction
  sudoku-bench generate --count 100 --jobs 2 --seed 7 > puzzles.txt
  sudoku-bench generate --size 16 --count 3 --format pretty
  sudoku-bench generate --box 2x3 --count 20 --symmetry rot180
  sudoku-bench generate --minimal --clues 22..24 --count 5  # verified minimal, 22-24 clues
  sudoku-bench generate --difficulty hard --count 20 --solution
  sudoku-bench generate --rating 6.0..9.9 --require x_wing --attempts 500
  sudoku-bench generate --kind multiple --count 5           # broken on purpose, for tests
  sudoku-bench generate --variant killer --count 3 --seed 1 > killer.json
  sudoku-bench generate --variant jigsaw --variant diagonal --size 6 --format fpuzzles

The same --seed gives the same puzzles on every machine, with any --jobs.
Without --seed a random seed is drawn and printed on stderr. 16x16 and 25x25
stop at 44% / 51% clues by default (below that pure-Python uniqueness checks
get slow); --clues or --minimal go further. --difficulty, --rating and
--require rate each puzzle with the human-style engine and draw fresh grids
until one fits (at most --attempts per puzzle). --variant makes puzzles with
constraints (the kinds 'sudoku-bench solvers' lists; several combine in one
puzzle), written as a native JSON list or f-puzzles; of the classic options
above only --difficulty (with --attempts) applies to them, for the kinds the
human-style engine rates."""


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = sub.add_parser(
        "generate",
        help="make puzzles with a unique solution (any size, symmetry, difficulty)",
        description="Generate puzzles: a random complete grid, then clues removed in a "
        "random order while a complete solver proves the solution stays unique. Writes "
        "one puzzle per line (or pictures, CSV, JSON lines) to stdout or --out.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--count", "-n", type=int, default=1, metavar="N", help="puzzles to make")
    shape = parser.add_mutually_exclusive_group()
    shape.add_argument("--size", type=int, default=9, metavar="N", help="side: 4, 6, 9, 12, 16, 25")
    shape.add_argument("--box", metavar="RxC", help="box shape, e.g. 2x3 for 6x6")
    parser.add_argument("--seed", metavar="S", help="seed (an integer or any text)")
    parser.add_argument(
        "--symmetry", default="none", choices=list(SYMMETRIES), help="clue pattern symmetry"
    )
    parser.add_argument(
        "--minimal",
        action="store_true",
        help="verify that no clue can be removed without losing uniqueness",
    )
    parser.add_argument("--clues", metavar="MIN..MAX", help="number of clues allowed")
    parser.add_argument(
        "--difficulty", metavar="LEVEL", help="Easy, Medium, Hard, Unfair or Extreme"
    )
    parser.add_argument("--rating", metavar="MIN..MAX", help="SE-style rating (ER) range")
    parser.add_argument(
        "--require",
        action="append",
        default=[],
        metavar="TECHNIQUE",
        help="a technique the solve path must use, e.g. x_wing (repeatable)",
    )
    parser.add_argument(
        "--kind", default="unique", choices=KINDS, help="what to make (default: unique)"
    )
    parser.add_argument(
        "--attempts", type=int, default=100, metavar="K", help="fresh grids per puzzle at most"
    )
    parser.add_argument(
        "--budget",
        type=int,
        default=None,
        metavar="NODES",
        help="cap each uniqueness check in search nodes; a clue whose check is cut short is "
        "kept (the output then depends on which solver the oracle is)",
    )
    parser.add_argument(
        "--variant",
        action="append",
        default=[],
        metavar="KIND",
        help=f"a constraint kind, e.g. killer (repeatable; one of {', '.join(VARIANT_KINDS)})",
    )
    parser.add_argument(
        "--format",
        default=None,
        choices=(*FORMATS, *variant.FORMATS),
        help="output format (default: line; native for --variant)",
    )
    parser.add_argument(
        "--solution", action="store_true", help="write each solution too (line, csv, json)"
    )
    parser.add_argument("--jobs", "-j", type=int, default=1, metavar="N", help="worker processes")
    parser.add_argument("--out", "-o", metavar="FILE", help="write here instead of stdout")
    parser.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="progress bar on stderr (default: on a terminal, for 20+ puzzles)",
    )
    parser.set_defaults(run=run)
    return parser


def parse_box(args: argparse.Namespace) -> tuple[int, int]:
    """The box shape from --box RxC or --size N."""
    if args.box:
        try:
            rows, cols = (int(p) for p in args.box.lower().split("x"))
        except ValueError:
            raise CommandError(f"--box {args.box!r}: expected ROWSxCOLS, such as 3x3") from None
        if rows * cols > MAX_SIDE:
            raise CommandError(f"--box {args.box}: {_too_big(rows * cols)}")
        return rows, cols
    if args.size < 4:
        raise CommandError(f"--size {args.size}: the smallest Sudoku is 4x4")
    if args.size > MAX_SIDE:
        raise CommandError(f"--size {args.size}: {_too_big(args.size)}")
    return box_shape_for(args.size)


def _too_big(side: int) -> str:
    return (
        f"generate makes grids up to {MAX_SIDE}x{MAX_SIDE}; a {side}x{side} grid would take "
        "minutes to hours per puzzle, if it finished at all"
    )


def parse_range(text: str | None, kind: type, option: str) -> tuple | None:
    """``MIN..MAX`` (also ``MIN-MAX``, ``N`` for exactly N, ``MIN..`` or ``..MAX``)."""
    if text is None:
        return None
    low, sep, high = text.partition("..")
    if not sep:
        low, sep, high = text.partition("-") if "-" in text[1:] else (text, "", text)
    try:
        lo = kind(low) if low.strip() else kind(0)
        hi = kind(high) if high.strip() else None
    except ValueError:
        raise CommandError(f"{option} {text!r}: expected MIN..MAX, such as 20..30") from None
    return lo, hi


def build_spec(args: argparse.Namespace) -> Spec:
    box = parse_box(args)
    clues = parse_range(args.clues, int, "--clues")
    if clues is not None:
        clues = (clues[0], (box[0] * box[1]) ** 2 if clues[1] is None else clues[1])
    rating = parse_range(args.rating, float, "--rating")
    if rating is not None:
        rating = (rating[0], float("inf") if rating[1] is None else rating[1])
    return Spec(
        box=box,
        kind=args.kind,
        symmetry=args.symmetry,
        minimal=args.minimal,
        clues=clues,
        difficulty=args.difficulty,
        rating=rating,
        require=tuple(args.require),
        attempts=args.attempts,
        budget=args.budget,
    )


def row_for(made: Made, with_solution: bool) -> Row:
    extra: dict[str, object] = {}
    if made.status != Status.SOLVED:
        extra["truth"] = made.status
    if made.rated is not None:
        extra.update(level=made.rated.level, er=made.rated.er)
    return Row(made.puzzle, made.solution if with_solution else None, extra)


def run(args: argparse.Namespace) -> int:
    if args.count < 0:
        raise CommandError(f"--count {args.count}: expected 0 or more")
    if args.jobs < 1:
        raise CommandError(f"--jobs {args.jobs}: expected 1 or more")
    if args.variant:
        args.format = args.format or "native"
        chosen = variant.check_options(args)
        return variant.run(args, chosen, parse_box(args), _seed(args.seed))
    args.format = args.format or "line"
    if args.format in variant.FORMATS:
        raise CommandError(f"--format {args.format} is for --variant puzzles")
    if args.solution and args.format in ("pretty", "numbers"):
        raise CommandError("--solution needs --format line, csv or json (pictures hold one grid)")
    spec = build_spec(args)
    seed = _seed(args.seed)
    made = generate(spec, args.count, seed=seed, jobs=args.jobs)
    show = args.progress if args.progress is not None else sys.stderr.isatty() and args.count >= 20
    if show:
        from tqdm import tqdm

        made = tqdm(made, total=args.count, unit="puzzle", file=sys.stderr, leave=False)
    header = [
        "sudoku-bench generate " + shlex.join(_replay(args, seed)),
    ]
    out = open(args.out, "w", encoding="utf-8") if args.out else sys.stdout  # noqa: SIM115
    try:
        write_rows(_rows(made, args.solution, out), out, args.format, header=header)
    except TargetNotMet as exc:
        raise CommandError(str(exc)) from None
    finally:
        if args.out:
            out.close()
    return 0


def _seed(given: str | None) -> str:
    """The seed given, or a random one (printed on stderr so the run can be repeated)."""
    if given is not None:
        return given
    seed = str(random.SystemRandom().randrange(10**9))
    print(f"sudoku-bench: seed {seed} (pass --seed {seed} to repeat)", file=sys.stderr)
    return seed


def _rows(made: Iterator[Made], with_solution: bool, out) -> Iterator[Row]:
    for m in made:
        yield row_for(m, with_solution)
        out.flush()


def _replay(args: argparse.Namespace, seed: str) -> list[str]:
    """The options that reproduce this output."""
    words = ["--count", str(args.count)]
    words += ["--box", args.box] if args.box else ["--size", str(args.size)]
    words += ["--seed", str(seed)]
    for option in ("symmetry", "clues", "difficulty", "rating", "attempts", "budget", "kind"):
        value = getattr(args, option)
        default = {"symmetry": "none", "attempts": 100, "kind": "unique"}.get(option)
        if value is not None and value != default:
            words += [f"--{option}", str(value)]
    words += [w for t in args.require for w in ("--require", t)]
    if args.minimal:
        words.append("--minimal")
    return words
