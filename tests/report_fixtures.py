"""Synthetic results several report test modules use (tests import this, never each other)."""

from __future__ import annotations

import itertools

from harness.records import ResultRecord, RunInfo

NAMES = [f"s{i:02d}" for i in range(14)]


def records(solvers: list[str], corpora: tuple[str, ...] = ("c1", "c2")) -> list[ResultRecord]:
    """Every solver solves 12 puzzles per corpus; s00 fastest, then s01 ..., with a crossing."""
    out = []
    for corpus, (k, solver) in itertools.product(corpora, enumerate(solvers)):
        for p in range(12):
            wall = 0.001 * (1 + k) * (1 + p % 4) * (0.5 if (p + k) % 5 == 0 else 1.0)
            if corpus == "c2" and solver == solvers[1]:
                wall /= 10  # the second solver wins the second corpus
            out.append(
                ResultRecord(1, solver, corpus, f"{corpus}:{p}", "", 0, "SOLVED",
                             wall=wall, cpu=wall, verdict="CORRECT", time_limit=1.0)
            )  # fmt: skip
    return out


RUN = RunInfo(
    1,
    "2026-01-01T00:00:00+00:00",
    "2026-01-01T00:01:00+00:00",
    "sudoku-bench run --corpus c1 --corpus c2",
    settings={
        "timeout": 1.0,
        "corpora": ["/usr/lib/python3/site-packages/corpora/data/c1.txt"],
        "execution": {"executor": "process", "jobs": 2, "scheduler": None, "batch": None},
        "workers": 2,
    },
    git_commit="abc123",
    versions={"python": "3.11.7", "ortools": "9.15"},
    machine={
        "cpu": "Test CPU",
        "cores": 2,
        "usable_cores": 2,
        "memory_mb": 4096,
        "system": "Linux 6.1",
        "python_executable": "/opt/venv/bin/python",
        "load_start": [0.5, 0.25, 0.125],
        "load_end": [1.5, 1.25, 1.0],
    },
)
