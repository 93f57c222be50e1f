"""Random complete grids: the solution a generated puzzle is carved from.

A randomised depth-first fill of the empty grid: the cell with the fewest
candidates first (ties broken at random), its candidates tried in a random
order, with bitmask candidates updated on every placement.  Only the
`random.Random` passed in decides anything, so a seed gives the same grid on
every machine and Python version.  A fill that wanders into a long dead end
restarts after a node budget (rare below 25x25), which keeps the worst case
short without biasing the common case.

>>> import random
>>> grid = random_solution(3, 3, random.Random(7))
>>> grid.is_complete, grid.size
(True, 9)
"""

from __future__ import annotations

import random

from solvers.grid import Grid, shape


class FillFailed(RuntimeError):
    """No complete grid within the restarts allowed (should not happen)."""


def random_solution(
    box_rows: int, box_cols: int, rng: random.Random, *, restarts: int = 500
) -> Grid:
    """A random complete grid of the box shape, decided by `rng` alone."""
    sh = shape(box_rows, box_cols)
    n = sh.size
    budget = 2 * n * n  # nodes per attempt before a restart
    for _ in range(restarts):
        cells = _fill(n, sh.peers, rng, budget)
        if cells is not None:
            return Grid(box_rows, box_cols, tuple(cells))
    raise FillFailed(f"no {n}x{n} grid after {restarts} restarts")


def _fill(
    n: int, peers: tuple[tuple[int, ...], ...], rng: random.Random, budget: int
) -> list[int] | None:
    full = (1 << n) - 1
    ncells = n * n
    candidates = [full] * ncells
    cells = [0] * ncells
    empty = set(range(ncells))
    # Each frame: (cell, digits still to try, candidates saved before the try).
    stack: list[tuple[int, list[int], list[int]]] = []
    nodes = 0
    while empty:
        cell = _fewest(candidates, empty, rng)
        bits = candidates[cell]
        digits = [d for d in range(1, n + 1) if bits >> (d - 1) & 1]
        rng.shuffle(digits)
        stack.append((cell, digits, candidates[:]))
        empty.discard(cell)
        while True:  # place the next digit of the top frame, backtracking as needed
            if not stack:
                return None
            cell, digits, saved = stack[-1]
            if not digits:
                stack.pop()
                cells[cell] = 0
                empty.add(cell)
                continue
            nodes += 1
            if nodes > budget:
                return None
            candidates[:] = saved
            digit = digits.pop()
            if _place(candidates, peers[cell], cell, digit, cells, empty):
                cells[cell] = digit
                break
    return cells


def _fewest(candidates: list[int], empty: set[int], rng: random.Random) -> int:
    """The empty cell with the fewest candidates; ties broken by `rng`."""
    best: list[int] = []
    fewest = 1 << 30
    for cell in sorted(empty):  # sorted: set order must not decide anything
        count = candidates[cell].bit_count()
        if count < fewest:
            fewest, best = count, [cell]
            if count <= 1:
                break
        elif count == fewest:
            best.append(cell)
    return best[0] if len(best) == 1 else rng.choice(best)


def _place(
    candidates: list[int],
    peers: tuple[int, ...],
    cell: int,
    digit: int,
    cells: list[int],
    empty: set[int],
) -> bool:
    """Remove `digit` from the empty peers; False when one is left with none."""
    bit = 1 << (digit - 1)
    candidates[cell] = bit
    for p in peers:
        if p in empty and candidates[p] & bit:
            candidates[p] &= ~bit
            if not candidates[p]:
                return False
    return True
