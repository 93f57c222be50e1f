"""sudoku-bench solvers: many Sudoku methods behind one interface.

>>> import solvers
>>> puzzle = solvers.Grid.parse("1... 3..2 ...3 ..2.")
>>> solvers.get("dlx").solve(puzzle).solution.format()
'1234341221434321'
"""

from solvers.base import (
    FAMILIES,
    Limits,
    Param,
    Solver,
    SolveResult,
    Staged,
    Status,
    UnknownOption,
    UnsupportedPuzzle,
    counted_result,
)
from solvers.grid import Grid, PuzzleFormatError, Shape, shape
from solvers.registry import (
    SolverUnavailable,
    UnknownSolver,
    get,
    names,
    parse_spec,
    register,
    solver_class,
    unregister,
)
from solvers.verify import Violation, check, conflicts, is_solution

__all__ = [
    "FAMILIES",
    "Grid",
    "Limits",
    "Param",
    "PuzzleFormatError",
    "Shape",
    "SolveResult",
    "Solver",
    "Staged",
    "SolverUnavailable",
    "Status",
    "UnknownOption",
    "UnknownSolver",
    "UnsupportedPuzzle",
    "Violation",
    "check",
    "conflicts",
    "counted_result",
    "get",
    "is_solution",
    "names",
    "parse_spec",
    "register",
    "shape",
    "solver_class",
    "unregister",
]
