"""Difficulty ratings of a solve path, on the scales people already use.

- Sudoku-Explainer style: ``er`` is the hardest step, ``ep`` the hardest step
  up to the first placement, ``ed`` the first step (the easiest way in).
- HoDoKu: ``score`` sums HoDoKu's scores of the steps of a second pass
  that tries the techniques in HoDoKu's order (`solvers.human.hodoku_path`);
  ``level`` is the highest level of the HoDoKu techniques that pass used, raised
  while the score exceeds that level's maximum (Easy <= 800, Medium <= 1000,
  Hard <= 1600, Unfair <= 1800, then Extreme).
- ``category``, four classes: *Simple* (naked singles alone finish it), *Easy*
  (singles do), *Intermediate* (the first tier does: subsets and locked
  candidates), *Expert* (it needs more: second-tier techniques or guessing).

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
from solvers.human.engine import CONTRADICTION, SOLVED, VERSION, PropagationResult, propagate
from solvers.human.hodoku_path import hodoku_path
from solvers.human.state import CandidateState
from solvers.human.table import BY_NAME, GROUPS, LEVELS, config_name, resolve
from solvers.verify import conflicts

LEVEL_MAX_SCORE = {"Easy": 800, "Medium": 1000, "Hard": 1600, "Unfair": 1800}
CATEGORIES = ("Simple", "Easy", "Intermediate", "Expert")
ENGINE = f"sudoku-bench human engine {VERSION}"

_NAKED_ONLY = ("full_house", "naked_single")
_SINGLES = frozenset(GROUPS["singles"])
_DIRECT = frozenset(GROUPS["direct"])


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
    """HoDoKu's level: the hardest technique's, raised while the score exceeds its maximum."""
    i = LEVELS.index(hardest_level)
    while i < len(LEVELS) - 1 and score > LEVEL_MAX_SCORE[LEVELS[i]]:
        i += 1
    return LEVELS[i]


def rate(
    grid: Grid | str,
    techniques: str | Iterable[str] | None = None,
    *,
    solution: Grid | None = None,
    profile: dict[str, float] | None = None,
) -> Rating:
    """Rate a puzzle by solving it with the engine (easiest step first); a puzzle with
    constraints by the variant engine (`solvers.human.variant.rating`).

    `techniques` selects the configuration as in `propagate` (None: all
    enabled).  `solution` turns on the soundness checks; `profile` (a dict)
    accumulates the seconds each technique spent searching.
    """
    if isinstance(grid, str):
        grid = Grid.parse(grid)
    if grid.constraints:  # a variant puzzle: the variant engine rates it
        from solvers.human.variant.rating import rate_variant

        return rate_variant(grid, techniques, solution=solution)
    techs = resolve(techniques)
    if conflicts(grid):
        return Rating("invalid", False, 0.0, 0.0, 0.0, 0, None, None, config=config_name(techs))
    names = tuple(t.name for t in techs)
    start = CandidateState.from_grid(grid)
    result = propagate(start.copy(), names, solution=solution, profile=profile)
    return rating_of(grid, result, start, solution=solution)


def rating_of(
    grid: Grid,
    result: PropagationResult,
    start: CandidateState | None = None,
    *,
    solution: Grid | None = None,
) -> Rating:
    """The rating of a propagation that started from `grid` (see `rate`); `start`,
    the untouched state of `grid`, saves rebuilding it; `solution` checks the steps of
    the HoDoKu-order pass too."""
    start = start or CandidateState.from_grid(grid)
    techs = resolve(result.config)
    steps = result.steps
    er = ep = ed = 0.0
    hardest = None
    placed = False
    for i, step in enumerate(steps):
        r = step.rating
        if i == 0:
            ed = r
        if r > er:
            er, hardest = r, step.technique
        if not placed:
            ep = max(ep, r)
            placed = bool(step.placements)
    counts = {t.name: result.counts[t.name] for t in techs if t.name in result.counts}
    # solved by sound steps alone (no uniqueness assumed), the puzzle has one solution
    unique = result.state.to_grid() if result.solved and not result.uniqueness_used else None
    hodoku = hodoku_path(grid, result.config, start, solution=solution, unique=unique)
    score = hodoku.score

    def rating(status: str, level: str | None, category: str | None) -> Rating:
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
            steps=len(steps),
            hardest=hardest,
            open_cells=result.state.empty,
            uniqueness_used=result.uniqueness_used,
            config=result.config,
        )

    if result.status == SOLVED:
        level = level_for(score, max(hodoku.levels or {"Easy"}, key=LEVELS.index))
        return rating(SOLVED, level, _category(start, counts, result.config))
    if result.status == CONTRADICTION:
        return rating(CONTRADICTION, None, None)
    return rating("stuck", "Extreme", "Expert")


def _category(start: CandidateState, counts: dict[str, int], config: str) -> str:
    """The class: the smallest of the nested technique sets that finishes the puzzle.

    The engine's path tells most of it; when it used a direct technique (tried
    before naked singles, so used even where singles alone would do) or a
    second-tier technique (which can come before a first-tier one in the
    table), runs with the smaller sets decide.
    """
    used = set(counts)
    if used <= set(_NAKED_ONLY):
        return "Simple"
    if used <= _SINGLES | _DIRECT:
        if propagate(start.copy(), _NAKED_ONLY).solved:
            return "Simple"
        if used <= _SINGLES or propagate(start.copy(), GROUPS["singles"]).solved:
            return "Easy"
    if all(BY_NAME[name].tier == 1 for name in used):
        return "Intermediate"
    tier1 = [t.name for t in resolve(config) if t.tier == 1]
    if tier1 and propagate(start.copy(), tier1).solved:
        return "Intermediate"
    return "Expert"
