"""`sudoku-bench explain`: a step-by-step human-style solution, with the ratings."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

import solvers
from corpora.corpus import Puzzle, puzzles_from_argument
from harness.commands.rate import add_engine_options
from harness.errors import CommandError, refuse_constraints
from solvers.human import (
    CandidateState,
    UnsoundStep,
    candidate_grid,
    compact,
    english,
    pencilmarks,
    propagate,
    rating_of,
    record,
)

# The example puzzle is corpora/data/gen9-easy.txt line 53 (generated), with 0 for blanks.
EPILOG = """examples:
  sudoku-bench explain 000801500020000890450000030700608000000000000040005000100070058070314900600000700
  sudoku-bench explain puzzle.txt --format compact
  sudoku-bench explain puzzle.txt --candidates            # the candidate grid before every step
  sudoku-bench explain puzzle.txt --techniques tier1       # only the first-tier techniques
  sudoku-bench explain puzzle.txt --format json > steps.jsonl

Text lines read like 'Naked pair 2/5 in row 4 (r4c1, r4c8): removes 2 and 5 from r4c6';
compact lines like 'naked_pair: r4c6<>2,5'. After the steps come the rating and the
final grid, or the candidate grid where logic ran out."""


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = sub.add_parser(
        "explain",
        help="solve a puzzle step by step, the way a person would",
        description="Solve puzzles with the human-style engine, always taking the easiest "
        "step, and print every step with its justification, then the difficulty rating and "
        "the final grid (or the candidate grid where logic ran out). The engine never guesses.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("puzzle", metavar="PUZZLE|FILE", help="a puzzle, or a file of puzzles")
    parser.add_argument(
        "--format",
        choices=("text", "compact", "json"),
        default="text",
        help="plain English (default), compact notation, or JSON lines",
    )
    parser.add_argument(
        "--candidates", action="store_true", help="show the candidate grid before each step"
    )
    add_engine_options(parser)
    parser.set_defaults(run=run)
    return parser


def _solution(puzzle: Puzzle) -> solvers.Grid:
    result = solvers.get("dlx").solve(puzzle.grid, limit=2)
    if not result.unique or result.solution is None:
        raise CommandError(
            f"{puzzle.id}: --check needs a puzzle with one solution (dlx: {result.status.value})"
        )
    return result.solution


def _title(puzzle: Puzzle) -> str:
    """What the header calls the puzzle: its id in a file, 'The puzzle' when given inline."""
    return "The puzzle" if puzzle.id == "argument" else f"Puzzle {puzzle.id}"


def refuse_comment(text: str) -> None:
    """A '#' line given as the puzzle is a comment: say so, rather than 'the text is empty'."""
    if text.lstrip().startswith("#") and "\n" not in text.strip() and not os.path.exists(text):
        raise CommandError(f"{text.strip()!r} is a comment line ('#'): it holds no puzzle")


def _explain(puzzle: Puzzle, args: argparse.Namespace) -> None:
    grid = puzzle.grid
    broken = solvers.conflicts(grid)
    if broken:
        message = "; ".join(map(str, broken))
        if args.format == "json":
            print(json.dumps({"puzzle_id": puzzle.id, "status": "invalid", "message": message}))
        else:
            print(f"== {puzzle.id}: invalid puzzle: {message}")
        return
    solution = _solution(puzzle) if args.check else None
    state = CandidateState.from_grid(grid)
    result = propagate(
        state, args.techniques, trace=args.candidates or args.format == "json", solution=solution
    )
    rating = rating_of(grid, result)
    shape = grid.shape
    if args.format == "json":
        for number, step in enumerate(result.steps, 1):
            print(json.dumps({"step": number, **record(step, candidates=args.candidates)}))
        final: dict[str, Any] = {
            "puzzle_id": puzzle.id,
            "puzzle": grid.format(),
            "status": result.status,
            "rating": rating.as_dict(),
            "grid": state.to_grid().format(),
        }
        if result.stuck:
            final["candidates"] = pencilmarks(state.snapshot())
        if result.contradiction:
            final["reason"] = result.reason
        print(json.dumps(final))
        return
    print(f"== {_title(puzzle)}: {grid.givens} givens; techniques: {rating.config}")
    print(grid.format("pretty"))
    for number, step in enumerate(result.steps, 1):
        if args.candidates and step.before is not None:
            print()
            print(candidate_grid(step.before, shape))
        line = english(step) if args.format == "text" else f"{step.technique}: {compact(step)}"
        print(f"{number:4}. {line}")
    print()
    if result.solved:
        print(
            f"Solved by logic in {rating.steps} steps: ER {rating.er} EP {rating.ep} "
            f"ED {rating.ed}, score {rating.score} ({rating.level}), class {rating.category}"
            + (" [assumes a unique solution]" if rating.uniqueness_used else "")
        )
        print(state.to_grid().format("pretty"))
    elif result.contradiction:
        print(f"Contradiction after {rating.steps} steps: {result.reason}")
        print(
            "The puzzle has no solution"
            + (" (or several: a uniqueness technique was used)." if result.uniqueness_used else ".")
        )
    else:
        print(
            f"Stuck after {rating.steps} steps with {state.empty} open cells "
            f"(ER so far {rating.er}, score {rating.score}); the candidates:"
        )
        print(candidate_grid(state.snapshot(), shape))
    if solution is not None:
        print(f"Soundness: {result.checked} steps checked against the solution, all sound.")


def run(args: argparse.Namespace) -> int:
    from solvers.human.table import resolve

    resolve(args.techniques)  # a bad name is a usage error before any work
    refuse_comment(args.puzzle)
    puzzles = puzzles_from_argument(args.puzzle)
    refuse_constraints(puzzles, "explain")
    for puzzle in puzzles:
        try:
            _explain(puzzle, args)
        except UnsoundStep as exc:
            print(f"sudoku-bench: {puzzle.id}: {exc}", file=sys.stderr)
            return 1
    return 0
