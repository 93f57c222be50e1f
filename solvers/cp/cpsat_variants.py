"""CP-SAT models of puzzles with constraints: one encoding per constraint kind.

`variant_model` builds what `cpsat`'s template is for classic Sudoku, for one
puzzle: the cell variables first (so a solution reads the same way), the
houses (rows, columns, and boxes or the jigsaw regions), then each constraint
through `ENCODERS`.  The Boolean model gets one integer view per cell, tied to
its (cell, digit) Booleans, for the encodings to use.

Every auxiliary variable is a function of the cells (full reification), so
enumerating solutions never lists one grid twice.  Encodings:

- all-different groups (extra regions, diagonals, disjoint groups, cages):
  ``AllDifferent``;
- sums (killer cages, little killers, arrows, XV): linear equalities, an
  arrow's pill circle weighted by powers of ten;
- order (thermometers, greater-than): linear inequalities;
- Kropki dots: allowed assignments of the pair; the all-dots-given rules and
  the XV negative: forbidden assignments or ``!=`` on every unmarked pair;
- neighbour rules: ``!=`` on every knight or king pair, ``x - y != ±1`` on
  orthogonal neighbours;
- parity: the cell's domain;
- sandwich: a Boolean per cell, true exactly when it holds 1 or N; for each
  pair of cells, both true enforces the sum of the cells between them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from solvers.grid import Grid
from solvers.variants import houses
from solvers.variants.constraints import (
    KING,
    KNIGHT,
    ORTHOGONAL,
    XV,
    Arrow,
    Constraint,
    GreaterThan,
    Killer,
    Kropki,
    KropkiNegative,
    LittleKiller,
    Parity,
    Sandwich,
    Thermometer,
    pairs,
)
from solvers.variants.puzzle import distinct_groups

KINDS = frozenset(
    {
        "jigsaw",
        "extra-region",
        "disjoint-groups",
        "diagonal",
        "anti-knight",
        "anti-king",
        "non-consecutive",
        "killer",
        "little-killer",
        "thermometer",
        "arrow",
        "kropki",
        "kropki-negative",
        "xv",
        "xv-negative",
        "parity",
        "greater-than",
        "sandwich",
    }
)
"""The constraint kinds these models encode."""


class Context:
    """What an encoder writes into: the model, one integer expression per cell, the puzzle."""

    def __init__(self, model: Any, cells: list[Any], puzzle: Grid) -> None:
        self.model, self.x, self.puzzle, self.n = model, cells, puzzle, puzzle.size


def variant_model(puzzle: Grid, kind: str) -> Any:
    """The CP-SAT model of a puzzle with constraints, givens not yet applied.

    Variable ``i`` is cell ``i`` (integer model) or (cell ``i // N``, digit
    ``i % N + 1``) (Boolean model), as in `cpsat`'s classic template.
    """
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    n = puzzle.size
    units = houses(puzzle)
    if kind == "integer":
        x = [model.new_int_var(1, n, "") for _ in puzzle.cells]
        for unit in units:
            model.add_all_different([x[c] for c in unit])
    else:
        b = [[model.new_bool_var("") for _ in range(n)] for _ in puzzle.cells]
        for literals in b:
            model.add_exactly_one(literals)
        for unit in units:
            for d in range(n):
                model.add_exactly_one([b[c][d] for c in unit])
        x = [model.new_int_var(1, n, "") for _ in puzzle.cells]
        for view, literals in zip(x, b, strict=True):
            model.add(view == sum((d + 1) * lit for d, lit in enumerate(literals)))
    context = Context(model, x, puzzle)
    for _, cells in distinct_groups(puzzle):
        model.add_all_different([x[c] for c in cells])
    for constraint in puzzle.constraints:
        ENCODERS[constraint.kind](context, constraint)
    return model


# -- encoders ----------------------------------------------------------------------
def _nothing(ctx: Context, constraint: Constraint) -> None:
    """A kind fully encoded as a house or an all-different group."""


def _differ(steps: tuple[tuple[int, int], ...]) -> Callable[[Context, Constraint], None]:
    def encode(ctx: Context, constraint: Constraint) -> None:
        for a, b in sorted(tuple(sorted(p)) for p in pairs(ctx.n, steps)):
            ctx.model.add(ctx.x[a] != ctx.x[b])

    return encode


def _non_consecutive(ctx: Context, constraint: Constraint) -> None:
    for a, b in sorted(tuple(sorted(p)) for p in pairs(ctx.n, ORTHOGONAL)):
        ctx.model.add(ctx.x[a] - ctx.x[b] != 1)
        ctx.model.add(ctx.x[b] - ctx.x[a] != 1)


def _sum(ctx: Context, constraint: Killer | LittleKiller | XV) -> None:
    if constraint.total is not None:
        ctx.model.add(sum(ctx.x[c] for c in constraint.cells) == constraint.total)


def _thermometer(ctx: Context, constraint: Thermometer) -> None:
    for a, b in zip(constraint.cells, constraint.cells[1:], strict=False):
        ctx.model.add(ctx.x[a] < ctx.x[b])


def _arrow(ctx: Context, constraint: Arrow) -> None:
    m = len(constraint.circle)
    circle = sum(10 ** (m - 1 - k) * ctx.x[c] for k, c in enumerate(constraint.circle))
    ctx.model.add(circle == sum(ctx.x[c] for c in constraint.path))


def kropki_pairs(colour: str, value: int, n: int) -> list[tuple[int, int]]:
    """The digit pairs a dot allows: differing by `value` (white) or in ratio `value` (black)."""
    digits = range(1, n + 1)
    if colour == "white":
        return [(p, q) for p in digits for q in digits if abs(p - q) == value]
    return [(p, q) for p in digits for q in digits if p == value * q or q == value * p]


def _kropki(ctx: Context, constraint: Kropki) -> None:
    a, b = constraint.cells
    allowed = kropki_pairs(constraint.colour, constraint.value or 0, ctx.n)
    ctx.model.add_allowed_assignments([ctx.x[a], ctx.x[b]], allowed)


def _unmarked(ctx: Context, kind: str) -> list[tuple[int, int]]:
    marked = {
        c.cells  # type: ignore[attr-defined]
        for c in ctx.puzzle.constraints
        if c.kind == kind
    }
    found = sorted(tuple(sorted(p)) for p in pairs(ctx.n, ORTHOGONAL))
    return [(a, b) for a, b in found if (a, b) not in marked]


def _kropki_negative(ctx: Context, constraint: KropkiNegative) -> None:
    default = 1 if constraint.colour == "white" else 2
    forbidden = kropki_pairs(constraint.colour, default, ctx.n)
    for a, b in _unmarked(ctx, "kropki"):
        ctx.model.add_forbidden_assignments([ctx.x[a], ctx.x[b]], forbidden)


def _xv_negative(ctx: Context, constraint: Constraint) -> None:
    for a, b in _unmarked(ctx, "xv"):
        ctx.model.add(ctx.x[a] + ctx.x[b] != 5)
        ctx.model.add(ctx.x[a] + ctx.x[b] != 10)


def _parity(ctx: Context, constraint: Parity) -> None:
    from ortools.sat.python import cp_model

    remainder = 1 if constraint.parity == "odd" else 0
    digits = [d for d in range(1, ctx.n + 1) if d % 2 == remainder]
    ctx.model.add_linear_expression_in_domain(
        ctx.x[constraint.cell], cp_model.Domain.from_values(digits)
    )


def _greater_than(ctx: Context, constraint: GreaterThan) -> None:
    greater, smaller = constraint.cells
    ctx.model.add(ctx.x[greater] > ctx.x[smaller])


def _sandwich(ctx: Context, constraint: Sandwich) -> None:
    from ortools.sat.python import cp_model

    model, n, line = ctx.model, ctx.n, constraint.cells
    ends = cp_model.Domain.from_values([1, n])
    middle = cp_model.Domain.from_values(list(range(2, n)))
    end = []
    for cell in line:
        is_end = model.new_bool_var("")
        model.add_linear_expression_in_domain(ctx.x[cell], ends).only_enforce_if(is_end)
        model.add_linear_expression_in_domain(ctx.x[cell], middle).only_enforce_if(~is_end)
        end.append(is_end)
    for i in range(len(line)):
        for j in range(i + 1, len(line)):
            between = sum(ctx.x[c] for c in line[i + 1 : j])
            model.add(between == constraint.total).only_enforce_if([end[i], end[j]])


ENCODERS: dict[str, Callable[[Context, Any], None]] = {
    "jigsaw": _nothing,  # its regions are houses
    "extra-region": _nothing,  # all-different groups
    "disjoint-groups": _nothing,
    "diagonal": _nothing,
    "anti-knight": _differ(KNIGHT),
    "anti-king": _differ(KING),
    "non-consecutive": _non_consecutive,
    "killer": _sum,  # and an all-different group
    "little-killer": _sum,
    "thermometer": _thermometer,
    "arrow": _arrow,
    "kropki": _kropki,
    "kropki-negative": _kropki_negative,
    "xv": _sum,
    "xv-negative": _xv_negative,
    "parity": _parity,
    "greater-than": _greater_than,
    "sandwich": _sandwich,
}
