"""`sudoku-bench export`: the models of puzzles as files other tools read.

One puzzle goes to standard output (or ``--out FILE``); several go to a
directory, one file per puzzle (``00001.cnf`` ...), and for MiniZinc the
model once (``sudoku_bench.mzn``) beside one data file per puzzle.  The models are
the ones the `dimacs` and `minizinc` solvers run, so a result obtained
elsewhere can be compared with one obtained here.  A puzzle with constraints
has a MiniZinc model of its own (``00001.mzn`` beside ``00001.dzn``) and CNF
with auxiliary variables after the cell variables; its data alone (``dzn``)
would pair with a model that is not its own, so that format refuses it.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from dataclasses import dataclass

from corpora.corpus import Puzzle, puzzles_from_argument
from harness.errors import CommandError, refuse_constraints
from solvers.cp import minizinc as minizinc_solver
from solvers.grid import Grid
from solvers.sat import cnf
from solvers.sat.variant_cnf import SUMS

EPILOG = """examples:
  sudoku-bench export "1...3..2...3..2." --format dimacs            # CNF on stdout
  sudoku-bench export "1...3..2...3..2." --format dimacs | cadical  # solve it elsewhere
  sudoku-bench export puzzle.txt --format dimacs --encoding minimal --out puzzle.cnf
  sudoku-bench export gen9-hard --format dimacs --out cnf/          # cnf/00001.cnf ...
  sudoku-bench export gen9-hard --format mzn --out mzn/             # mzn/sudoku_bench.mzn + 00001.dzn ...
  minizinc --solver gecode mzn/sudoku_bench.mzn mzn/00001.dzn
  sudoku-bench export top1465.txt --format dzn --max 10 --out dzn/
  sudoku-bench export killers.json --format mzn --out mzn/          # 00001.mzn + 00001.dzn ...

formats:
  dimacs  the CNF of the sat and dimacs solvers (--encoding extended|minimal): one Boolean
          per (cell, digit), variable cell*N+digit with cells 0-based in reading order
  mzn     the MiniZinc model of the minizinc solver; one puzzle: a self-contained model,
          several: sudoku_bench.mzn and one .dzn data file per puzzle, and for each
          puzzle with constraints (killer cages, thermometers ...) its own .mzn beside its .dzn
  dzn     MiniZinc data files only (BR, BC, givens); classic Sudoku only

Each file starts with a comment naming the puzzle (its id and its one-line form)."""


@dataclass(frozen=True)
class Format:
    """One export format: the file suffix, the text of a puzzle, and a shared model file."""

    suffix: str
    text: Callable[[Grid, argparse.Namespace], str]
    shared: tuple[str, str] | None = None  # (file name, text) written once beside the puzzles
    alone: Callable[[Grid, argparse.Namespace], str] | None = None  # one puzzle, self-contained
    # the model of a puzzle with constraints, written beside its file (None: not needed)
    own_model: Callable[[Grid], str] | None = None
    classic_only: bool = False  # refuses puzzles with constraints


def _dimacs(grid: Grid, args: argparse.Namespace) -> str:
    return cnf.dimacs(grid, args.encoding, sums=args.sums)


def _dzn(grid: Grid, args: argparse.Namespace) -> str:
    return f"% puzzle {grid.format()}\n" + minizinc_solver.dzn(grid)


def _mzn_alone(grid: Grid, args: argparse.Namespace) -> str:
    return minizinc_solver.model_for(grid) + "\n" + _dzn(grid, args)


FORMATS: dict[str, Format] = {
    "dimacs": Format(".cnf", _dimacs),
    "mzn": Format(
        ".dzn",
        _dzn,
        ("sudoku_bench.mzn", minizinc_solver.MODEL),
        _mzn_alone,
        own_model=minizinc_solver.model_for,
    ),
    "dzn": Format(".dzn", _dzn, classic_only=True),
}


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = sub.add_parser(
        "export",
        help="write puzzles as DIMACS CNF or MiniZinc models for other tools",
        description="Write the models of a puzzle, a file of puzzles or a built-in corpus for "
        "use elsewhere: the DIMACS CNF that the sat and dimacs solvers solve, or the MiniZinc "
        "model of the minizinc solver. One puzzle goes to stdout or --out FILE; several to the "
        "directory --out DIR, one file per puzzle.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "puzzle", metavar="PUZZLE|FILE|CORPUS", help="a puzzle, a file of puzzles, or a corpus"
    )
    parser.add_argument("--format", choices=list(FORMATS), default="dimacs", help="default dimacs")
    parser.add_argument(
        "--encoding",
        choices=list(cnf.ENCODINGS),
        default="extended",
        help="CNF encoding for --format dimacs (default extended)",
    )
    parser.add_argument(
        "--sums",
        choices=list(SUMS),
        default="ladder",
        help="how --format dimacs encodes the sums of puzzles with constraints: ladders of "
        "partial sums, or killer cages by their allowed digit sets (default ladder)",
    )
    parser.add_argument(
        "--out", metavar="PATH", help="a file (one puzzle) or a directory (several); default stdout"
    )
    parser.add_argument(
        "--max", type=int, default=None, metavar="N", help="only the first N puzzles"
    )
    parser.set_defaults(run=run)
    return parser


def _header(fmt: str, puzzle: Puzzle) -> str:
    mark = "c" if fmt == "dimacs" else "%"
    return f"{mark} sudoku-bench export: {puzzle.id}\n"


def run(args: argparse.Namespace) -> int:
    puzzles = puzzles_from_argument(args.puzzle)[: args.max]
    fmt = FORMATS[args.format]
    if fmt.classic_only:
        refuse_constraints(puzzles, f"export --format {args.format}")
    if not puzzles:
        raise CommandError(f"no puzzles in {args.puzzle}")
    if len(puzzles) == 1 and not (args.out and os.path.isdir(args.out)):
        make = fmt.alone or fmt.text
        text = _header(args.format, puzzles[0]) + make(puzzles[0].grid, args)
        if args.out:
            with open(args.out, "w", encoding="utf-8") as out:
                out.write(text)
        else:
            print(text, end="")
        return 0
    if not args.out:
        raise CommandError(
            f"{len(puzzles)} puzzles: give a directory for them, e.g. --out {args.format}/"
        )
    if os.path.isfile(args.out) or args.out.endswith((".cnf", ".mzn", ".dzn")):
        raise CommandError(
            f"{args.out} is a file name: {len(puzzles)} puzzles need a directory, e.g. --out "
            f"{args.format}/"
        )
    os.makedirs(args.out, exist_ok=True)
    classic = [p for p in puzzles if not p.grid.constraints]
    shared = fmt.shared if fmt.shared and (classic or not fmt.own_model) else None
    if shared:
        name, text = shared
        with open(os.path.join(args.out, name), "w", encoding="utf-8") as out:
            out.write(text)
    width = max(5, len(str(len(puzzles))))
    models = 0
    for number, puzzle in enumerate(puzzles, 1):
        stem = os.path.join(args.out, f"{number:0{width}d}")
        with open(stem + fmt.suffix, "w", encoding="utf-8") as out:
            out.write(_header(args.format, puzzle) + fmt.text(puzzle.grid, args))
        if fmt.own_model and puzzle.grid.constraints:
            with open(stem + ".mzn", "w", encoding="utf-8") as out:
                out.write(_header(args.format, puzzle) + fmt.own_model(puzzle.grid))
            models += 1
    also = f" and {shared[0]}" if shared else ""
    if models:
        also += f" and {models} .mzn models of puzzles with constraints"
    print(f"wrote {len(puzzles)} {fmt.suffix} files{also} to {args.out}")
    return 0
