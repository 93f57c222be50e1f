"""Puzzles with constraints: the constraint kinds, their canonical form, the helpers solvers use.

A variant puzzle is a `Grid` with a non-empty ``constraints`` tuple (see
`solvers.grid.Grid`); classic Sudoku is the empty tuple.  The verifier's rules
for each kind live in `solvers.variants.rules`, the canonical JSON form in
`solvers.variants.canonical`.
"""

from solvers.variants.constraints import (
    KINDS,
    XV,
    AntiKing,
    AntiKnight,
    Arrow,
    Constraint,
    ConstraintError,
    Diagonal,
    DisjointGroups,
    ExtraRegion,
    GreaterThan,
    Jigsaw,
    Killer,
    Kropki,
    KropkiNegative,
    LittleKiller,
    NonConsecutive,
    Parity,
    Sandwich,
    Thermometer,
    XVNegative,
)
from solvers.variants.puzzle import distinct_groups, houses, jigsaw, kinds, settle

__all__ = [
    "KINDS",
    "XV",
    "AntiKing",
    "AntiKnight",
    "Arrow",
    "Constraint",
    "ConstraintError",
    "Diagonal",
    "DisjointGroups",
    "ExtraRegion",
    "GreaterThan",
    "Jigsaw",
    "Killer",
    "Kropki",
    "KropkiNegative",
    "LittleKiller",
    "NonConsecutive",
    "Parity",
    "Sandwich",
    "Thermometer",
    "XVNegative",
    "distinct_groups",
    "houses",
    "jigsaw",
    "kinds",
    "settle",
]
