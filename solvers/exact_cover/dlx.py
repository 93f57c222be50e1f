"""Knuth's Algorithm X with dancing links, on Sudoku's exact-cover matrix.

Sudoku is an exact cover problem: choose *rows* (a cell holding a digit, N^3
of them) so that every *column* (a constraint, 4N^2 of them) is covered
exactly once.  The constraints are: each cell holds a digit; each row, each
column and each box holds each digit.  Puzzles with constraints add rows
(a killer cage's digit combinations), leave some out (parity) and add
columns, *secondary* ones among them, covered at most once
(`solvers.exact_cover.matrix` says which, kind by kind).

The links live in flat integer lists (``L``, ``R`` for column headers; ``U``,
``D``, ``C`` for every node) rather than objects, and the matrix of a shape
(or of a puzzle's constraints) is built once and copied per solve.  A matrix
row's nodes are stored consecutively, with a precomputed table of each
node's siblings.  The column to branch on is a primary one with the fewest
rows (Knuth's S heuristic; secondary headers are outside the list of
columns): columns whose size falls to 0 or 1 while covering are remembered,
so forced choices and dead ends skip the scan of the column list, which
otherwise stops at the first column of size 1.  The search is iterative,
and givens are applied by covering their rows up front.  Counters: ``nodes``
(rows chosen during search, a cage's combination included), ``guesses``
(choices among two or more rows), ``backtracks`` (rows undone) and
``updates`` (link removals, Knuth's measure of work).
"""

from __future__ import annotations

import time
from functools import cache, lru_cache
from typing import Any, NamedTuple

from solvers.base import Limits, Solver, SolveResult, Status, Support, counted_result, phases
from solvers.exact_cover import matrix
from solvers.exact_cover.matrix import Matrix
from solvers.grid import Grid
from solvers.registry import register
from solvers.variants import Constraint

BIG = 1 << 40
"""Added to a secondary column's size: it never falls below 2, so the search never
counts it among the forced choices (its header is outside the list of columns too)."""


class Links(NamedTuple):
    """A matrix as link lists (copied per solve, except the read-only ones).

    Column headers are nodes ``1 .. primary + secondary`` (0 is the root, linked
    with the primary headers only; a secondary header links to itself).  The
    nodes of a row are consecutive: ``SIB`` gives each node the other nodes of
    its row and ``WIDTH`` how many; ``FIRST`` gives the first node of cell row
    ``cell*N + digit-1`` (0 when the row is left out) and ``LABEL`` each node's
    cell row (-1 for a node of a combination row and for headers).
    """

    L: list[int]
    R: list[int]
    U: list[int]
    D: list[int]
    C: list[int]
    S: list[int]
    SIB: list[tuple[int, ...]]
    WIDTH: list[int]
    FIRST: list[int]
    LABEL: list[int]


def link(m: Matrix, cells: int) -> Links:
    """The dancing links of a matrix whose cell rows are labelled up to `cells`."""
    ncols = m.primary + m.secondary
    base = ncols + 1
    total = base + sum(map(len, m.rows))
    L = list(range(-1, ncols))  # headers only: rows are never unlinked sideways
    R = list(range(1, ncols + 1)) + [0]
    L[0], R[m.primary] = m.primary, 0
    for h in range(m.primary + 1, base):
        L[h] = R[h] = h
    U = list(range(total))
    D = list(range(total))
    C = list(range(base)) + [0] * (total - base)
    S = [0] * base
    SIB: list[tuple[int, ...]] = [()] * base
    FIRST = [0] * cells
    LABEL = [-1] * total
    node = base
    for cols, label in zip(m.rows, m.labels, strict=True):
        first = node
        if label >= 0:
            FIRST[label] = first
        for k in cols:
            c = k + 1
            C[node] = c
            # append at the bottom of column c
            U[node] = U[c]
            D[node] = c
            D[U[c]] = node
            U[c] = node
            S[c] += 1
            LABEL[node] = label
            node += 1
        row = range(first, node)
        SIB.extend(tuple(j for j in row if j != i) for i in row)
    for h in range(m.primary + 1, base):
        S[h] += BIG
    return Links(L, R, U, D, C, S, SIB, [len(t) for t in SIB], FIRST, LABEL)


@cache
def _classic(box_rows: int, box_cols: int) -> Links:
    """The classic matrix of a shape (its 4N^2 columns, N^3 rows of four nodes)."""
    n = box_rows * box_cols
    return link(matrix.build(Grid.empty(box_rows, box_cols)), n**3)


@lru_cache(maxsize=4)
def _variant(box_rows: int, box_cols: int, constraints: tuple[Constraint, ...]) -> Links:
    n = box_rows * box_cols
    return link(matrix.build(Grid.empty(box_rows, box_cols).with_constraints(constraints)), n**3)


def links_of(puzzle: Grid) -> Links:
    """The links of a puzzle's rules, built once per shape or set of constraints."""
    if not puzzle.constraints:
        return _classic(puzzle.box_rows, puzzle.box_cols)
    return _variant(puzzle.box_rows, puzzle.box_cols, puzzle.constraints)


@register
class DancingLinks(Solver):
    name = "dlx"
    family = "exact-cover"
    complete = True
    summary = "Knuth's Algorithm X with dancing links on the exact-cover matrix (S heuristic)"
    source = "D. E. Knuth, 'Dancing Links' (2000), arXiv:cs/0011047"
    constraint_kinds = matrix.KINDS

    @classmethod
    def handles(cls, puzzle: Grid | int) -> Support:
        """As `Solver.handles`, and no killer cage with more combinations than it writes."""
        support = super().handles(puzzle)
        if support and isinstance(puzzle, Grid) and puzzle.constraints:
            too_many = matrix.oversized_cage(puzzle)
            if too_many:
                return Support(False, too_many)
        return support

    def _solve(self, puzzle: Grid, limit: int, limits: Limits, trace: bool) -> SolveResult:
        n = puzzle.size
        setup = None
        if puzzle.constraints:  # the matrix of a puzzle's constraints: built on its first solve
            start = time.perf_counter()
            links = links_of(puzzle)
            setup = time.perf_counter() - start
        else:
            links = links_of(puzzle)
        L0, R0, U0, D0, C, S0, SIB, WIDTH, FIRST, LABEL = links
        L, R, U, D, S = L0[:], R0[:], U0[:], D0[:], S0[:]
        updates = 0

        forced: list[int] = []  # columns whose size fell to 0 or 1 (may be stale)

        def cover(c: int) -> int:
            """Remove column c and every row that meets it; return link removals."""
            lc, rc = L[c], R[c]
            R[lc] = rc
            L[rc] = lc
            count = 0
            i = D[c]
            while i != c:
                for j in SIB[i]:
                    uj, dj = U[j], D[j]
                    D[uj] = dj
                    U[dj] = uj
                    cj = C[j]
                    s = S[cj] - 1
                    S[cj] = s
                    if s < 2:
                        forced.append(cj)
                count += WIDTH[i]
                i = D[i]
            return count

        def uncover(c: int) -> None:
            """Undo cover(c): rows restored bottom-up, the reverse of their removal."""
            i = U[c]
            while i != c:
                for j in SIB[i]:
                    S[C[j]] += 1
                    U[D[j]] = j
                    D[U[j]] = j
                i = U[i]
            R[L[c]] = c
            L[R[c]] = c

        def choose(node: int) -> int:
            """Cover the other columns of the chosen row; return link removals."""
            count = 0
            for j in SIB[node]:
                count += cover(C[j])
            return count

        def unchoose(node: int) -> None:
            for j in reversed(SIB[node]):
                uncover(C[j])

        # Givens: choose their rows up front; a row already removed is a conflict.
        for cell, digit in enumerate(puzzle.cells):
            if not digit:
                continue
            first = FIRST[cell * n + digit - 1]
            if not first:  # left out by the rules (parity, a cage's sum)
                message = f"{_given(cell, digit, n)}: no solution can hold it"
                return SolveResult(Status.UNSOLVABLE, exhausted=True, message=message)
            row = (first, *SIB[first])
            cols = [C[j] for j in row]
            if any(R[L[c]] != c for c in cols) or any(D[U[j]] != j for j in row):
                message = f"{_given(cell, digit, n)} conflicts with another given"
                return SolveResult(Status.INVALID, exhausted=True, message=message)
            for c in cols:
                updates += cover(c)

        cells = list(puzzle.cells)
        solutions: list[Grid] = []
        chosen: list[int] = []  # the node chosen at each level
        nodes = backtracks = guesses = 0
        poll = limits.poll
        stopped: Status | None = None

        while True:
            c = R[0]
            if c == 0:  # every constraint covered: a solution
                for node in chosen:
                    r = LABEL[node]
                    if r >= 0:  # a cell row, not a cage's combination
                        cells[r // n] = r % n + 1
                solutions.append(puzzle.replace(cells))
                if len(solutions) >= limit:
                    break
                size = 0  # backtrack to look for the next solution
            else:
                size = 2
                while forced:  # an uncovered column of size 0 or 1 is a best choice
                    best = forced.pop()
                    if S[best] < 2 and R[L[best]] == best:
                        size = S[best]
                        break
                if size > 1:  # scan for the fewest rows (Knuth's S); stop at one
                    forced.clear()
                    best, size = c, S[c]
                    c = R[c]
                    while c and size > 1:
                        if S[c] < size:
                            best, size = c, S[c]
                        c = R[c]
            if size:
                # Descend: cover the column and choose its first row.
                updates += cover(best)
                node = D[best]
                guesses += size > 1
            else:
                # Backtrack: advance the deepest choice to its next row.
                node = 0
                while chosen:
                    node = chosen.pop()
                    backtracks += 1
                    unchoose(node)
                    c = C[node]
                    node = D[node]
                    if node != c:
                        break
                    uncover(c)
                    node = 0
                if not node:
                    break  # the whole space explored
            chosen.append(node)
            nodes += 1
            updates += choose(node)
            if stopped := poll(nodes):
                break

        exhausted = stopped is None and len(solutions) < limit
        stats: dict[str, Any] = {
            "nodes": nodes,
            "guesses": guesses,
            "backtracks": backtracks,
            "updates": updates,
            **phases(setup=setup),
        }
        return counted_result(solutions, exhausted, stats, stopped)


def _given(cell: int, digit: int, n: int) -> str:
    return f"given {digit} at r{cell // n + 1}c{cell % n + 1}"
