"""Knuth's Algorithm X with dancing links, on Sudoku's exact-cover matrix.

Sudoku is an exact cover problem: choose one *row* (a cell holding a digit,
N^3 of them) so that every *column* (a constraint, 4N^2 of them) is covered
exactly once.  The constraints are: each cell holds a digit; each row, each
column and each box holds each digit.

The links live in flat integer lists (``L``, ``R`` for column headers; ``U``,
``D``, ``C`` for every node) rather than objects, and the matrix of a shape
is built once and copied per solve.  Each matrix row has exactly four nodes,
stored consecutively, with a precomputed table of each node's three siblings.
The column to branch on is one with the fewest rows (Knuth's S heuristic):
columns whose size falls to 0 or 1 while covering are remembered, so forced
choices and dead ends skip the scan of the column list, which otherwise stops
at the first column of size 1.  The search is iterative, and givens are
applied by covering their rows up front.  Counters: ``nodes`` (rows chosen
during search), ``guesses`` (choices among two or more rows), ``backtracks``
(rows undone) and ``updates`` (link removals, Knuth's measure of work).
"""

from __future__ import annotations

from functools import cache

from solvers.base import Limits, Solver, SolveResult, Status, counted_result
from solvers.grid import Grid
from solvers.registry import register


@cache
def _matrix(box_rows: int, box_cols: int) -> tuple[list, ...]:
    """The full exact-cover matrix of a shape as link lists (copied per solve).

    Column headers are nodes 1..4N^2 (0 is the root); the four nodes of matrix
    row ``r = cell*N + digit-1`` are ``base + 4r .. base + 4r + 3``.
    """
    n = box_rows * box_cols
    ncols = 4 * n * n
    base = ncols + 1
    total = base + 4 * n**3
    L = list(range(-1, ncols)) + [0] * (total - base)
    L[0] = ncols
    R = list(range(1, ncols + 1)) + [0] + [0] * (total - base)
    U = list(range(total))
    D = list(range(total))
    C = list(range(base)) + [0] * (total - base)
    S = [0] * base
    for cell in range(n * n):
        row, col = divmod(cell, n)
        box = (row // box_rows) * box_rows + col // box_cols
        for d in range(n):
            r = cell * n + d
            cols = (
                1 + cell,
                1 + n * n + row * n + d,
                1 + 2 * n * n + col * n + d,
                1 + 3 * n * n + box * n + d,
            )
            for k, c in enumerate(cols):
                node = base + 4 * r + k
                C[node] = c
                # append at the bottom of column c
                U[node] = U[c]
                D[node] = c
                D[U[c]] = node
                U[c] = node
                S[c] += 1
    # The other three nodes of each node's matrix row (headers have none).
    siblings: list[tuple[int, ...]] = [()] * base
    for first in range(base, total, 4):
        quad = (first, first + 1, first + 2, first + 3)
        siblings.extend(tuple(j for j in quad if j != i) for i in quad)
    return L, R, U, D, C, S, siblings


@register
class DancingLinks(Solver):
    name = "dlx"
    family = "exact-cover"
    complete = True
    summary = "Knuth's Algorithm X with dancing links on the exact-cover matrix (S heuristic)"
    source = "D. E. Knuth, 'Dancing Links' (2000), arXiv:cs/0011047"

    def _solve(self, puzzle: Grid, limit: int, limits: Limits, trace: bool) -> SolveResult:
        n = puzzle.size
        L0, R0, U0, D0, C0, S0, SIB = _matrix(puzzle.box_rows, puzzle.box_cols)
        L, R, U, D, C, S = L0[:], R0[:], U0[:], D0[:], C0[:], S0[:]
        base = len(S)
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
                count += 3
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
            first = base + 4 * (cell * n + digit - 1)
            cols = [C[first + k] for k in range(4)]
            if any(R[L[c]] != c for c in cols) or not _row_present(first, U, D):
                return SolveResult(
                    Status.INVALID,
                    exhausted=True,
                    message=f"given {digit} at r{cell // n + 1}c{cell % n + 1} "
                    "conflicts with another given",
                )
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
                    r = (node - base) // 4
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
        stats = {"nodes": nodes, "guesses": guesses, "backtracks": backtracks, "updates": updates}
        return counted_result(solutions, exhausted, stats, stopped)


def _row_present(first: int, U: list[int], D: list[int]) -> bool:
    """True when the matrix row starting at node `first` is still linked in."""
    return all(D[U[j]] == j for j in range(first, first + 4))
