"""`positions` on puzzles with constraints: the same branching over the shared propagation.

The classic search (`solvers.search.positions`) counts positions in rows,
columns and boxes with its own tables; a puzzle with constraints goes through
`solvers.variants.propagate` instead.  The houses are the groups of N cells
that must hold every digit: rows, columns, boxes or jigsaw regions, then
extra regions of N cells, diagonals and disjoint groups (a shorter group only
forbids repeats, through the cells' peers).  For every house and every digit
it still misses, count the open cells whose candidates hold the digit; no
position anywhere: a dead end; otherwise the first (house, digit) with the
fewest, in that order and digits upwards: one position is placed, several are
tried in turn.  After each placement the candidates settle (the digit leaves
the cell's peers, the constraints' propagators run), and a settle that empties
a cell is a dead end at once.  On backtrack the state saved at the junction is
restored.

Counters as in the classic search (``nodes``, ``forced_placements``,
``branches`` = ``guesses``, ``dead_ends``, ``backtracks``, ``max_depth``) and
``rejected`` (full grids the verifier refused: 0 unless a propagator misses a
rule, which the tests check).
"""

from __future__ import annotations

from typing import Any

from solvers.base import Limits, Status
from solvers.grid import Grid
from solvers.variants.propagate import Model, compile_model, settle
from solvers.verify import check


def _choose(model: Model, cand: list[int], placed: bytearray) -> tuple[int, list[int]] | None:
    """The first (house, missing digit) with the fewest open positions, as (bit, cells);
    None when some missing digit has no position.

    Per house, the open cells' candidates are folded into the digits with at least
    one, two, three and four positions (bitmasks), so houses with a digit of up to
    three positions are read without counting; digits are counted one by one only
    while no house has shown a digit with fewer than four."""
    full = (1 << model.size) - 1
    best: tuple[int, ...] = ()
    best_bit = 0
    fewest = model.size + 1
    for house in model.houses:
        done = once = twice = thrice = four = 0
        for cell in house:
            m = cand[cell]
            if placed[cell]:
                done |= m
            else:
                four |= thrice & m
                thrice |= twice & m
                twice |= once & m
                once |= m
        missing = full & ~done
        if missing & ~once:
            return None  # a digit the house misses has no position left
        if fewest == 1:
            continue
        if ones := missing & ~twice:
            best, best_bit, fewest = house, ones & -ones, 1
        elif fewest == 2:
            continue
        elif twos := missing & ~thrice:
            best, best_bit, fewest = house, twos & -twos, 2
        elif fewest == 3:
            continue
        elif threes := missing & ~four:
            best, best_bit, fewest = house, threes & -threes, 3
        else:
            while missing:
                bit = missing & -missing
                missing ^= bit
                k = sum(1 for c in house if cand[c] & bit and not placed[c])
                if k < fewest:
                    best, best_bit, fewest = house, bit, k
    return best_bit, [c for c in best if cand[c] & best_bit and not placed[c]]


def search(
    puzzle: Grid, limit: int, limits: Limits
) -> tuple[list[tuple[int, ...]], bool, Status | None, dict[str, int]]:
    """Solutions found (as cell tuples), whether the space was exhausted, the stop, counters."""
    model = compile_model(puzzle)
    cand = list(model.start)
    placed = bytearray(1 if digit else 0 for digit in puzzle.cells)
    remaining = placed.count(0)
    ok = all(cand) and settle(model, cand, range(len(cand)))
    stack: list[list[Any]] = []  # per junction: positions, next index, bit, saved state
    solutions: list[tuple[int, ...]] = []
    nodes = forced = branches = dead_ends = backtracks = max_depth = rejected = 0
    poll = limits.poll
    stopped: Status | None = None
    exhausted = False
    bit = 0
    while True:
        spot = -1  # the cell to fill next, with `bit`
        if not ok:
            dead_ends += 1
        elif not remaining:  # every cell placed: a solution, checked by the rules
            cells = tuple(m.bit_length() for m in cand)
            if check(puzzle, puzzle.replace(cells)):
                rejected += 1
            else:
                solutions.append(cells)
                if len(solutions) >= limit:
                    break
        elif (choice := _choose(model, cand, placed)) is None:
            dead_ends += 1
        else:
            bit, spots = choice
            spot = spots[0]
            if len(spots) == 1:
                forced += 1
            else:  # a junction: the first position now, the others on backtrack
                stack.append([spots, 1, bit, cand[:], placed[:], remaining])
                max_depth = max(max_depth, len(stack))
                branches += 1
        if spot < 0:  # back to the deepest junction with a position left
            while stack:
                frame = stack[-1]
                spots, index, bit, saved_cand, saved_placed, saved_remaining = frame
                backtracks += 1
                if index < len(spots):
                    frame[1] = index + 1
                    cand[:] = saved_cand
                    placed[:] = saved_placed
                    remaining = saved_remaining
                    branches += 1
                    spot = spots[index]
                    break
                stack.pop()
            else:
                exhausted = True
                break
        nodes += 1
        if stopped := poll(nodes):
            break
        cand[spot] = bit
        placed[spot] = 1
        remaining -= 1
        ok = settle(model, cand, (spot,))
    stats = {
        "nodes": nodes,
        "guesses": branches,
        "backtracks": backtracks,
        "branches": branches,
        "forced_placements": forced,
        "dead_ends": dead_ends,
        "max_depth": max_depth,
        "rejected": rejected,
    }
    return solutions, exhausted, stopped, stats
