"""The engine's cross-step memo: answers a solve keeps from one step to the next.

Some searches ask the same question at many states of one solve: which almost locked
sets a unit's candidates make, which cells nishio refutes for a digit's places, where
the last dynamic forcing-chain pass ended.  Each answer depends on its question (the
key) alone, so it can be kept as long as the questions keep coming: one `EngineMemo`
per puzzle lineage.  `CandidateState` makes one with every new state and shares it
with the state's copies (the branches of the searches built on the engine, the
rating's replays), so nothing outlives the solve and two puzzles never share answers.

Each kind of answer has its table, `table(kind, shape, entry_bytes)`; the grid's shape
is part of the table's key, so a 2x3 grid never reads a 3x2 grid's answers.  One
budget bounds the whole memo: every table says roughly how many bytes an entry takes,
and `trim`, which the engine calls before each step, empties the largest tables while
their estimated total passes the budget (the answers are found again when asked for).

The module-level caches left in the engine are pure ones: `functools.cache` on
functions of an immutable shape (or technique configuration) returning immutable
tables; they cannot go stale and grow only with the shapes a process meets.

>>> from solvers.grid import shape
>>> memo = EngineMemo(budget=1000)
>>> wide, tall = shape(2, 3), shape(3, 2)
>>> memo.table("answers", wide, 100)[7] = "wide"
>>> memo.table("answers", tall, 100).get(7) is None
True
>>> memo.size()
100
"""

from __future__ import annotations

from typing import Any

from solvers.grid import Shape

BUDGET = 64 << 20
"""Bytes (estimated) the memo of one solve may hold before `trim` empties it."""


class EngineMemo:
    """Tables of answers kept across the steps of one solve, under one byte budget."""

    __slots__ = ("budget", "evictions", "_tables", "_entry_bytes")

    def __init__(self, budget: int = BUDGET) -> None:
        if budget < 0:
            raise ValueError(f"budget must be 0 or more bytes, not {budget}")
        self.budget = budget
        self.evictions = 0  # how many tables `trim` has emptied
        self._tables: dict[tuple[str, Shape], dict[Any, Any]] = {}
        self._entry_bytes: dict[tuple[str, Shape], int] = {}

    def table(self, kind: str, shape: Shape, entry_bytes: int) -> dict[Any, Any]:
        """The table of `kind` for grids of `shape` (made empty on first use): a dict to
        read and fill, whose entries take about `entry_bytes` each.  Fetch it for each
        search rather than keeping it: `trim` may empty it between steps."""
        key = (kind, shape)
        found = self._tables.get(key)
        if found is None:
            found = self._tables[key] = {}
            self._entry_bytes[key] = entry_bytes
        return found

    def size(self) -> int:
        """The estimated bytes the tables hold."""
        return sum(len(t) * self._entry_bytes[key] for key, t in self._tables.items())

    def trim(self) -> int:
        """While the estimated size passes the budget, empty the largest table; returns
        how many tables it emptied."""
        total = self.size()
        if total <= self.budget:
            return 0
        sizes = sorted(
            ((len(t) * self._entry_bytes[key], key) for key, t in self._tables.items()),
            key=lambda item: item[0],
        )
        emptied = 0
        while total > self.budget:
            size, key = sizes.pop()
            self._tables[key].clear()
            total -= size
            emptied += 1
        self.evictions += emptied
        return emptied

    def __repr__(self) -> str:
        return f"<EngineMemo {len(self._tables)} tables, ~{self.size()} of {self.budget} bytes>"
