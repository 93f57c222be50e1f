"""Turning expected failures into one clear line on stderr and exit status 2."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

EXIT_USAGE = 2


class CommandError(Exception):
    """A failure the user can fix: printed as one line, exit status 2."""


@dataclass
class Outcome:
    status: int = 0


@contextmanager
def friendly_errors() -> Iterator[Outcome]:
    """Print expected errors as 'sudoku-bench: error: ...' and set exit status 2.

    Bugs (any other exception) still show their traceback: hiding them would
    hide defects.  Ctrl-C exits with 130 after a short message.
    """
    from solvers.registry import SolverUnavailable, UnknownSolver

    outcome = Outcome()
    try:
        yield outcome
    except (CommandError, ValueError, UnknownSolver, SolverUnavailable, OSError) as exc:
        print(f"sudoku-bench: error: {exc}", file=sys.stderr)
        outcome.status = EXIT_USAGE
    except KeyboardInterrupt:
        print("sudoku-bench: interrupted", file=sys.stderr)
        outcome.status = 130
