"""Sudoku as CNF: the encodings of Lynce & Ouaknine, shared by `sat` and `dimacs`.

One Boolean per (cell, digit): variable ``cell * N + digit`` (1-based,
cell-major), so a 9x9 grid has 729 variables.  ``minimal``: every cell holds
at least one digit, and every unit holds each digit at most once (pairwise
clauses).  ``extended`` adds the redundant halves: every cell holds at most
one digit, and every unit holds each digit at least once.  Givens are unit
clauses; a solution is excluded by the clause "some free cell differs".

>>> puzzle = Grid.parse("1... 3..2 ...3 ..2.")
>>> print(dimacs(puzzle, "minimal").splitlines()[-1])
58 0
>>> len(clauses(2, 2, "extended")), len(clauses(2, 2, "minimal"))
(448, 304)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from itertools import combinations

from solvers.grid import Grid

ENCODINGS: Mapping[str, str] = {
    "minimal": "at least one digit per cell, at most one of each digit per unit",
    "extended": "minimal, plus at most one digit per cell and each digit at least once per unit",
}
ENCODING_HELP = "; ".join(f"{name}: {text}" for name, text in ENCODINGS.items())


def literal(size: int, cell: int, digit: int) -> int:
    """The variable for `digit` (1..N) in `cell`: 1-based, cell-major."""
    return cell * size + digit


@cache
def clauses(box_rows: int, box_cols: int, encoding: str) -> tuple[list[int], ...]:
    """The clauses of an empty grid of a shape in an encoding (built once, shared)."""
    shape = Grid.empty(box_rows, box_cols).shape
    return tuple(unit_clauses(shape.size, shape.units, encoding))


def unit_clauses(size: int, units: Iterable[Sequence[int]], encoding: str) -> list[list[int]]:
    """The encoding's clauses for a side-`size` grid whose houses are `units`
    (rows, columns and boxes, or a jigsaw's regions instead of boxes)."""
    if encoding not in ENCODINGS:
        raise ValueError(f"unknown encoding {encoding!r}; choose one of: {', '.join(ENCODINGS)}")
    n = size
    units = [tuple(unit) for unit in units]
    digits = range(1, n + 1)
    out: list[list[int]] = []
    for cell in range(n * n):  # each cell holds at least one digit
        out.append([literal(n, cell, d) for d in digits])
    for unit in units:  # each unit holds each digit at most once
        for d in digits:
            for a, b in combinations(unit, 2):
                out.append([-literal(n, a, d), -literal(n, b, d)])
    if encoding == "extended":
        for cell in range(n * n):  # each cell holds at most one digit
            for d, e in combinations(digits, 2):
                out.append([-literal(n, cell, d), -literal(n, cell, e)])
        for unit in units:  # each unit holds each digit at least once
            for d in digits:
                out.append([literal(n, c, d) for c in unit])
    return out


def puzzle_clauses(
    puzzle: Grid, encoding: str, sums: str = "ladder"
) -> tuple[Sequence[list[int]], int]:
    """The clauses of a puzzle's rules (givens not included) and its number of variables:
    the shared clauses of its shape for classic Sudoku, `solvers.sat.variant_cnf`'s
    for a puzzle with constraints (auxiliary variables numbered after the cells)."""
    if not puzzle.constraints:
        return clauses(puzzle.box_rows, puzzle.box_cols, encoding), puzzle.size**3
    from solvers.sat.variant_cnf import formula  # it builds on this module

    built = formula(puzzle, encoding, sums)
    return built.clauses, built.top


def givens(puzzle: Grid) -> list[list[int]]:
    """One unit clause per given."""
    n = puzzle.size
    return [[literal(n, cell, d)] for cell, d in enumerate(puzzle.cells) if d]


def blocking(puzzle: Grid, solution: Grid) -> list[int]:
    """The clause that excludes `solution` and nothing else: some free cell differs."""
    n = puzzle.size
    pairs = enumerate(zip(puzzle.cells, solution.cells, strict=True))
    return [-literal(n, c, d) for c, (g, d) in pairs if not g]


def decode(puzzle: Grid, true_literals: Iterable[int]) -> Grid:
    """The grid a model describes (its true literals); raises ValueError when it is not one.

    Only the free cells are read; a model that leaves a cell without a digit,
    or gives it two, is not a solution of either encoding.
    """
    n = puzzle.size
    cells = list(puzzle.cells)
    found = [0] * len(cells)
    for lit in true_literals:
        if 0 < lit <= n * n * n:
            cell, digit = divmod(lit - 1, n)
            if found[cell]:
                raise ValueError(f"the model gives cell {cell} two digits")
            found[cell] = digit + 1
    for cell, given in enumerate(puzzle.cells):
        if not given:
            if not found[cell]:
                raise ValueError(f"the model gives cell {cell} no digit")
            cells[cell] = found[cell]
    return puzzle.replace(cells)


@cache
def _body(box_rows: int, box_cols: int, encoding: str) -> str:
    """The encoding's clauses as DIMACS lines (built once per shape and encoding)."""
    return "".join(" ".join(map(str, c)) + " 0\n" for c in clauses(box_rows, box_cols, encoding))


def dimacs(
    puzzle: Grid, encoding: str, extra: Sequence[Sequence[int]] = (), sums: str = "ladder"
) -> str:
    """The puzzle in DIMACS CNF: the encoding (and its constraints' clauses, sums encoded
    as `sums` says), its givens, and `extra` clauses (blocking ones)."""
    base, variables = puzzle_clauses(puzzle, encoding, sums)
    units = givens(puzzle)
    n = puzzle.size
    kinds = " ".join(sorted({c.kind for c in puzzle.constraints}))
    aux = [f"c constraints {kinds} (sums={sums}): variables above {n**3} are auxiliary"]
    aux = aux if kinds else []
    lines = [
        f"c sudoku-bench {n}x{n} ({puzzle.box_rows}x{puzzle.box_cols} boxes), "
        f"encoding={encoding}: variable cell*{n}+digit, cells 0-based in reading order",
        f"c puzzle {puzzle.format()}",
        *aux,
        f"p cnf {variables} {len(base) + len(units) + len(extra)}",
    ]
    head = "\n".join(lines) + "\n"
    tail = "".join(" ".join(map(str, c)) + " 0\n" for c in (*units, *extra))
    if puzzle.constraints:
        body = "".join(" ".join(map(str, c)) + " 0\n" for c in base)
    else:
        body = _body(puzzle.box_rows, puzzle.box_cols, encoding)
    return head + body + tail
