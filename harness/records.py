"""The shared vocabulary of a study: what a run and a result are.

The runner produces `ResultRecord`s, the store keeps them, the cross-check
gives them verdicts and the reports read them; this module is the one place
that defines their fields.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

VERDICTS = ("CORRECT", "WRONG", "UNKNOWN")


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
    status: str  # a solvers.Status value
    solution: str | None = None  # first solution, line format
    solutions_found: int = 0
    exhausted: bool = False
    wall: float | None = None  # seconds of the solve call alone
    cpu: float | None = None
    stats: dict[str, Any] = field(default_factory=dict)
    error: str = ""
    verdict: str | None = None  # one of VERDICTS once cross-checked
    time_limit: float | None = None  # the limit in force, for PAR-2
