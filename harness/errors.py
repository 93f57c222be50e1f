"""Turning expected failures into one clear line on stderr and exit status 2."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

EXIT_USAGE = 2
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE: what a shell reports for a Unix tool cut off by `head`


class CommandError(Exception):
    """A failure the user can fix: printed as one line, exit status 2."""


def refuse_constraints(puzzles: Iterable[Any], command: str) -> None:
    """Raise `CommandError` for the first puzzle with constraints: `command` reads only
    the classic rules (rating, explaining, exporting), so it would answer another puzzle."""
    for puzzle in puzzles:
        if puzzle.grid.constraints:
            kinds = ", ".join(sorted({c.kind for c in puzzle.grid.constraints}))
            raise CommandError(
                f"{puzzle.id}: sudoku-bench {command} takes classic Sudoku; this puzzle has "
                f"{kinds} constraints (solve and run take them)"
            )


@dataclass
class Outcome:
    status: int = 0


@contextmanager
def friendly_errors() -> Iterator[Outcome]:
    """Print expected errors as 'sudoku-bench: error: ...' and set exit status 2.

    Bugs (any other exception) still show their traceback: hiding them would
    hide defects.  Ctrl-C exits with 130 after a short message.  A reader that
    stops early (``sudoku-bench solvers --json | head``) ends the command
    quietly, as it ends a Unix tool.
    """
    from solvers.registry import SolverUnavailable, UnknownSolver

    outcome = Outcome()
    try:
        yield outcome
    except BrokenPipeError:
        _silence_stdout()
        outcome.status = EXIT_BROKEN_PIPE
    except (CommandError, ValueError, UnknownSolver, SolverUnavailable, OSError) as exc:
        print(f"sudoku-bench: error: {exc}", file=sys.stderr)
        outcome.status = EXIT_USAGE
    except KeyboardInterrupt:
        print("sudoku-bench: interrupted", file=sys.stderr)
        outcome.status = 130


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so the interpreter's final flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # stdout already closed or not a real file
        pass
