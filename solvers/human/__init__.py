"""The human-style engine: candidates, techniques, the easiest-step loop, ratings, traces.

Stable API for the solvers that build on it (``human``, ``assume``,
``odometer``, ``magictouch``) and for the generator:

- `CandidateState` — bitmask candidates, updated incrementally:
  ``from_grid(grid)`` (conflicting givens set ``contradiction`` to a reason),
  ``from_candidates(text)``, ``copy()``, ``place(cell, digit)``,
  ``eliminate(cell, digit)``, ``candidates(cell) -> bitmask`` (bit ``d-1`` for
  digit ``d``; 0 once placed), ``values`` (placed digits, 0 = open),
  ``contradiction`` (None or a reason), ``solved``, ``to_grid()``.
- `propagate(state, techniques=None, *, trace=False, max_steps=None,
  solution=None, limits=None) -> PropagationResult` — applies the easiest
  step until solved, stuck or a contradiction; ``status``, ``steps``,
  ``counts`` per technique.  Technique names: see `TECHNIQUES` (for example
  ``"naked_single"``, ``"hidden_single"``, ``"naked_pair"``) or groups such as
  ``"tier1"`` and ``"all"``.
- `rate(grid, techniques=None) -> Rating` — ER/EP/ED, score, level, category
  (class), technique counts, ``solved_by_logic``, engine version and config.

Propagating the MagicTouch way (solos, must-be's, the outside rule of pairs):

>>> from solvers.grid import Grid
>>> # a generated puzzle: corpora/data/gen9-easy.txt line 53
>>> puzzle = Grid.parse(
...     "...8.15...2....89.45.....3.7..6.8.............4...5...1...7..58.7.3149..6.....7..")
>>> state = CandidateState.from_grid(puzzle)
>>> result = propagate(state, ["naked_single", "hidden_single", "naked_pair"])
>>> result.status, state.solved, sorted(result.counts)
('solved', True, ['hidden_single'])
>>> state.to_grid().format()[:9]
'967831524'
>>> branch = CandidateState.from_grid(Grid.parse("12.. .... .... ....")).copy()
>>> branch.place(2, 1); branch.contradiction
'1 is not a candidate of r1c3'
>>> rate(puzzle).level
'Easy'
"""

from solvers.human.engine import (
    CONTRADICTION,
    SOLVED,
    STOPPED,
    STUCK,
    VERSION,
    PropagationResult,
    UnsoundStep,
    propagate,
)
from solvers.human.rating import CATEGORIES, ENGINE, Rating, rate, rating_of
from solvers.human.state import CandidateState, digits, mask_of
from solvers.human.step import Step
from solvers.human.table import GROUPS, LEVELS, TECHNIQUES, Technique, resolve
from solvers.human.trace import candidate_grid, compact, english, pencilmarks, record

__all__ = [
    "CATEGORIES",
    "CONTRADICTION",
    "ENGINE",
    "GROUPS",
    "LEVELS",
    "SOLVED",
    "STOPPED",
    "STUCK",
    "TECHNIQUES",
    "VERSION",
    "CandidateState",
    "PropagationResult",
    "Rating",
    "Step",
    "Technique",
    "UnsoundStep",
    "candidate_grid",
    "compact",
    "digits",
    "english",
    "mask_of",
    "pencilmarks",
    "propagate",
    "rate",
    "rating_of",
    "record",
    "resolve",
]
