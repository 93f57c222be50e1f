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
from harness.explain_html import page
from solvers.human import (
    CandidateState,
    PropagationResult,
    Rating,
    UnsoundStep,
    candidate_grid,
    compact,
    english,
    pencilmarks,
    propagate,
    rating_of,
    record,
)
from solvers.human.chain_text import proof_lines
from solvers.human.proof import forcing_proof
from solvers.human.step import Step
from solvers.human.trace import technique_title

# The example puzzle is corpora/data/gen9-easy.txt line 53 (generated), with 0 for blanks.
EPILOG = """examples:
  sudoku-bench explain 000801500020000890450000030700608000000000000040005000100070058070314900600000700
  sudoku-bench explain puzzle.txt --format compact
  sudoku-bench explain puzzle.txt --candidates            # the candidate grid before every step
  sudoku-bench explain puzzle.txt --techniques tier1       # only the first-tier techniques
  sudoku-bench explain puzzle.txt --format json > steps.jsonl
  sudoku-bench explain puzzle.txt --step 12                # step 12 alone, on its grid
  sudoku-bench explain puzzle.txt --format html > path.html  # every step drawn, one page

Text lines read like 'Naked pair 2/5 in row 4 (r4c1, r4c8): removes 2 and 5 from r4c6';
compact lines like 'Naked pair: r4c6<>2,5' (JSON names the technique as the
table does, 'naked_pair'). Chains read in Eureka notation
('(5)r1c1=(5)r1c5-(5)r3c5=(5)r3c9'); a forcing chain lists its implications from each
assumption under its step, nested chains indented. After the steps come the rating and
the final grid, or the candidate grid where logic ran out."""


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
        choices=("text", "compact", "json", "html"),
        default="text",
        help="plain English (default), compact notation, JSON lines, or one HTML page "
        "(self-contained: the grid before each step, its links and eliminations marked)",
    )
    parser.add_argument(
        "--step",
        type=int,
        metavar="N",
        help="show step N alone, with the candidate grid before it",
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


def puzzle_title(puzzle: Puzzle) -> str:
    """What the header calls the puzzle: its id in a file, 'The puzzle' when given inline."""
    return "The puzzle" if puzzle.id == "argument" else f"Puzzle {puzzle.id}"


def summary(result: PropagationResult, rating: Rating) -> str:
    """How the path ended, in one line: solved with the ratings, a contradiction, or stuck."""
    if result.solved:
        return (
            f"Solved by logic in {rating.steps} steps: ER {rating.er} EP {rating.ep} "
            f"ED {rating.ed}, score {rating.score} ({rating.level}), class {rating.category}"
            + (" [assumes a unique solution]" if rating.uniqueness_used else "")
        )
    if result.contradiction:
        return f"Contradiction after {rating.steps} steps: {result.reason}"
    return (
        f"Stuck after {rating.steps} steps with {result.state.empty} open cells "
        f"(ER so far {rating.er}, score {rating.score})"
    )


def chain_lines(step: Step) -> list[str]:
    """A forcing chain's links (rebuilt from the grid before it), else nothing."""
    proof = forcing_proof(step)
    return proof_lines(proof) if proof is not None else []


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
            print(f"== {puzzle_title(puzzle)}: invalid puzzle: {message}")
        return
    solution = _solution(puzzle) if args.check else None
    state = CandidateState.from_grid(grid)
    # the grid before each step: the candidates to show, and where chains are rebuilt from
    result = propagate(state, args.techniques, trace=True, solution=solution)
    rating = rating_of(grid, result)
    shape = grid.shape
    numbered = list(enumerate(result.steps, 1))
    if args.step is not None:
        if not 1 <= args.step <= len(numbered):
            raise CommandError(
                f"{puzzle.id}: --step {args.step}: the solving path has "
                f"{len(numbered)} steps (1 to {len(numbered)})"
            )
        numbered = numbered[args.step - 1 : args.step]
    if args.format == "html":
        print(page(puzzle_title(puzzle), grid, numbered, summary(result, rating)))
        return
    if args.format == "json":
        for number, step in numbered:
            line = {"step": number, **record(step, candidates=args.candidates)}
            proof = forcing_proof(step)
            if proof is not None:
                line["links"] = proof_lines(proof)
            print(json.dumps(line))
        if args.step is not None:
            return
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
    print(f"== {puzzle_title(puzzle)}: {grid.givens} givens; techniques: {rating.config}")
    one = args.step is not None
    if not one:
        print(grid.format("pretty"))
    for number, step in numbered:
        if (args.candidates or one) and step.before is not None:
            print()
            print(candidate_grid(step.before, shape))
        if args.format == "compact":
            print(f"{number:4}. {technique_title(step.technique)}: {compact(step)}")
            continue
        print(f"{number:4}. {english(step)}")
        for text in chain_lines(step):
            print(f"{'':6}{text}")
    if one:
        return
    print()
    if result.solved:
        print(summary(result, rating))
        print(state.to_grid().format("pretty"))
    elif result.contradiction:
        print(summary(result, rating))
        print(
            "The puzzle has no solution"
            + (" (or several: a uniqueness technique was used)." if result.uniqueness_used else ".")
        )
    else:
        print(f"{summary(result, rating)}; the candidates:")
        print(candidate_grid(state.snapshot(), shape))
    if solution is not None:
        print(f"Soundness: {result.checked} steps checked against the solution, all sound.")


def run(args: argparse.Namespace) -> int:
    from solvers.human.table import resolve

    resolve(args.techniques)  # a bad name is a usage error before any work
    refuse_comment(args.puzzle)
    puzzles = puzzles_from_argument(args.puzzle)
    refuse_constraints(puzzles, "explain")
    if args.format == "html" and len(puzzles) > 1:
        raise CommandError(
            f"--format html draws one puzzle on one page; {args.puzzle} holds {len(puzzles)}"
        )
    for puzzle in puzzles:
        try:
            _explain(puzzle, args)
        except UnsoundStep as exc:
            print(f"sudoku-bench: {puzzle.id}: {exc}", file=sys.stderr)
            return 1
    return 0
