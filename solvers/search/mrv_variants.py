"""`mrv` on puzzles with constraints: the same method over the shared propagation.

The classic search (`solvers.search.mrv`) keeps its own tables; a puzzle with
constraints goes through `solvers.variants.propagate` instead, which knows
every cell's peers (houses, extra groups, knight or king moves) and runs the
constraints' propagators.  The method is unchanged: settle (every decided
cell's digit leaves its peers, and the propagators remove what the constraints
rule out), stop at a full grid, otherwise guess on the first cell with the
fewest candidates, lowest digit first, and settle again.  ``singles=hidden``
also places digits with one cell left in a house.  On backtrack the candidates
saved at the branch point are restored.

Counters: ``nodes`` and ``guesses`` (values tried; ``budget`` caps them),
``backtracks``, ``max_depth`` and ``rejected`` (full grids the verifier refused:
0 unless a propagator misses a rule, which the tests check).
"""

from __future__ import annotations

from typing import Any

from solvers.base import Limits, Status
from solvers.grid import Grid
from solvers.variants.propagate import compile_model, settle
from solvers.verify import check


def search(
    puzzle: Grid, limit: int, limits: Limits, hidden: bool
) -> tuple[list[tuple[int, ...]], bool, Status | None, dict[str, int]]:
    """Solutions found (as cell tuples), whether the space was exhausted, the stop, counters."""
    model = compile_model(puzzle)
    cand = list(model.start)
    stats = {"nodes": 0, "guesses": 0, "backtracks": 0, "max_depth": 0, "rejected": 0}
    solutions: list[tuple[int, ...]] = []
    if not all(cand) or not settle(model, cand, range(len(cand)), hidden=hidden):
        return solutions, True, None, stats
    stack: list[list[Any]] = []  # per branch point: cell, candidates left, saved candidates
    nodes = max_depth = 0
    poll = limits.poll
    stopped: Status | None = None
    exhausted = False
    while True:
        cell, fewest = -1, puzzle.size + 1
        for c, m in enumerate(cand):
            if m & (m - 1) and (k := m.bit_count()) < fewest:
                cell, fewest = c, k
                if k == 2:
                    break
        if cell < 0:  # every cell decided: a solution, checked by the rules
            cells = tuple(m.bit_length() for m in cand)
            if check(puzzle, puzzle.replace(cells)):
                stats["rejected"] += 1
            else:
                solutions.append(cells)
                if len(solutions) >= limit:
                    break
        else:
            stack.append([cell, cand[cell], cand[:]])
            max_depth = max(max_depth, len(stack))
        while stack:  # the next candidate of the deepest branch point with one left
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
            cand[:] = frame[2]
            cand[frame[0]] = bit
            if settle(model, cand, (frame[0],), hidden=hidden):
                break
        else:
            exhausted = True
            break
        if stopped:
            break
    stats.update(nodes=nodes, guesses=nodes, backtracks=nodes - len(stack), max_depth=max_depth)
    return solutions, exhausted, stopped, stats
