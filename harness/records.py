"""The shared vocabulary of a study: what a run and a result are.

The runner produces `ResultRecord`s, the store keeps them, the cross-check
gives them verdicts and the reports read them; this module is the one place
that defines their fields.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from solvers.base import Status
from solvers.grid import Grid, box_shape_for, default_symbols


class Verdict(str, Enum):
    """What the cross-check says of a result's answers (`harness.crosscheck`).

    A member is its value as a string (``Verdict.WRONG == "WRONG"``), so the
    store, the exports and data frames hold plain text.
    """

    CORRECT = "CORRECT"  # the answers agree with the truth, or are proved by themselves
    WRONG = "WRONG"  # an answer the truth or another solver refutes
    UNKNOWN = "UNKNOWN"  # an answer nothing could confirm or refute

    def __str__(self) -> str:
        return self.value


VERDICTS = tuple(Verdict)


def typed_outcome(status: str, verdict: str | None) -> tuple[Status, Verdict | None]:
    """A stored status and verdict as their enum members: how text read back from a
    store, a file or a data frame becomes typed again (raises ValueError on text that
    names no member)."""
    return Status(status), None if verdict is None else Verdict(verdict)


@dataclass(frozen=True)
class RunInfo:
    """One invocation of `sudoku-bench run`: settings and the environment it ran in."""

    id: int
    started: str  # ISO 8601, UTC
    finished: str | None
    command: str
    settings: dict[str, Any] = field(
        default_factory=dict
    )  # timeout, memory, jobs, repeat, seed, ...
    git_commit: str | None = None
    versions: dict[str, str] = field(default_factory=dict)  # python, sudoku-bench, ortools, ...
    machine: dict[str, Any] = field(default_factory=dict)  # cpu model, cores, memory


@dataclass(frozen=True)
class ResultRecord:
    """One solve of one puzzle by one solver (one repeat)."""

    run_id: int
    solver: str  # spec with parameters, e.g. "cpsat[workers=1]"
    corpus: str
    puzzle_id: str
    puzzle: str  # the puzzle in line format
    repeat: int
    status: Status
    solution: str | None = None  # first solution, line format
    solutions_found: int = 0
    exhausted: bool = False
    wall: float | None = None  # seconds of the solve call alone
    cpu: float | None = None
    stats: dict[str, Any] = field(default_factory=dict)
    error: str = ""
    verdict: Verdict | None = None  # set once cross-checked
    time_limit: float | None = None  # the limit in force, for PAR-2
    variant: int = 0  # 0: the puzzle as given; k >= 1: its k-th metamorphic form
    reason: str = ""  # why the verdict is WRONG (or what is unknown), for findings
    box: str = ""  # "RxC" when the box shape is not the usual one for the size
    limit: int = 2  # how many solutions the solver was asked for
    peak_rss_mb: float | None = None  # resident high-water mark of the solve (worker or child)


@dataclass(frozen=True)
class Truth:
    """What the oracle (a complete solver) established about one puzzle."""

    puzzle: str  # line format, as in `ResultRecord.puzzle`
    kind: str  # one of TRUTH_KINDS
    solution: str | None = None  # the solution when it is unique
    oracle: str = ""  # the solver spec that established it
    box: str = ""


TRUTH_KINDS = ("none", "unique", "multiple", "invalid")


def puzzle_text(grid: Grid) -> tuple[str, str]:
    """The canonical text of a grid and its box note: ``(line, "")`` for the usual shapes.

    Digits are written with the default symbols (so 16x16 grids read in ``0-F``
    are stored in ``1-G``), and as space-separated numbers beyond 35; the box
    note is ``"RxC"`` only when the shape differs from `box_shape_for(size)`.
    A puzzle with constraints is its canonical JSON on one line
    (`solvers.variants.canonical`), so the text says everything the puzzle is.
    """
    n = grid.size
    try:
        usual = box_shape_for(n) == (grid.box_rows, grid.box_cols)
    except ValueError:  # a prime side: a jigsaw's nominal boxes
        usual = False
    box = "" if usual else f"{grid.box_rows}x{grid.box_cols}"
    if grid.constraints:
        from solvers.variants.canonical import to_json

        return to_json(grid), box
    return solution_text(grid), box


def solution_text(grid: Grid) -> str:
    """The cells of a grid in canonical text (its constraints, if any, left out):
    how answers are stored."""
    symbols = default_symbols(grid.size)
    if symbols:
        return "".join(symbols[v - 1] if v else "." for v in grid.cells)
    return " ".join(map(str, grid.cells))


def grid_of(text: str, box: str = "") -> Grid:
    """The grid `puzzle_text` wrote (the inverse of `puzzle_text`)."""
    if text.startswith("{"):
        from solvers.variants.canonical import from_json

        return from_json(text)
    if box:
        rows, _, cols = box.partition("x")
        shape = (int(rows), int(cols))
    else:
        n = math.isqrt(len(text)) if " " not in text else math.isqrt(len(text.split()))
        shape = box_shape_for(n)
    n = shape[0] * shape[1]
    symbols = default_symbols(n)
    if symbols and " " not in text:
        index = {c: i for i, c in enumerate(symbols, 1)}
        index["."] = 0
        try:
            return Grid(shape[0], shape[1], tuple(index[c] for c in text))
        except (KeyError, ValueError):
            pass  # not canonical text: let the parser say what is wrong
    return Grid.parse(text, box=shape)
