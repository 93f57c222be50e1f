"""`sudoku-bench solve`: solve puzzles given inline or in a file, and show the work."""

from __future__ import annotations

import argparse
import contextlib
import json
from typing import Any

from tabulate import tabulate

import solvers
from corpora.corpus import Puzzle, puzzles_from_argument
from harness.commands import solvers_files
from harness.measure import measured_solve, settle_heap
from solvers.base import SolveResult

EPILOG = """examples:
  sudoku-bench solve 58.........71.4........645...6.3...8.7.5....11..6...4..4....39...3.7.1...9.....7.
  sudoku-bench solve puzzles.txt --solver dlx --limit 2     # prove uniqueness
  sudoku-bench solve puzzle.txt --all                       # every available solver
  sudoku-bench solve puzzle.txt --json > answers.json

A puzzle is a one-line string (. 0 - * _ for blanks), a grid picture, letters
for 16x16 and 25x25, or whitespace-separated numbers; a FILE holds one puzzle
per line or pictures separated by blank lines."""


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = sub.add_parser(
        "solve",
        help="solve a puzzle or a file of puzzles",
        description="Solve puzzles with one solver (or all) and print the solution grid, "
        "the status and the solver's statistics. Every solution is checked by the "
        "independent verifier.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("puzzle", metavar="PUZZLE|FILE", help="a puzzle, or a file of puzzles")
    which = parser.add_mutually_exclusive_group()
    which.add_argument(
        "--solver", default="dlx", metavar="NAME", help="solver, e.g. dlx or 'cpsat[workers=1]'"
    )
    which.add_argument("--all", action="store_true", help="run every available solver")
    parser.add_argument(
        "--limit",
        type=int,
        default=1,
        metavar="K",
        help="solutions to look for (2 proves uniqueness)",
    )
    parser.add_argument(
        "--time-limit", type=float, default=None, metavar="S", help="seconds per puzzle"
    )
    parser.add_argument(
        "--budget", type=int, default=None, metavar="N", help="search nodes per puzzle"
    )
    parser.add_argument(
        "--trace", action="store_true", help="print the solver's steps, if it traces"
    )
    parser.add_argument("--json", action="store_true", help="print JSON lines instead of text")
    solvers_files.add_argument(parser)
    parser.set_defaults(run=run)
    return parser


def _solver_specs(args: argparse.Namespace) -> list[str]:
    if args.all:
        return [
            n
            for n in solvers.names()
            if solvers.solver_class(n).supported() and solvers.solver_class(n).standalone
        ]
    return [args.solver]


def _solve(
    solver: solvers.Solver, puzzle: Puzzle, args: argparse.Namespace
) -> tuple[SolveResult, float]:
    """One solve, timed as every command times it (`harness.measure`): the solver's
    declared span, without its staging."""
    measured = measured_solve(
        solver,
        puzzle.grid,
        limit=args.limit,
        time_limit=args.time_limit,
        budget=args.budget,
        trace=args.trace,
    )
    return measured.result, measured.wall


def _as_json(puzzle: Puzzle, spec: str, result: SolveResult, seconds: float) -> dict[str, Any]:
    return {
        "puzzle_id": puzzle.id,
        "puzzle": puzzle.grid.format(),
        "solver": spec,
        "status": result.status.value,
        "exhausted": result.exhausted,
        "solutions": [s.format() for s in result.solutions],
        # None when there is nothing to verify (no solution found)
        "verified": (
            all(solvers.is_solution(puzzle.grid, s) for s in result.solutions)
            if result.solutions
            else None
        ),
        "seconds": seconds,
        "stats": {k: v for k, v in result.stats.items() if isinstance(v, (int, float, str, bool))},
        "message": result.message,
        "trace": [str(step) for step in result.trace] if result.trace else None,
    }


def _print_text(
    puzzle: Puzzle, spec: str, result: SolveResult, seconds: float, show_trace: bool
) -> None:
    print(
        f"== {puzzle.id}  solver {spec}: {result.status.value}"
        + (" (proved unique)" if result.unique and result.exhausted else "")
        + f"  {seconds * 1000:.2f} ms"
    )
    if result.message:
        print(result.message)
    if show_trace and result.trace:
        for step in result.trace:
            print(f"  {step}")
    for number, solution in enumerate(result.solutions, 1):
        problems = solvers.check(puzzle.grid, solution)
        verdict = "verified" if not problems else "WRONG: " + "; ".join(map(str, problems[:3]))
        print(f"solution {number} ({verdict}):")
        print(solution.format("pretty"))
    stats = {k: v for k, v in result.stats.items() if isinstance(v, (int, float))}
    if stats:
        print("stats: " + ", ".join(f"{k}={v}" for k, v in stats.items()))


def run(args: argparse.Namespace) -> int:
    solvers_files.load(args)
    puzzles = puzzles_from_argument(args.puzzle)
    instances = [solvers.get(spec) for spec in _solver_specs(args)]
    # as a worker of `run` does: load what a first solve would, then keep it out of the
    # garbage collector's way, so that the times are the solves' own
    for solver in instances:
        with contextlib.suppress(Exception):  # a failure here shows again in the solve
            solver.warm_up()
    settle_heap()
    summary = []
    for puzzle in puzzles:
        for solver in instances:
            ok, reason = solver.handles(puzzle.grid)
            if not ok:
                summary.append([puzzle.id, solver.spec, f"skipped: {reason}", ""])
                continue
            result, seconds = _solve(solver, puzzle, args)
            if args.json:
                print(json.dumps(_as_json(puzzle, solver.spec, result, seconds)))
            elif args.all:
                summary.append(
                    [puzzle.id, solver.spec, result.status.value, f"{seconds * 1000:.2f}"]
                )
            else:
                _print_text(puzzle, solver.spec, result, seconds, args.trace)
    if summary and not args.json:
        print(tabulate(summary, headers=["puzzle", "solver", "status", "ms"]))
    return 0
