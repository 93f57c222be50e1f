"""The human-style engine on variant puzzles: region and neighbour rules, killer cages.

A puzzle with constraints (`solvers.variants`) of the kinds in `KINDS` is read
into a `Board` (its houses, peers, cages, neighbour rules), its candidates kept
in a `VariantState`, and solved by `propagate_variant` with the techniques that
hold in any such puzzle, killer logic among them.  Classic puzzles never come
here: they keep the classic engine, its steps and its speed.
"""

from solvers.human.variant.board import KINDS, Board, HouseShape
from solvers.human.variant.engine import NEW, ORDER, VariantResult, propagate_variant
from solvers.human.variant.state import VariantState

__all__ = [
    "KINDS",
    "NEW",
    "ORDER",
    "Board",
    "HouseShape",
    "VariantResult",
    "VariantState",
    "propagate_variant",
]
