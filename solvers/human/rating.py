"""Difficulty ratings of a solve path, on the scales people already use.

- Sudoku-Explainer style: ``er`` is the hardest step, ``ep`` the hardest step
  up to the first placement, ``ed`` the first step (the easiest way in).
- HoDoKu style: ``score`` sums the steps' scores; ``level`` is the hardest
  technique's level, raised while the score exceeds that level's maximum
  (Easy <= 800, Medium <= 1000, Hard <= 1600, Unfair <= 1800, then Extreme).
- ``category``, four classes: *Simple* (naked singles alone finish it), *Easy*
  (singles), *Intermediate* (the first tier: subsets and locked candidates),
  *Expert* (anything beyond: second-tier techniques or guessing).

Defined results: an already solved grid rates 0.0, Easy, Simple; conflicting
givens give status ``invalid`` (ratings 0.0, no level or category); a
contradiction found by logic gives ``contradiction`` (no solution, or, if a
uniqueness technique was used, not a unique one); a puzzle logic cannot finish
gives ``stuck``, level Extreme, category Expert, rated by the steps it took.

>>> r = rate("1... 3..2 ...3 ..2.")
>>> r.status, r.er, r.level, r.category, r.solved_by_logic
('solved', 1.2, 'Easy', 'Simple', True)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

from solvers.grid import Grid
from solvers.human.engine import CONTRADICTION, SOLVED, VERSION, propagate
from solvers.human.state import CandidateState
from solvers.human.table import BY_NAME, GROUPS, LEVELS, config_name, resolve
from solvers.verify import conflicts

LEVEL_MAX_SCORE = {"Easy": 800, "Medium": 1000, "Hard": 1600, "Unfair": 1800}
CATEGORIES = ("Simple", "Easy", "Intermediate", "Expert")
ENGINE = f"sudoku-bench human engine {VERSION}"

_NAKED_ONLY = ("full_house", "naked_single")


@dataclass(frozen=True)
class Rating:
    """The difficulty of one puzzle under one technique configuration."""

    status: str  # solved | stuck | contradiction | invalid
    solved_by_logic: bool
    er: float
    ep: float
    ed: float
    score: int
    level: str | None
    category: str | None
    counts: dict[str, int] = field(default_factory=dict)  # technique -> steps, table order
    steps: int = 0
    hardest: str | None = None  # technique of the hardest step
    open_cells: int = 0  # cells left open (when stuck)
    uniqueness_used: bool = False
    engine: str = ENGINE
    config: str = "all"

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (``class`` is the category)."""
        out = asdict(self)
        out["class"] = out.pop("category")
        return out


def level_for(score: int, hardest_level: str) -> str:
    """HoDoKu-style level: the hardest technique's, raised while the score exceeds its maximum."""
    i = LEVELS.index(hardest_level)
    while i < len(LEVELS) - 1 and score > LEVEL_MAX_SCORE[LEVELS[i]]:
        i += 1
    return LEVELS[i]


def rate(
    grid: Grid | str,
    techniques: str | Iterable[str] | None = None,
    *,
    solution: Grid | None = None,
) -> Rating:
    """Rate a puzzle by solving it with the engine (easiest step first).

    `techniques` selects the configuration as in `propagate` (None: all
    enabled).  `solution` turns on the soundness checks.
    """
    if isinstance(grid, str):
        grid = Grid.parse(grid)
    techs = resolve(techniques)
    config = config_name(techs)
    if conflicts(grid):
        return Rating("invalid", False, 0.0, 0.0, 0.0, 0, None, None, config=config)
    state = CandidateState.from_grid(grid)
    result = propagate(state, techs and tuple(t.name for t in techs), solution=solution)
    steps = result.steps
    er = ep = ed = 0.0
    hardest = None
    placed = False
    score = 0
    for i, step in enumerate(steps):
        r = step.rating
        if i == 0:
            ed = r
        if r > er:
            er, hardest = r, step.technique
        if not placed:
            ep = max(ep, r)
            placed = bool(step.placements)
        score += BY_NAME[step.technique].score
    counts = {t.name: result.counts[t.name] for t in techs if t.name in result.counts}
    common = dict(
        counts=counts,
        steps=len(steps),
        hardest=hardest,
        open_cells=state.empty,
        uniqueness_used=result.uniqueness_used,
        config=config,
    )
    if result.status == SOLVED:
        levels = [BY_NAME[name].level for name in counts] or ["Easy"]
        level = level_for(score, max(levels, key=LEVELS.index))
        category = _category(grid, counts, techs)
        return Rating(SOLVED, True, er, ep, ed, score, level, category, **common)
    if result.status == CONTRADICTION:
        return Rating(CONTRADICTION, False, er, ep, ed, score, None, None, **common)
    return Rating("stuck", False, er, ep, ed, score, "Extreme", "Expert", **common)


def _category(grid: Grid, counts: dict[str, int], techs) -> str:
    used = set(counts)
    if used <= set(_NAKED_ONLY):
        return "Simple"
    if used <= set(GROUPS["singles"]):
        naked = propagate(CandidateState.from_grid(grid), _NAKED_ONLY)
        return "Simple" if naked.solved else "Easy"
    if all(BY_NAME[name].tier == 1 for name in used):
        return "Intermediate"
    return "Expert"
