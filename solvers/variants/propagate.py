"""Candidate propagation for puzzles with constraints: one mechanism every search shares.

`compile_model` reads a puzzle once into a `Model`: its houses (the groups
with N cells, each holding every digit once), each cell's peers (every cell
that must hold another digit: the houses, the shorter all-different groups,
the anti-knight and anti-king pairs), the starting candidates (parity narrows
them) and one *propagator* per constraint that relates digits: a propagator
looks at the candidates of its cells and removes the digits that no way of
satisfying its constraint (given those candidates) uses.  `settle` runs the
peers and the propagators to a fixpoint.

Candidates are bitmasks (bit k: digit k+1); a cell with one bit is decided.
Three propagators cover every relational kind:

- `Pair`: a relation between two cells, as the digits of one allowed beside
  each digit of the other (non-consecutive, Kropki dots and their negative
  rule, XV and its negative, greater-than, each step of a thermometer);
  arc consistency, so a thermometer gets bounds propagation along its chain;
- `Sum`: a weighted sum equal to a total, by bounds (little killers, arrows
  with the circle's cells weighted as decimal digits); with ``distinct``, the
  digit sets that make the total (killer cages), a set kept only when every
  cell can take one of its digits and its digits fit the cells;
- `SandwichLine`: every placement of the 1 and the N on the line whose cells
  between them can make the total.

Every propagator is exact on decided cells (it rejects any full assignment its
constraint forbids) and sound (it never removes a digit some solution uses),
so a search that settles after each guess finds exactly the puzzle's
solutions; the searches still check each one with `solvers.verify.check`.
The digit relations are written here, independently of the verifier's rules
(`solvers.variants.rules`); the tests check them against those rules.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from typing import Protocol

from solvers.grid import Grid
from solvers.variants.constraints import (
    XV,
    AntiKing,
    AntiKnight,
    Arrow,
    Constraint,
    GreaterThan,
    Killer,
    Kropki,
    KropkiNegative,
    LittleKiller,
    NonConsecutive,
    Parity,
    Sandwich,
    Thermometer,
    XVNegative,
)
from solvers.variants.puzzle import distinct_groups, houses

Cells = tuple[int, ...]
Relation = Callable[[int, int], bool]

SUPPORTED = frozenset(
    {
        "jigsaw",
        "extra-region",
        "disjoint-groups",
        "diagonal",
        "anti-knight",
        "anti-king",
        "non-consecutive",
        "killer",
        "little-killer",
        "thermometer",
        "arrow",
        "kropki",
        "kropki-negative",
        "xv",
        "xv-negative",
        "parity",
        "greater-than",
        "sandwich",
    }
)
"""The constraint kinds `compile_model` reads: every kind."""


class Propagator(Protocol):
    """Removes candidates of its cells that its constraint rules out."""

    cells: Cells

    def prune(self, cand: list[int]) -> list[int] | None:
        """Narrow `cand` in place; the cells changed, or None when a cell has no digit left."""


def span(low: int, high: int, n: int) -> int:
    """The mask of digits low..high (clipped to 1..n; 0 when empty)."""
    low, high = max(low, 1), min(high, n)
    if low > high:
        return 0
    return ((1 << high) - 1) & ~((1 << (low - 1)) - 1)


def _narrow(cand: list[int], cells: Iterable[int], allowed: Iterable[int]) -> list[int] | None:
    """Apply allowed masks to cells: the changed cells, or None on a wipe-out."""
    changed = []
    for cell, keep in zip(cells, allowed, strict=True):
        m = cand[cell]
        new = m & keep
        if new != m:
            if not new:
                return None
            cand[cell] = new
            changed.append(cell)
    return changed


# -- pairs ------------------------------------------------------------------------
@cache
def _support(relation: Relation, n: int) -> tuple[int, ...]:
    """support[x-1]: the digits y with relation(x, y)."""
    return tuple(
        sum(1 << (y - 1) for y in range(1, n + 1) if relation(x, y)) for x in range(1, n + 1)
    )


@cache
def _images(support: tuple[int, ...]) -> Callable[[int], int]:
    """mask -> the union of support over the mask's digits, as a table lookup when small."""
    n = len(support)
    if n <= 12:
        table = [0] * (1 << n)
        for m in range(1, 1 << n):
            low = m & -m
            table[m] = table[m ^ low] | support[low.bit_length() - 1]
        return table.__getitem__

    def image(m: int) -> int:
        found = 0
        while m:
            low = m & -m
            m ^= low
            found |= support[low.bit_length() - 1]
        return found

    return image


class Pair:
    """A relation between cells `a` and `b`: arc consistency both ways."""

    __slots__ = ("a", "b", "backward", "cells", "forward")
    cells: Cells

    def __init__(self, a: int, b: int, relation: Relation, n: int) -> None:
        self.a, self.b, self.cells = a, b, (a, b)
        self.forward = _images(_support(relation, n))
        self.backward = _images(_support(_flipped(relation), n))

    def prune(self, cand: list[int]) -> list[int] | None:
        a, b = self.a, self.b
        ma, mb = cand[a], cand[b]
        nb = mb & self.forward(ma)
        na = ma & self.backward(nb)
        if not (na and nb):
            return None
        changed = []
        if na != ma:
            cand[a] = na
            changed.append(a)
        if nb != mb:
            cand[b] = nb
            changed.append(b)
        return changed


@cache
def _flipped(relation: Relation) -> Relation:
    return lambda x, y: relation(y, x)


def _differ_by(k: int) -> Relation:
    return _relation(f"differ by {k}", lambda x, y: abs(x - y) == k)


def _ratio(k: int) -> Relation:
    return _relation(f"ratio {k}", lambda x, y: x == k * y or y == k * x)


def _sum_is(total: int) -> Relation:
    return _relation(f"sum {total}", lambda x, y: x + y == total)


_RELATIONS: dict[str, Relation] = {}


def _relation(key: str, test: Relation) -> Relation:
    """One function object per relation, so the tables built from it are cached once."""
    return _RELATIONS.setdefault(key, test)


def _not(relation: Relation, key: str) -> Relation:
    return _relation(f"not {key}", lambda x, y: not relation(x, y))


LESS = _relation("less", lambda x, y: x < y)
GREATER = _relation("greater", lambda x, y: x > y)


def _unmarked(grid: Grid, marked_kind: type[Constraint]) -> list[tuple[int, int]]:
    """Orthogonal neighbours with no constraint of `marked_kind` between them."""
    marked = {c.cells for c in grid.constraints if isinstance(c, marked_kind)}  # type: ignore[attr-defined]
    found = []
    for pair in NonConsecutive().ties(grid.shape):
        a, b = sorted(pair)
        if (a, b) not in marked:
            found.append((a, b))
    return sorted(found)


def pair_relations(constraint: Constraint, grid: Grid) -> list[tuple[int, int, Relation]]:
    """The (a, b, relation) pairs a constraint of a pairwise kind imposes (none otherwise)."""
    if isinstance(constraint, NonConsecutive):
        rel = _not(_differ_by(1), "differ by 1")
        return [(*sorted(p), rel) for p in sorted(constraint.ties(grid.shape), key=sorted)]  # type: ignore[misc]
    if isinstance(constraint, Kropki):
        value = constraint.value or 0
        rel = _differ_by(value) if constraint.colour == "white" else _ratio(value)
        return [(constraint.cells[0], constraint.cells[1], rel)]
    if isinstance(constraint, KropkiNegative):
        if constraint.colour == "white":
            rel = _not(_differ_by(1), "differ by 1")
        else:
            rel = _not(_ratio(2), "ratio 2")
        return [(a, b, rel) for a, b in _unmarked(grid, Kropki)]
    if isinstance(constraint, XV):
        return [(constraint.cells[0], constraint.cells[1], _sum_is(constraint.total))]
    if isinstance(constraint, XVNegative):
        neither = _relation("sum neither 5 nor 10", lambda x, y: x + y not in (5, 10))
        return [(a, b, neither) for a, b in _unmarked(grid, XV)]
    if isinstance(constraint, GreaterThan):
        return [(constraint.cells[0], constraint.cells[1], GREATER)]
    if isinstance(constraint, Thermometer):
        cells = constraint.cells
        return [(a, b, LESS) for a, b in zip(cells, cells[1:], strict=False)]
    return []


# -- sums -------------------------------------------------------------------------
@cache
def digit_sets(n: int, k: int, total: int) -> tuple[int, ...]:
    """The masks of k distinct digits 1..n that sum to `total`."""
    return tuple(
        sum(1 << (d - 1) for d in combo)
        for combo in combinations(range(1, n + 1), k)
        if sum(combo) == total
    )


class Sum:
    """``sum(weights[i] * cells[i]) == total``, by bounds; with `distinct` (a killer
    cage) by the sets of distinct digits that make the total instead."""

    __slots__ = ("cells", "n", "sets", "total", "weights")

    def __init__(
        self, cells: Cells, weights: tuple[int, ...], total: int, n: int, *, distinct: bool
    ) -> None:
        self.cells, self.weights, self.total, self.n = cells, weights, total, n
        self.sets = digit_sets(n, len(cells), total) if distinct else None

    def prune(self, cand: list[int]) -> list[int] | None:
        masks = [cand[c] for c in self.cells]
        if self.sets is not None:
            return _narrow(cand, self.cells, [self._in_sets(masks)] * len(masks))
        return _narrow(cand, self.cells, self._bounds(masks))

    def _in_sets(self, masks: list[int]) -> int:
        """The digits of every set whose digits the cells can hold, each cell one of them."""
        union = 0
        for m in masks:
            union |= m
        allowed = 0
        for s in self.sets or ():
            if s & ~union:
                continue  # a digit of the set no cell can hold
            if all(m & s for m in masks):
                allowed |= s
        return allowed

    def _bounds(self, masks: list[int]) -> list[int]:
        """Per cell, the digits whose weighted value the other cells' range can complete."""
        n, total = self.n, self.total
        lows, highs = [], []
        for m, w in zip(masks, self.weights, strict=True):
            if not m:
                return [0] * len(masks)
            small, big = (m & -m).bit_length(), m.bit_length()
            lows.append(w * small if w > 0 else w * big)
            highs.append(w * big if w > 0 else w * small)
        low, high = sum(lows), sum(highs)
        allowed = []
        for w, lo, hi in zip(self.weights, lows, highs, strict=True):
            p, q = total - (high - hi), total - (low - lo)  # the range of w * digit
            if w < 0:
                w, p, q = -w, -q, -p
            allowed.append(span(-(-p // w), q // w, n))
        return allowed


class SandwichLine:
    """A row or column whose digits strictly between the 1 and the N sum to `total`."""

    __slots__ = ("cells", "middle", "n", "total")

    def __init__(self, cells: Cells, total: int, n: int) -> None:
        self.cells, self.total, self.n = cells, total, n
        self.middle = ((1 << n) - 1) & ~1 & ~(1 << (n - 1))

    def prune(self, cand: list[int]) -> list[int] | None:
        n, total, cells = self.n, self.total, self.cells
        one, top = 1, 1 << (n - 1)
        masks = [cand[c] for c in cells]
        inner = [m & self.middle for m in masks]
        lows = [(m & -m).bit_length() for m in inner]
        highs = [m.bit_length() for m in inner]
        bare = [i for i, m in enumerate(inner) if not m]  # cells that can hold only 1 or N
        if len(bare) > 2:
            return None
        support = [0] * n
        for i in range(n):
            for j in range(i + 1, n):
                ends = (masks[i] & one and masks[j] & top, masks[i] & top and masks[j] & one)
                if not any(ends) or any(b not in (i, j) for b in bare):
                    continue
                low, high = sum(lows[i + 1 : j]), sum(highs[i + 1 : j])
                if not low <= total <= high:
                    continue
                if ends[0]:
                    support[i] |= one
                    support[j] |= top
                if ends[1]:
                    support[i] |= top
                    support[j] |= one
                for c in range(i + 1, j):
                    support[c] |= inner[c] & span(
                        total - (high - highs[c]), total - (low - lows[c]), n
                    )
                for c in (*range(i), *range(j + 1, n)):
                    support[c] |= inner[c]
        return _narrow(cand, cells, support)


def _propagators(constraint: Constraint, grid: Grid) -> list[Propagator]:
    n = grid.size
    found: list[Propagator] = [Pair(a, b, rel, n) for a, b, rel in pair_relations(constraint, grid)]
    if isinstance(constraint, Killer) and constraint.total is not None:
        cells = constraint.cells
        found.append(Sum(cells, (1,) * len(cells), constraint.total, n, distinct=True))
    elif isinstance(constraint, LittleKiller):
        cells = constraint.cells
        found.append(Sum(cells, (1,) * len(cells), constraint.total, n, distinct=False))
    elif isinstance(constraint, Arrow):
        m = len(constraint.circle)
        weights = tuple(10 ** (m - 1 - i) for i in range(m)) + (-1,) * len(constraint.path)
        found.append(Sum(constraint.circle + constraint.path, weights, 0, n, distinct=False))
    elif isinstance(constraint, Sandwich):
        found.append(SandwichLine(constraint.cells, constraint.total, n))
    return found


# -- the model --------------------------------------------------------------------
@dataclass(frozen=True)
class Model:
    """A puzzle read for propagation (see the module docstring)."""

    size: int
    houses: tuple[Cells, ...]  # rows, columns, boxes or jigsaw regions, then other N-cell groups
    peers: tuple[Cells, ...]
    start: tuple[int, ...]  # each cell's candidates before any propagation
    propagators: tuple[Propagator, ...]
    watchers: tuple[tuple[int, ...], ...]  # per cell: the propagators (indices) over it


def compile_model(grid: Grid) -> Model:
    """The puzzle's houses, peers, starting candidates and propagators."""
    n, shape = grid.size, grid.shape
    full = (1 << n) - 1
    unknown = {c.kind for c in grid.constraints} - SUPPORTED
    if unknown:
        raise ValueError(f"no propagation for {', '.join(sorted(unknown))} constraints")
    groups = list(houses(grid)) + [cells for _, cells in distinct_groups(grid)]
    for constraint in grid.constraints:
        if isinstance(constraint, AntiKnight | AntiKing):
            groups += [tuple(sorted(p)) for p in sorted(constraint.ties(shape), key=sorted)]
    related: list[set[int]] = [set() for _ in range(shape.ncells)]
    for group in groups:
        for cell in group:
            related[cell].update(group)
    peers = tuple(tuple(sorted(r - {cell})) for cell, r in enumerate(related))
    seen: set[frozenset[int]] = set()
    full_houses = []
    for group in groups:
        if len(group) == n and frozenset(group) not in seen:
            seen.add(frozenset(group))
            full_houses.append(group)
    start = [full] * shape.ncells
    for constraint in grid.constraints:
        if isinstance(constraint, Parity):
            start[constraint.cell] &= parity_mask(constraint.parity, n)
    for cell, digit in enumerate(grid.cells):
        if digit:
            start[cell] &= 1 << (digit - 1)
    propagators = [p for c in grid.constraints for p in _propagators(c, grid)]
    watchers: list[list[int]] = [[] for _ in range(shape.ncells)]
    for i, p in enumerate(propagators):
        for cell in p.cells:
            watchers[cell].append(i)
    return Model(
        n,
        tuple(full_houses),
        peers,
        tuple(start),
        tuple(propagators),
        tuple(map(tuple, watchers)),
    )


def parity_mask(parity: str, n: int) -> int:
    """The odd or the even digits 1..n."""
    return sum(1 << (d - 1) for d in range(1, n + 1) if (d % 2 == 1) == (parity == "odd"))


def settle(model: Model, cand: list[int], changed: Iterable[int], *, hidden: bool = False) -> bool:
    """Propagate from the `changed` cells to a fixpoint: a decided cell's digit leaves
    its peers, and every propagator over a changed cell runs again.  With `hidden`, a
    digit with one place left in a house is placed there.  False on a contradiction."""
    peers, watchers, propagators = model.peers, model.watchers, model.propagators
    queue = list(changed)
    flagged = bytearray(len(propagators))
    pending: list[int] = []
    while True:
        while queue:
            cell = queue.pop()
            m = cand[cell]
            if not m & (m - 1):
                for p in peers[cell]:
                    other = cand[p]
                    if other & m:
                        other ^= m
                        if not other:
                            return False
                        cand[p] = other
                        queue.append(p)
            for i in watchers[cell]:
                if not flagged[i]:
                    flagged[i] = 1
                    pending.append(i)
        if pending:
            i = pending.pop()
            flagged[i] = 0
            narrowed = propagators[i].prune(cand)
            if narrowed is None:
                return False
            queue.extend(narrowed)
        elif hidden:
            found = hidden_singles(model, cand)
            if found is None:
                return False
            if not found:
                return True
            queue.extend(found)
        else:
            return True


def hidden_singles(model: Model, cand: list[int]) -> list[int] | None:
    """Place every digit that has one cell left in a house: the cells placed, or None
    when a house has a digit with no cell left."""
    full = (1 << model.size) - 1
    placed = []
    for house in model.houses:
        once = twice = 0
        for cell in house:
            m = cand[cell]
            twice |= once & m
            once |= m
        if once != full:
            return None
        single = once & ~twice
        while single:
            bit = single & -single
            single ^= bit
            for cell in house:
                if cand[cell] & bit:
                    if cand[cell] != bit:
                        cand[cell] = bit
                        placed.append(cell)
                    break
    return placed
