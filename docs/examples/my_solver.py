"""A template for a new solver: plain backtracking on the first empty cell.

Copy this file, rename the class and `name`, and replace `_solve` with your
method.  Everything else (argument checks, the ``INVALID`` answer for givens
that break the rules, time limits, the conformance suite) comes from `Solver`.
"""

from __future__ import annotations

from solvers import Grid, Param, Solver, SolveResult, Status, counted_result, register
from solvers.base import Limits


@register
class FirstEmptyCell(Solver):
    """Depth-first search that fills the first empty cell in reading order."""

    name = "template-backtracking"
    family = "search"  # human | search | exact-cover | cp | sat
    complete = True  # it can prove 0, 1 or 2+ solutions
    summary = "template: backtracking on the first empty cell, digits in order"
    source = "docs/adding-a-solver.md"
    parameters = {
        "order": Param("up", "the order digits are tried in", choices=("up", "down")),
    }
    gaps: dict[str, str] = {}  # {"check_name": "why it cannot"}: declared gaps become xfails

    def _solve(self, puzzle: Grid, limit: int, limits: Limits, trace: bool) -> SolveResult:
        cells = list(puzzle.cells)
        peers = puzzle.shape.peers  # the cells sharing a row, column or box, per cell
        n = puzzle.size
        digits = range(1, n + 1) if self.options["order"] == "up" else range(n, 0, -1)
        solutions: list[Grid] = []
        nodes = 0
        stopped: Status | None = None  # the limit that ended the search, if one did

        def search() -> bool:
            """Fill the first empty cell every way; True when the search must end."""
            nonlocal nodes, stopped
            nodes += 1
            stopped = limits.poll(nodes)
            if stopped is not None:
                return True
            if 0 not in cells:
                solutions.append(puzzle.replace(cells))
                return len(solutions) >= limit
            cell = cells.index(0)
            taken = {cells[p] for p in peers[cell]}
            for digit in digits:
                if digit not in taken:
                    cells[cell] = digit
                    if search():
                        return True
            cells[cell] = 0
            return False

        ended_early = search()
        exhausted = not ended_early  # every branch explored: the count is a proof
        return counted_result(solutions, exhausted, {"nodes": nodes}, stopped)
