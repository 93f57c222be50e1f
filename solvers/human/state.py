"""The candidate state: which digits each cell may still take, kept up to date incrementally.

Candidates are bitmasks: digit ``d`` is bit ``1 << (d - 1)``.  A placed cell
has no candidates left (its digit is in `values`).  Placing a digit removes it
from the peers; eliminating a candidate updates three per-unit counters (how
many open cells of a unit still take a digit), so contradictions and singles
are noticed where they arise instead of by rescanning the grid:

- a cell with no candidate, a unit with no place for a missing digit, or a
  digit placed twice in a unit sets `contradiction` to a reason;
- a cell left with one candidate, a unit with one place for a digit and a unit
  with one open cell are queued for the single techniques to pick up.

>>> from solvers.grid import Grid
>>> s = CandidateState.from_grid(Grid.parse("1... 3..2 ...3 ..2."))
>>> digits(s.candidates(1)), s.contradiction
([2, 4], None)
>>> s.place(1, 2); digits(s.candidates(2))
[3, 4]
"""

from __future__ import annotations

from functools import cache

from solvers.grid import Grid, Shape, shape
from solvers.human.memo import EngineMemo


@cache
def cell_tables(grid_shape: Shape) -> tuple[tuple, tuple]:
    """Per cell: its three units as (unit, offset into ``count``, the cell's position
    bit within the unit), and its peers."""
    n = grid_shape.size
    at = [[0, 0, 0] for _ in range(grid_shape.ncells)]
    for u, cells in enumerate(grid_shape.units):
        for i, c in enumerate(cells):
            at[c][u // n] = 1 << i
    units = tuple(
        tuple((u, u * n, at[cell][u // n]) for u in us)
        for cell, us in enumerate(grid_shape.cell_units)
    )
    return units, grid_shape.peers


def digits(mask: int) -> list[int]:
    """The digits in a candidate bitmask, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length())
        mask ^= low
    return out


def mask_of(ds: list[int] | tuple[int, ...]) -> int:
    """The bitmask of some digits."""
    m = 0
    for d in ds:
        m |= 1 << (d - 1)
    return m


class CandidateState:
    """Mutable candidates of one grid; copy it before branching.

    Public API (stable; other solvers build on it): `from_grid`,
    `from_candidates`, `copy`, `place`, `eliminate`, `candidates`, `values`,
    `contradiction`, `solved`, `to_grid`.  The remaining attributes are the
    engine's bookkeeping: read them, but change the state only through
    `place` and `eliminate`.  ``memo``, the `EngineMemo` the techniques keep
    answers in from step to step, is made with the state and shared by its
    copies: one per puzzle lineage.
    """

    __slots__ = (
        "shape",
        "n",
        "full_mask",
        "values",
        "cand",
        "count",
        "pos",
        "placed",
        "free",
        "empty",
        "contradiction",
        "naked",
        "hidden_box",
        "hidden_line",
        "full",
        "changes",
        "_grid",
        "views",
        "views_at",
        "memo",
        "fruitless",
    )

    def __init__(self, grid_shape: Shape) -> None:
        """An empty grid of `grid_shape`: every cell takes every digit."""
        n = grid_shape.size
        self.shape = grid_shape
        self.n = n
        self.full_mask = (1 << n) - 1
        self.values = [0] * (n * n)
        self.cand = [self.full_mask] * (n * n)
        self.count = [n] * (3 * n * n)  # count[u*n + d-1]: open cells of unit u taking d
        self.pos = [self.full_mask] * (3 * n * n)  # pos[u*n + d-1]: their positions in u
        self.placed = [0] * (3 * n)  # digits placed in each unit
        self.free = [n] * (3 * n)  # open cells in each unit
        self.empty = n * n
        self.contradiction: str | None = None
        self.naked: set[int] = set()  # cells with one candidate
        self.hidden_box: set[int] = set()  # u*n + d-1 with one place in a box
        self.hidden_line: set[int] = set()  # ... in a row or column
        self.full: set[int] = set()  # units with one open cell
        self.changes = 0  # placements and eliminations applied
        self._grid: Grid | None = None
        self.views: dict = {}  # views derived from the state, valid while changes == views_at
        self.views_at = -1
        self.memo = EngineMemo()  # answers kept across steps, shared with the copies
        self.fruitless: dict = {}  # (technique, digit) -> the digit's cells when it found nothing

    # -- construction --------------------------------------------------
    @classmethod
    def from_grid(cls, grid: Grid) -> CandidateState:
        """The candidates of a puzzle; conflicting givens set `contradiction`."""
        state = cls(grid.shape)
        state._grid = grid
        state._fill(grid.cells)
        return state

    def _fill(self, cells: tuple[int, ...]) -> None:
        """Set up a fresh state from givens in one pass (faster than placing them one by one)."""
        n = self.n
        units, _ = cell_tables(self.shape)
        placed = self.placed
        free = self.free
        values = self.values
        for cell, digit in enumerate(cells):
            if digit:
                bit = 1 << (digit - 1)
                for u, _, _ in units[cell]:
                    if placed[u] & bit:
                        self._fail(f"{digit} twice in {self.shape.unit_name(u)}")
                    placed[u] |= bit
                    free[u] -= 1
                values[cell] = digit
        self.empty = sum(1 for v in values if not v)
        self.changes = n * n - self.empty
        full = self.full_mask
        cand = self.cand
        count = self.count = [0] * (3 * n * n)
        pos = self.pos = [0] * (3 * n * n)
        for cell, digit in enumerate(values):
            if digit:
                cand[cell] = 0
                continue
            (a, ba, ia), (b, bb, ib), (c, bc, ic) = units[cell]
            m = full & ~(placed[a] | placed[b] | placed[c])
            cand[cell] = m
            if not m & (m - 1):
                if m:
                    self.naked.add(cell)
                else:
                    self._fail(f"no candidate left in {self.shape.cell_name(cell)}")
            while m:
                low = m & -m
                m ^= low
                k = low.bit_length() - 1
                count[ba + k] += 1
                count[bb + k] += 1
                count[bc + k] += 1
                pos[ba + k] |= ia
                pos[bb + k] |= ib
                pos[bc + k] |= ic
        for u in range(3 * n):
            if free[u] == 1:
                self.full.add(u)
            missing = full & ~placed[u]
            base = u * n
            while missing:
                low = missing & -missing
                missing ^= low
                i = base + low.bit_length() - 1
                if count[i] <= 1:
                    self._queue(u, i, count[i], low)

    @classmethod
    def from_candidates(cls, text: str, box: tuple[int, int] | None = None) -> CandidateState:
        """A state from a pencil-mark grid: one whitespace-separated token per cell
        listing its candidates; a token with one digit is a placed cell.  Digits
        above 9 are written as letters (A = 10).  Placed digits are removed from
        their peers.

        >>> s = CandidateState.from_candidates("1 24 34 234  3 14 14 2  24 124 124 3  4 134 2 14")
        >>> s.values[:4], digits(s.candidates(1))
        ([1, 0, 0, 0], [2, 4])
        """
        tokens = text.split()
        n = round(len(tokens) ** 0.5)
        if n * n != len(tokens) or n < 4:
            raise ValueError(
                f"expected a square number of cell tokens (>= 16), found {len(tokens)}"
            )
        if box is None:
            from solvers.grid import box_shape_for

            box = box_shape_for(n)
        state = cls(shape(*box))
        alphabet = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"[:n]
        masks = []
        for i, tok in enumerate(tokens):
            try:
                masks.append(mask_of([alphabet.index(ch) + 1 for ch in tok.upper()]))
            except ValueError:
                raise ValueError(
                    f"cell {state.shape.cell_name(i)}: {tok!r} is not a set of digits 1..{n}"
                ) from None
        for cell, m in enumerate(masks):
            for d in digits(state.full_mask & ~m):
                state.eliminate(cell, d)
        for cell, m in enumerate(masks):
            if m and not m & (m - 1) and not state.values[cell]:
                state.place(cell, m.bit_length())
        return state

    def copy(self) -> CandidateState:
        """An independent copy, for branching."""
        other = CandidateState.__new__(CandidateState)
        other.shape = self.shape
        other.n = self.n
        other.full_mask = self.full_mask
        other.values = self.values[:]
        other.cand = self.cand[:]
        other.count = self.count[:]
        other.pos = self.pos[:]
        other.placed = self.placed[:]
        other.free = self.free[:]
        other.empty = self.empty
        other.contradiction = self.contradiction
        other.naked = set(self.naked)
        other.hidden_box = set(self.hidden_box)
        other.hidden_line = set(self.hidden_line)
        other.full = set(self.full)
        other.changes = self.changes
        other._grid = self._grid
        other.views = {}
        other.views_at = -1
        other.memo = self.memo
        other.fruitless = dict(self.fruitless)
        return other

    # -- queries -------------------------------------------------------
    def candidates(self, cell: int) -> int:
        """The candidate bitmask of a cell (0 once it is placed)."""
        return self.cand[cell]

    def givens(self) -> tuple[int, ...] | None:
        """The puzzle's given digits by cell (0 elsewhere) for a state made by `from_grid`;
        None for a pencil-mark grid, which does not say which placed cells were given."""
        return None if self._grid is None else self._grid.cells

    @property
    def solved(self) -> bool:
        """True when every cell is placed without a contradiction."""
        return self.empty == 0 and self.contradiction is None

    def to_grid(self) -> Grid:
        """The placed digits as a `Grid` (open cells empty)."""
        if self._grid is not None:
            return self._grid.replace(self.values)
        return Grid(self.shape.box_rows, self.shape.box_cols, tuple(self.values))

    def snapshot(self) -> tuple[int, ...]:
        """The candidate grid as one tuple: placed cells as ``-digit``, open cells as masks."""
        return tuple(-v if v else m for v, m in zip(self.values, self.cand, strict=True))

    def __repr__(self) -> str:
        return f"<CandidateState {self.n}x{self.n}, {self.empty} open" + (
            f", contradiction: {self.contradiction}>" if self.contradiction else ">"
        )

    # -- changes -------------------------------------------------------
    def _fail(self, reason: str) -> None:
        if self.contradiction is None:
            self.contradiction = reason

    def place(self, cell: int, digit: int) -> None:
        """Place `digit` in `cell` and remove it from the peers.

        Placing a digit the cell cannot take sets `contradiction` (and places
        nothing); placing the digit a cell already holds does nothing.
        """
        values = self.values
        if values[cell]:
            if values[cell] != digit:
                self._fail(
                    f"{self.shape.cell_name(cell)} holds {values[cell]}, cannot also hold {digit}"
                )
            return
        bit = 1 << (digit - 1)
        cand = self.cand
        m = cand[cell]
        if not m & bit:
            self._fail(f"{digit} is not a candidate of {self.shape.cell_name(cell)}")
            return
        count = self.count
        pos = self.pos
        placed = self.placed
        free = self.free
        values[cell] = digit
        cand[cell] = 0
        self.empty -= 1
        self.naked.discard(cell)
        units, peers = cell_tables(self.shape)
        k = digit - 1
        changes = 1
        for u, base, at in units[cell]:
            if placed[u] & bit:
                self._fail(f"{digit} twice in {self.shape.unit_name(u)}")
            placed[u] |= bit
            f = free[u] - 1
            free[u] = f
            if f == 1:
                self.full.add(u)
            count[base + k] -= 1
            pos[base + k] &= ~at
            rest = m ^ bit
            while rest:
                low = rest & -rest
                rest ^= low
                i = base + low.bit_length() - 1
                pos[i] &= ~at
                c = count[i] - 1
                count[i] = c
                if c <= 1 and not placed[u] & low:
                    self._queue(u, i, c, low)
        # Remove the digit from the peers (eliminate(), inlined: this is the hot loop).
        naked = self.naked
        for p in peers[cell]:
            pm = cand[p]
            if pm & bit:
                pm ^= bit
                cand[p] = pm
                changes += 1
                if not pm & (pm - 1):
                    if pm:
                        naked.add(p)
                    else:
                        self._fail(f"no candidate left in {self.shape.cell_name(p)}")
                for u, base, at in units[p]:
                    i = base + k
                    pos[i] &= ~at
                    c = count[i] - 1
                    count[i] = c
                    if c <= 1 and not placed[u] & bit:
                        self._queue(u, i, c, bit)
        self.changes += changes

    def _queue(self, u: int, i: int, c: int, low: int) -> None:
        """Note a unit whose digit has one place left (or none: a contradiction)."""
        if c == 1:
            (self.hidden_box if u >= 2 * self.n else self.hidden_line).add(i)
        else:
            self._fail(f"no place for {low.bit_length()} in {self.shape.unit_name(u)}")

    def eliminate(self, cell: int, digit: int) -> bool:
        """Remove a candidate; False when it was not there."""
        bit = 1 << (digit - 1)
        m = self.cand[cell]
        if not m & bit:
            return False
        m ^= bit
        self.cand[cell] = m
        self.changes += 1
        if not m & (m - 1):
            if m:
                self.naked.add(cell)
            else:
                self._fail(f"no candidate left in {self.shape.cell_name(cell)}")
        count = self.count
        placed = self.placed
        units, _ = cell_tables(self.shape)
        k = digit - 1
        pos = self.pos
        for u, base, at in units[cell]:
            i = base + k
            pos[i] &= ~at
            c = count[i] - 1
            count[i] = c
            if c <= 1 and not placed[u] & bit:
                self._queue(u, i, c, bit)
        return True

    # -- derived views used by techniques ------------------------------
    def derived(self, key: str, compute):
        """A view computed from the state, memoised until the state next changes."""
        if self.views_at != self.changes:
            self.views = {}
            self.views_at = self.changes
        value = self.views.get(key)
        if value is None:
            value = self.views[key] = compute(self)
        return value

    def unit_positions(self) -> list[int]:
        """For each unit u and digit d, at index ``u*n + d-1``: the positions (indices
        within the unit) of the open cells taking d, as a bitmask (kept up to date
        incrementally; read it, never change it)."""
        return self.pos

    def positions(self, unit: int, digit: int) -> list[int]:
        """The open cells of a unit that take `digit`."""
        bit = 1 << (digit - 1)
        cand = self.cand
        return [c for c in self.shape.units[unit] if cand[c] & bit]

    def open_cells(self, unit: int) -> list[int]:
        """The open cells of a unit."""
        values = self.values
        return [c for c in self.shape.units[unit] if not values[c]]
