"""`mrv`: fill the single-candidate cells, then guess on the cell with the fewest candidates.

The method of the write-up ``002_bf106642cc0cdd1e.txt`` (a recursive solver
timed on 21,885 puzzles): (1) fill every cell that has one possible value;
(2) stop when the board is complete; (3) otherwise take the open cell with
the fewest remaining candidates and (4) try each of its candidates in turn,
going back to (1) after every placement.  The candidates of every cell are
cached and updated incrementally: a placement removes its digit from the
related cells only, and a cell left with one candidate is filled at once.

Choices the write-up leaves open, made here: candidates are bitmasks, and
their counts sit in a ``bytearray`` so that the first cell with the fewest
is found by ``find`` at C speed; ties go to the first cell in reading
order; candidates are tried from the lowest digit.  On backtrack the
changes made since the branch point are undone by restoring the cache saved
there (two list copies per branch, cheaper in Python than replaying a trail
of single eliminations); nothing is ever recomputed from scratch.  The
search is iterative, so any grid side works without deep recursion.

``singles=hidden`` is a variant the write-up does not have: it also places a
digit that has one place left in a row, column or box (hidden singles, the
second rule of Norvig's solver).  The default, ``singles=naked``, is the
method as described, and it guesses far more on puzzles that hidden singles
would open, such as 17-clue puzzles.

Counters: ``nodes`` and ``guesses`` (values tried at branch points; ``budget``
caps them), ``backtracks`` (guesses taken back), ``max_depth`` (deepest
nesting of guesses), ``singles`` (cells filled because they had one
candidate), ``hidden_singles`` (with ``singles=hidden``) and
``propagations`` (all forced placements).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from solvers.base import Limits, Param, Solver, SolveResult, Status, counted_result
from solvers.grid import Grid, Shape
from solvers.registry import register
from solvers.search import mrv_variants
from solvers.variants.propagate import SUPPORTED


@cache
def _tables(grid_shape: Shape) -> tuple[Any, ...]:
    """Peers, unit offsets per cell, and the digit of each single bit."""
    n = grid_shape.size
    digit_of = {1 << k: k + 1 for k in range(n)}
    bases = tuple(tuple(u * n for u in us) for us in grid_shape.cell_units)
    return grid_shape.peers, bases, digit_of


def _search(
    puzzle: Grid, limit: int, limits: Limits, hidden: bool
) -> tuple[list[tuple[int, ...]], bool, Status | None, dict[str, int]]:
    """Solutions found (as cell tuples), whether the space was exhausted, the stop, counters."""
    grid_shape = puzzle.shape
    n = grid_shape.size
    peers, bases, digit_of = _tables(grid_shape)
    units = grid_shape.units
    full = (1 << n) - 1

    # The candidate cache: a placed cell keeps its digit as a one-bit mask.
    used = [0] * (3 * n)
    for cell, digit in enumerate(puzzle.cells):
        if digit:
            for base in bases[cell]:
                used[base // n] |= 1 << (digit - 1)
    cand = [
        1 << (digit - 1) if digit else full & ~(used[a // n] | used[b // n] | used[c // n])
        for digit, (a, b, c) in zip(puzzle.cells, bases, strict=True)
    ]
    # size[cell]: how many candidates; a bytearray, so `find` gives the first cell with k.
    size = bytearray(m.bit_count() for m in cand)
    # count[u*n + k]: the cells of unit u that take digit k+1 (kept with singles=hidden only).
    count = [0] * (3 * n * n)
    forced = [0, 0]  # cells filled by propagation (guessed cells included), hidden singles

    def propagate(
        queue: list[int], cand: list[int] = cand, size: bytearray = size, peers: Any = peers
    ) -> bool:
        """Remove the digit of each queued one-candidate cell from its peers; queue new singles."""
        for c in queue:
            b = cand[c]
            for p in peers[c]:
                m = cand[p]
                if m & b:
                    m ^= b
                    if not m:
                        forced[0] += len(queue)
                        return False
                    cand[p] = m
                    size[p] -= 1
                    if not m & (m - 1):
                        queue.append(p)
        forced[0] += len(queue)
        return True

    def lose(cell: int, bits: int, hits: list[int]) -> bool:
        """Count candidates `bits` as gone from `cell`; note unit digits left with one place."""
        while bits:
            low = bits & -bits
            bits ^= low
            k = low.bit_length() - 1
            for base in bases[cell]:
                i = base + k
                left = count[i] - 1
                count[i] = left
                if left < 2:
                    if not left:
                        return False
                    hits.append(i)
        return True

    def propagate_hidden(queue: list[int], hits: list[int]) -> bool:
        """`propagate` keeping the unit counts, also filling digits with one place in a unit."""
        try:
            done = 0
            while True:
                while done < len(queue):
                    c = queue[done]
                    done += 1
                    b = cand[c]
                    for p in peers[c]:
                        m = cand[p]
                        if m & b:
                            m ^= b
                            if not m:
                                return False
                            cand[p] = m
                            size[p] -= 1
                            if not lose(p, b, hits):
                                return False
                            if not m & (m - 1):
                                queue.append(p)
                if not hits:
                    return True
                while hits:
                    i = hits.pop()
                    if not count[i]:
                        return False
                    bit = 1 << (i % n)
                    cell = next(c for c in units[i // n] if cand[c] & bit)
                    m = cand[cell]
                    if m != bit:  # a hidden single: the cell loses its other candidates
                        cand[cell] = bit
                        size[cell] = 1
                        if not lose(cell, m ^ bit, hits):
                            return False
                        forced[1] += 1
                        queue.append(cell)
        finally:
            forced[0] += len(queue)

    queue = [c for c, m in enumerate(cand) if not m & (m - 1) and not puzzle.cells[c]]
    if hidden:
        for cell, m in enumerate(cand):
            for base in bases[cell]:
                rest = m
                while rest:
                    low = rest & -rest
                    rest ^= low
                    count[base + low.bit_length() - 1] += 1
        hits = [i for i, left in enumerate(count) if left < 2]
        consistent = all(cand) and propagate_hidden(queue, hits)
    else:
        consistent = all(cand) and propagate(queue)
    stats = {"nodes": 0, "guesses": 0, "backtracks": 0, "max_depth": 0}
    solutions: list[tuple[int, ...]] = []
    if not consistent:
        return solutions, True, None, _counters(stats, forced, hidden)

    stack: list[list[Any]] = []  # per branch point: cell, candidates left, saved caches
    nodes = max_depth = 0
    poll = limits.poll
    stopped: Status | None = None
    exhausted = False
    find = size.find
    while True:
        fewest = 2
        while (cell := find(fewest)) < 0 and fewest < n:
            fewest += 1
        if cell < 0:  # every cell has one candidate: a solution
            solutions.append(tuple(map(digit_of.__getitem__, cand)))
            if len(solutions) >= limit:
                break
        else:
            stack.append([cell, cand[cell], cand[:], size[:], count[:] if hidden else None, 0])
            if len(stack) > max_depth:
                max_depth = len(stack)
        # Try the next candidate of the deepest branch point that has one left.
        while stack:
            frame = stack[-1]
            left = frame[1]
            if not left:
                stack.pop()
                continue
            nodes += 1
            if stopped := poll(nodes):
                break
            bit = left & -left
            frame[1] = left ^ bit
            if frame[5]:  # undo every change made since the branch point
                cand[:] = frame[2]
                size[:] = frame[3]
                if hidden:
                    count[:] = frame[4]
            frame[5] = 1
            cell = frame[0]
            rest = cand[cell] ^ bit
            cand[cell] = bit
            size[cell] = 1
            if hidden:
                hits = []
                if not lose(cell, rest, hits):
                    continue
                forced[0] -= 1  # propagation counts the guessed cell; it is not forced
                if propagate_hidden([cell], hits):
                    break
            else:
                forced[0] -= 1
                if propagate([cell]):
                    break
        else:
            exhausted = True
            break
        if stopped:
            break
    stats.update(nodes=nodes, guesses=nodes, backtracks=nodes - len(stack), max_depth=max_depth)
    return solutions, exhausted, stopped, _counters(stats, forced, hidden)


def _counters(stats: dict[str, int], forced: list[int], hidden: bool) -> dict[str, int]:
    filled, hidden_singles = forced
    stats["singles"] = filled - hidden_singles
    if hidden:
        stats["hidden_singles"] = hidden_singles
    stats["propagations"] = filled
    return stats


@register
class FewestCandidates(Solver):
    name = "mrv"
    family = "search"
    complete = True
    constraint_kinds = SUPPORTED
    summary = (
        "fill one-candidate cells, then guess on the cell with the fewest candidates, "
        "recursively, with an incrementally updated candidate cache"
    )
    source = (
        "the recursive solver write-up timed on 21,885 puzzles (fill obvious singles, "
        "guess on the tile with the fewest possible values, cached candidates)"
    )
    parameters = {
        "singles": Param(
            "naked",
            "forced placements between guesses: naked (cells with one candidate, as "
            "described) or hidden (also digits with one place in a unit)",
            ("naked", "hidden"),
        ),
    }

    def _solve(self, puzzle: Grid, limit: int, limits: Limits, trace: bool) -> SolveResult:
        hidden = self.options["singles"] == "hidden"
        search = mrv_variants.search if puzzle.constraints else _search
        found, exhausted, stopped, stats = search(puzzle, limit, limits, hidden)
        solutions = [puzzle.replace(cells) for cells in found]
        return counted_result(solutions, exhausted and len(solutions) < limit, stats, stopped)
