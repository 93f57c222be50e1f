"""The candidates of a variant puzzle: bitmasks per cell, peers taken from the `Board`.

The classic `solvers.human.state.CandidateState` keeps per-unit counters for
exactly three units a cell; a variant cell lies in any number of houses and
has peers no house explains (a knight's move away, a cage), so this state
keeps only the candidates and rescans the houses when a technique asks:
variant puzzles are few and small, and classic puzzles never come here.

>>> from solvers.grid import Grid
>>> from solvers.variants import AntiKing
>>> s = VariantState.of(Grid.parse("..1" + "." * 78).with_constraints((AntiKing(),)))
>>> s.candidates(12) & 1, s.candidates(13) & 1  # r2c4 is a king's move from r1c3, r2c5 not
(0, 1)
"""

from __future__ import annotations

from solvers.grid import Grid
from solvers.human.memo import EngineMemo
from solvers.human.variant.board import Board


class VariantState:
    """Mutable candidates of one variant puzzle (as `CandidateState`: change it only
    through `place` and `eliminate`)."""

    def __init__(self, board: Board) -> None:
        n = board.size
        self.board = board
        self.shape = board.shape
        self.n = n
        self.full_mask = (1 << n) - 1
        self.values = [0] * (n * n)
        self.cand = list(board.start)
        # per digit d (index d-1): the open cells taking it, the cells holding it (bitmasks)
        self.where = [sum(1 << c for c, m in enumerate(self.cand) if m >> k & 1) for k in range(n)]
        self.holding = [0] * n
        self.empty = n * n
        self.changes = 0
        self.contradiction: str | None = None
        self.memo = EngineMemo()
        self._views: dict = {}  # derived views, valid while changes == _views_at
        self._views_at = -1

    @classmethod
    def of(cls, grid: Grid, board: Board | None = None) -> VariantState:
        """The candidates of a puzzle: its givens placed, their digits removed from the peers."""
        state = cls(board or Board.of(grid))
        for cell, digit in enumerate(grid.cells):
            if digit:
                state.place(cell, digit)
        for cell in range(grid.size**2):
            if not state.values[cell] and not state.cand[cell]:
                state.fail(f"no candidate left in {state.shape.cell_name(cell)}")
        return state

    # -- queries, as CandidateState's ----------------------------------
    def candidates(self, cell: int) -> int:
        return self.cand[cell]

    @property
    def solved(self) -> bool:
        return self.empty == 0 and self.contradiction is None

    def to_grid(self) -> Grid:
        return self.board.grid.replace(self.values)

    def snapshot(self) -> tuple[int, ...]:
        """Placed cells as ``-digit``, open cells as masks (as `CandidateState.snapshot`)."""
        return tuple(-v if v else m for v, m in zip(self.values, self.cand, strict=True))

    def copy(self) -> VariantState:
        other = VariantState.__new__(VariantState)
        other.__dict__.update(self.__dict__)
        other.values = self.values[:]
        other.cand = self.cand[:]
        other.where = self.where[:]
        other.holding = self.holding[:]
        other._views, other._views_at = {}, -1
        return other

    # -- changes -------------------------------------------------------
    def fail(self, reason: str) -> None:
        if self.contradiction is None:
            self.contradiction = reason

    def place(self, cell: int, digit: int) -> None:
        """Place `digit` in `cell` and remove it from the cell's peers."""
        name = self.shape.cell_name
        if self.values[cell]:
            if self.values[cell] != digit:
                self.fail(f"{name(cell)} holds {self.values[cell]}, cannot also hold {digit}")
            return
        bit = 1 << (digit - 1)
        if not self.cand[cell] & bit:
            self.fail(f"{digit} is not a candidate of {name(cell)}")
            return
        self.values[cell] = digit
        m, off = self.cand[cell], ~(1 << cell)
        where = self.where
        while m:
            low = m & -m
            m ^= low
            where[low.bit_length() - 1] &= off
        self.holding[digit - 1] |= 1 << cell
        self.cand[cell] = 0
        self.empty -= 1
        self.changes += 1
        for p in self.board.peers[cell]:
            if self.values[p] == digit:
                self.fail(f"{digit} twice: {name(p)} and {name(cell)}")
            self.eliminate(p, digit)

    def eliminate(self, cell: int, digit: int) -> bool:
        """Remove a candidate; False when it was not there."""
        bit = 1 << (digit - 1)
        m = self.cand[cell]
        if not m & bit:
            return False
        self.cand[cell] = m ^ bit
        self.where[digit - 1] &= ~(1 << cell)
        self.changes += 1
        if m == bit:
            self.fail(f"no candidate left in {self.shape.cell_name(cell)}")
        return True

    def derived(self, key: str, compute):
        """A view computed from the state, kept until the state next changes."""
        if self._views_at != self.changes:
            self._views, self._views_at = {}, self.changes
        if key not in self._views:
            self._views[key] = compute(self)
        return self._views[key]

    def digit_cells(self) -> tuple[list[int], list[int]]:
        """Per digit d (index d-1), the open cells taking it and the cells holding it, as
        bitmasks of cells (kept up to date by `place` and `eliminate`: read them only)."""
        return self.where, self.holding

    def check_houses(self) -> None:
        """Set `contradiction` when a house has no place left for a digit it lacks."""
        where, holding = self.where, self.holding
        for u, house in enumerate(self.board.house_bits):
            for k in range(self.n):
                if not house & (where[k] | holding[k]):
                    self.fail(f"no place for {k + 1} in {self.shape.unit_name(u)}")
                    return
