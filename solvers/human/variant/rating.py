"""Ratings of variant puzzles, on the scales of `solvers.human.rating`.

``er``, ``ep`` and ``ed`` are read off the path as for a classic puzzle (the
hardest step, the hardest up to the first placement, the first step).  The
HoDoKu-style ``score`` sums the steps' scores along the path as the engine took
it (the classic table's scores, `SCORES` for the techniques only variants have),
and ``level`` is the hardest technique's level raised while the score exceeds
its maximum.  The class is read from the techniques the path used: *Simple*
(naked singles, full houses and the non-consecutive step), *Easy* (with hidden
singles), *Intermediate* (the first tier: cage combinations, intersections,
the rule of 45, subsets) and *Expert* (fish, nishios, or stuck).

>>> from solvers.grid import Grid
>>> from solvers.variants import Killer
>>> cages = [Killer((0, 4), 4), Killer((1, 2), 5), Killer((3, 7), 6), Killer((5, 6), 5),
...          Killer((8, 12), 6), Killer((9, 13), 4), Killer((10, 11), 7), Killer((14, 15), 3)]
>>> r = rate_variant(Grid.parse("1" + "." * 15).with_constraints(cages))
>>> r.status, r.er, r.score, r.level, r.category
('solved', 2.4, 210, 'Easy', 'Intermediate')
"""

from __future__ import annotations

from collections.abc import Iterable

from solvers.grid import Grid
from solvers.human.engine import CONTRADICTION, SOLVED
from solvers.human.rating import Rating, level_for
from solvers.human.table import BY_NAME, LEVELS
from solvers.human.variant.engine import ORDER, propagate_variant
from solvers.human.variant.state import VariantState

SCORES: dict[str, tuple[int, str]] = {
    "non_consecutive": (4, "Easy"),
    "cage_combinations": (20, "Easy"),
    "house_pointing": (50, "Medium"),
    "rule_of_45": (60, "Medium"),
    "nishio_singles": (500, "Extreme"),
    "nishio_net": (700, "Extreme"),
}
"""HoDoKu-style score and level of the techniques only variants have (HoDoKu has no
killer techniques): as the classic steps they are rated beside."""

_SIMPLE = frozenset({"full_house", "naked_single", "non_consecutive"})
_EASY = _SIMPLE | {"hidden_single"}
_EXPERT = frozenset({"x_wing", "swordfish", "jellyfish", "nishio_singles", "nishio_net"})


def _score(name: str) -> tuple[int, str]:
    if name in SCORES:
        return SCORES[name]
    t = BY_NAME[name]
    return t.score, t.level


def rate_variant(
    grid: Grid, techniques: str | Iterable[str] | None = None, *, solution: Grid | None = None
) -> Rating:
    """Rate a variant puzzle by solving it with the variant engine (see the module)."""
    state = VariantState.of(grid)
    result = propagate_variant(state, techniques, solution=solution)
    er = ep = ed = 0.0
    hardest = None
    placed = False
    score = 0
    levels = ["Easy"]
    for i, step in enumerate(result.steps):
        if i == 0:
            ed = step.rating
        if step.rating > er:
            er, hardest = step.rating, step.technique
        if not placed:
            ep = max(ep, step.rating)
            placed = bool(step.placements)
        points, step_level = _score(step.technique)
        score += points
        levels.append(step_level)
    order = [name for name, _ in ORDER]
    counts = {name: result.counts[name] for name in order if name in result.counts}
    used = set(counts)
    level: str | None
    category: str | None
    status = result.status if result.status in (SOLVED, CONTRADICTION) else "stuck"
    if status == SOLVED:
        level = level_for(score, max(levels, key=LEVELS.index))
        category = (
            "Simple"
            if used <= _SIMPLE
            else "Easy"
            if used <= _EASY
            else "Expert"
            if used & _EXPERT
            else "Intermediate"
        )
    elif status == CONTRADICTION:
        level = category = None
    else:
        level, category = "Extreme", "Expert"
    return Rating(
        status,
        status == SOLVED,
        er,
        ep,
        ed,
        score,
        level,
        category,
        counts=counts,
        steps=len(result.steps),
        hardest=hardest,
        open_cells=state.empty,
        config="variant",
    )
