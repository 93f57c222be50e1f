"""Killer logic: cage combinations and the rule of 45 (innies and outies).

*Cage combinations*: a cage of k cells summing to s holds one of the sets of
k different digits that sum to s; a set counts only when its digits can be
given to the cells from their candidates (a perfect matching).  A candidate
that no such assignment uses leaves its cell, and a digit every remaining set
holds must be in the cage, so it leaves every cell outside the cage that sees
all the cage's cells that may take it.

*Rule of 45*: a union of k houses holds each digit k times, so its cells sum
to ``k * N(N+1)/2`` (45 per 9x9 house).  Take off the cages lying wholly
inside it and the cells left (the *innies*) have a known sum; or add the
cages that stick out of it and the cells outside (the *outies*) have one.  A
few innies or outies (four at most) with a known sum restrict their
candidates to the digits some assignment of that sum uses (cells that see
each other taking different digits).  Unions tried: each row, column and box
(or jigsaw region), then two and three neighbouring rows or columns.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from solvers.human.state import digits
from solvers.human.step import Step
from solvers.human.variant.board import Board
from solvers.human.variant.state import VariantState

MAX_CELLS = 4  # innies or outies in one rule-of-45 step


@lru_cache(maxsize=1 << 16)  # bounded: a long run meets many cage states
def cage_options(masks: tuple[int, ...], total: int | None, n: int) -> tuple[tuple, tuple]:
    """For a cage whose cells take `masks` (a placed cell: its digit's bit): the digit sets
    (ascending tuples) some assignment can use, and per cell the digits such assignments
    give it, as a mask."""
    k = len(masks)
    allowed = 0
    for m in masks:
        allowed |= m
    sets = []
    possible = [0] * k
    for combo in combinations(digits(allowed), k):
        if total is not None and sum(combo) != total:
            continue
        bits = sum(1 << (d - 1) for d in combo)
        per_cell = [m & bits for m in masks]
        if not _matches(per_cell):
            continue
        sets.append(combo)
        for i in range(k):
            for d in digits(per_cell[i] & ~possible[i]):
                bit = 1 << (d - 1)
                rest = [m & ~bit for j, m in enumerate(per_cell) if j != i]
                if _matches(rest):
                    possible[i] |= bit
    return tuple(sets), tuple(possible)


def _matches(masks: list[int]) -> bool:
    """Whether the cells can take different digits from `masks` (a perfect matching)."""
    owner: dict[int, int] = {}

    def augment(i: int, seen: set[int]) -> bool:
        for d in digits(masks[i]):
            if d in seen:
                continue
            seen.add(d)
            if d not in owner or augment(owner[d], seen):
                owner[d] = i
                return True
        return False

    return all(augment(i, set()) for i in range(len(masks)))


def masks(state: VariantState, cells) -> tuple[int, ...]:
    values, cand = state.values, state.cand
    return tuple((1 << (values[c] - 1)) if values[c] else cand[c] for c in cells)


def broken_cage(state: VariantState) -> str | None:
    """Why a cage can no longer be filled (None when every cage can)."""
    for cage in state.board.cages:
        sets, _ = cage_options(masks(state, cage.cells), cage.total, state.n)
        if not sets:
            return f"no digits left for {cage.name}"
    return None


def _seen_by_all(state: VariantState, cells: list[int], bit: int) -> list[int]:
    peers = state.board.peers
    common = set(peers[cells[0]])
    for c in cells[1:]:
        common &= peers[c]
    return sorted(x for x in common if state.cand[x] & bit)


def cage_combinations(state: VariantState) -> Step | None:
    board, cand = state.board, state.cand
    for cage in board.cages:
        sets, possible = cage_options(masks(state, cage.cells), cage.total, state.n)
        if not sets:
            continue
        elims = [
            (c, d) for c, p in zip(cage.cells, possible, strict=True) for d in digits(cand[c] & ~p)
        ]
        must = digits(state.full_mask & _common(sets))
        for d in must:
            bit = 1 << (d - 1)
            where = [
                c
                for c, p in zip(cage.cells, possible, strict=True)
                if p & bit and not state.values[c]
            ]
            if where:
                elims += [(x, d) for x in _seen_by_all(state, where, bit) if (x, d) not in elims]
        if elims:
            return Step(
                "cage_combinations",
                (),
                tuple(sorted(elims)),
                cage.cells,
                (board.groups.index(cage.cells),),
                tuple(must),
                2.4,
                state.shape,
                detail=(cage.total, sets),
            )
    return None


def _common(sets) -> int:
    m = -1
    for combo in sets:
        m &= sum(1 << (d - 1) for d in combo)
    return m


# -- the rule of 45 --------------------------------------------------------------
@lru_cache(maxsize=1 << 16)  # bounded: a long run meets many cage states
def _sum_options(masks: tuple[int, ...], apart: frozenset[tuple[int, int]], total: int) -> tuple:
    """Per cell, the digits some assignment summing to `total` gives it; cells `apart`
    (index pairs) take different digits."""
    k = len(masks)
    possible = [0] * k
    chosen = [0] * k

    def walk(i: int, left: int) -> None:
        if i == k:
            if left == 0:
                for j in range(k):
                    possible[j] |= 1 << (chosen[j] - 1)
            return
        for d in digits(masks[i]):
            if d > left or any(chosen[j] == d for j in range(i) if (j, i) in apart):
                continue
            chosen[i] = d
            walk(i + 1, left - d)

    walk(0, total)
    return tuple(possible)


def unions(board: Board) -> list[tuple[int, ...]]:
    """The unions of houses the rule of 45 tries, in order: every row, column and box or
    region alone, then neighbouring rows or columns by two and by three."""
    n = board.size
    found: list[tuple[int, ...]] = [(u,) for u in range(3 * n)]
    for width in (2, 3):
        for first in (0, n):
            found += [tuple(range(first + i, first + i + width)) for i in range(n - width + 1)]
    return found


def _restrict(state: VariantState, cells: list[int], total: int) -> list[tuple[int, int]]:
    """The eliminations from `cells` when their digits sum to `total`."""
    peers = state.board.peers
    apart = frozenset(
        (i, j) for i, j in combinations(range(len(cells)), 2) if cells[j] in peers[cells[i]]
    )
    possible = _sum_options(masks(state, cells), apart, total)
    return [
        (c, d) for c, p in zip(cells, possible, strict=True) for d in digits(state.cand[c] & ~p)
    ]


def rule_of_45(state: VariantState) -> Step | None:
    board = state.board
    n = state.n
    house_sum = n * (n + 1) // 2
    cage_of = {c: cage for cage in board.cages for c in cage.cells}
    if len(cage_of) < sum(len(cage.cells) for cage in board.cages):
        return None  # overlapping cages: a cell's sum would count twice
    for union in unions(board):
        cells = {c for u in union for c in board.houses[u]}
        total = house_sum * len(union)
        meeting = {cage_of[c] for c in cells if c in cage_of}
        inside = [cage for cage in meeting if set(cage.cells) <= cells]
        if any(cage.total is None for cage in inside):
            continue
        covered = {c for cage in inside for c in cage.cells}
        innies = sorted(cells - covered)
        known = sum(cage.total or 0 for cage in inside)
        found = []
        if 0 < len(innies) <= MAX_CELLS:
            found.append(("innies", innies, total - known))
        if all(c in cage_of for c in cells) and all(cage.total is not None for cage in meeting):
            outies = sorted({c for cage in meeting for c in cage.cells} - cells)
            if 0 < len(outies) <= MAX_CELLS:
                found.append(("outies", outies, sum(cage.total or 0 for cage in meeting) - total))
        for side, group, value in found:
            elims = _restrict(state, group, value)
            if elims:
                return Step(
                    "rule_of_45",
                    (),
                    tuple(sorted(elims)),
                    tuple(group),
                    union,
                    (),
                    round(2.9 + 0.1 * len(union), 1),
                    state.shape,
                    detail=(side, value),
                )
    return None
