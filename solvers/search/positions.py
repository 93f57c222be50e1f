"""`positions`: branch on the (unit, digit) with the fewest legal positions.

The method of the write-up ``003_7a84474f5498d329.txt`` ("Sudoku Spoiler"):
look at every row, column and box and at every digit it still misses; count
the empty cells of that unit where the digit is legal (no peer holds it).
Keep the (unit, digit) with the fewest positions, scanning rows, then
columns, then boxes, and digits upwards, so the first one found wins ties.
One position: place the digit there.  No position: a dead end, so go back
to the last junction.  Otherwise try each position in turn.  After every
placement the method starts over, and the peer and unit index tables are
computed once per box shape.

How it is made fast in Python without changing what it chooses: the
position counts are not recounted at every step but kept up to date as
digits are placed (a placement lowers the counts of the unit digits it makes
illegal).  They live in a ``bytearray`` in scan order, so the first
(unit, digit) with the fewest positions is ``find(0)``, then ``find(1)``, ...
at C speed; filled unit digits are marked 255.  On backtrack the counts and
candidates saved at the junction are restored; placements of a single
position save nothing.  The search is iterative.

Like the source, it looks only at positions: a cell that no digit can take
is noticed later, when some digit of its units runs out of positions.

Counters: ``nodes`` (placements; ``budget`` caps them), ``forced_placements``
(digits with one position), ``branches`` (positions tried at junctions, also
``guesses``), ``dead_ends`` (a unit digit with no position), ``backtracks``
(tried positions taken back) and ``max_depth`` (deepest nesting of junctions).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from solvers.base import (
    Limits,
    Solver,
    SolveResult,
    Status,
    UnsupportedPuzzle,
    counted_result,
)
from solvers.grid import Grid, Shape
from solvers.registry import register
from solvers.search import positions_variants
from solvers.variants.propagate import SUPPORTED

_FILLED = 255  # the count of a unit digit already placed (above any real count)


@cache
def _tables(grid_shape: Shape) -> tuple[Any, ...]:
    """Per cell: its peers and the offsets of its three units into the count list."""
    n = grid_shape.size
    bases = tuple(tuple(u * n for u in us) for us in grid_shape.cell_units)
    return grid_shape.peers, bases, grid_shape.units


def _search(
    puzzle: Grid, limit: int, limits: Limits
) -> tuple[list[tuple[int, ...]], bool, Status | None, dict[str, int]]:
    """Solutions found (as cell tuples), whether the space was exhausted, the stop, counters."""
    n = puzzle.size
    peers, bases, units = _tables(puzzle.shape)
    full = (1 << n) - 1

    used = [0] * (3 * n)  # digits placed in each unit
    for cell, digit in enumerate(puzzle.cells):
        if digit:
            for base in bases[cell]:
                used[base // n] |= 1 << (digit - 1)
    # cand[cell]: the digits legal in an empty cell (0 once filled).
    cand = [
        0 if digit else full & ~(used[a // n] | used[b // n] | used[c // n])
        for digit, (a, b, c) in zip(puzzle.cells, bases, strict=True)
    ]
    # count[u*n + k]: the legal positions of digit k+1 in unit u, or _FILLED.  A bytearray,
    # so that the first (unit, digit) with the fewest positions is found by `find`.
    count = bytearray(3 * n * n)
    for u in range(3 * n):
        for k in range(n):
            if used[u] >> k & 1:
                count[u * n + k] = _FILLED
    for cell, m in enumerate(cand):
        while m:
            low = m & -m
            m ^= low
            k = low.bit_length() - 1
            for base in bases[cell]:
                count[base + k] += 1

    def place(
        cell: int, bit: int, k: int, cand: list[int] = cand, count: bytearray = count
    ) -> None:
        """Fill `cell` with digit k+1: its unit digits are done; the digit leaves the peers."""
        rest = cand[cell] ^ bit
        cand[cell] = 0
        a, b, c = bases[cell]
        while rest:  # the cell is no longer a position for its other digits
            low = rest & -rest
            rest ^= low
            j = low.bit_length() - 1
            count[a + j] -= 1
            count[b + j] -= 1
            count[c + j] -= 1
        for p in peers[cell]:
            m = cand[p]
            if m & bit:
                cand[p] = m ^ bit
                x, y, z = bases[p]
                count[x + k] -= 1
                count[y + k] -= 1
                count[z + k] -= 1
        count[a + k] = count[b + k] = count[c + k] = _FILLED  # after the peers: never lowered

    placed: list[tuple[int, int]] = []  # (cell, digit) in the order placed
    stack: list[list[Any]] = []  # per junction: positions, next index, bit, saved state
    solutions: list[tuple[int, ...]] = []
    nodes = forced = branches = dead_ends = backtracks = max_depth = 0
    poll = limits.poll
    stopped: Status | None = None
    exhausted = False
    empty = puzzle.cells.count(0)
    find = count.find
    while True:
        spot = -1  # the cell to fill next, with digit k+1
        if len(placed) == empty:  # every cell filled: a solution
            cells = list(puzzle.cells)
            for cell, digit in placed:
                cells[cell] = digit
            solutions.append(tuple(cells))
            if len(solutions) >= limit:
                break
        elif find(0) < 0:
            fewest = 1
            while (i := find(fewest)) < 0:
                fewest += 1
            k = i % n
            bit = 1 << k
            spots = [c for c in units[i // n] if cand[c] & bit]
            spot = spots[0]
            if fewest == 1:  # one legal position: place the digit there
                forced += 1
            else:  # a junction: try the first position now, the others on backtrack
                stack.append([spots, 1, bit, cand[:], count[:], len(placed)])
                max_depth = max(max_depth, len(stack))
                branches += 1
        else:
            dead_ends += 1
        if spot < 0:  # back to the deepest junction with a position left
            while stack:
                frame = stack[-1]
                spots, index, bit, saved_cand, saved_count, mark = frame
                backtracks += 1  # the position tried last at this junction is taken back
                if index < len(spots):
                    frame[1] = index + 1
                    cand[:] = saved_cand
                    count[:] = saved_count
                    del placed[mark:]
                    branches += 1
                    spot = spots[index]
                    k = bit.bit_length() - 1
                    break
                stack.pop()
            else:
                exhausted = True
                break
        nodes += 1
        if stopped := poll(nodes):
            break
        placed.append((spot, k + 1))
        place(spot, 1 << k, k)
    stats = {
        "nodes": nodes,
        "guesses": branches,
        "backtracks": backtracks,
        "branches": branches,
        "forced_placements": forced,
        "dead_ends": dead_ends,
        "max_depth": max_depth,
    }
    return solutions, exhausted, stopped, stats


@register
class FewestPositions(Solver):
    name = "positions"
    family = "search"
    complete = True
    constraint_kinds = SUPPORTED
    summary = (
        "branch on the unit and missing digit with the fewest legal positions "
        "(one: place it; none: dead end), precomputed index tables"
    )
    source = (
        "the 'Sudoku Spoiler' applet write-up: count each missing digit's legal positions "
        "in every row, column and box, branch on the fewest"
    )

    def _solve(self, puzzle: Grid, limit: int, limits: Limits, trace: bool) -> SolveResult:
        if puzzle.size >= _FILLED:
            raise UnsupportedPuzzle(f"positions counts in bytes: sides up to {_FILLED - 1}")
        search = positions_variants.search if puzzle.constraints else _search
        found, exhausted, stopped, stats = search(puzzle, limit, limits)
        solutions = [puzzle.replace(cells) for cells in found]
        return counted_result(solutions, exhausted and len(solutions) < limit, stats, stopped)
