"""Difficulty ratings for the time-vs-difficulty plot, when the records lack them.

The human-style engine (`solvers.human.rating.rate`) gives each puzzle a
Sudoku-Explainer-style rating (ER, the hardest step of the easiest logical
path).  Rating costs milliseconds per puzzle, so a report asks for it only
with ``--rate``; a puzzle logic cannot finish has no ER on the engine's scale
and is rated ``inf`` ("beyond logic"), which the plot draws in its own column.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from harness.report.outcomes import Outcome

BEYOND_LOGIC = math.inf


class RatingUnavailable(ValueError):
    """The human-style engine is not installed."""


def rate_outcomes(outcomes: Iterable[Outcome]) -> dict[tuple[str, str], float]:
    """(corpus, puzzle id) -> ER for every distinct puzzle (as given) of the outcomes."""
    try:
        from solvers.human.rating import rate
    except ImportError as exc:
        raise RatingUnavailable(
            f"--rate needs the human-style engine (solvers.human), which cannot be loaded: {exc}"
        ) from None
    from harness.records import grid_of

    by_text: dict[tuple[str, str], float] = {}
    ratings: dict[tuple[str, str], float] = {}
    for o in outcomes:
        key = (o.corpus, o.puzzle_id)
        if o.variant or key in ratings:
            continue
        text = (o.puzzle, o.box)
        if text not in by_text:
            grid = grid_of(o.puzzle, o.box)
            if grid.constraints:  # reports compare classic ratings only: no rating
                by_text[text] = math.nan
            else:
                rating = rate(grid)
                by_text[text] = rating.er if rating.solved_by_logic else BEYOND_LOGIC
        ratings[key] = by_text[text]
    return ratings
