"""Difficulty of a puzzle, as the human-style engine rates it, for the generator.

The engine (`solvers.human`) owns the scales; this module adapts its
`rate(grid)` answer to what generation and corpora filter on: the HoDoKu
level, the SE-style rating (ER), the score, the class, and the techniques the
solve path used.  The engine is imported on first use, so generating without
a difficulty target never loads it.
"""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass
from typing import Any

from solvers.grid import Grid
from solvers.registry import SolverUnavailable

LEVELS = ("Easy", "Medium", "Hard", "Unfair", "Extreme")
"""HoDoKu's levels, easiest first (a puzzle logic cannot finish is Extreme)."""


@dataclass(frozen=True)
class Rated:
    """The parts of a rating the generator filters on."""

    level: str
    er: float
    score: int
    klass: str
    techniques: frozenset[str]
    solved: bool  # logic alone finished the puzzle

    def fields(self) -> dict[str, Any]:
        """A JSON-ready summary."""
        return {
            "level": self.level,
            "er": self.er,
            "score": self.score,
            "class": self.klass,
            "logic": self.solved,
        }


def available() -> bool:
    """True when the human-style engine is installed."""
    try:
        return importlib.util.find_spec("solvers.human") is not None
    except ModuleNotFoundError:
        return False


def require() -> None:
    """Raise `SolverUnavailable` with the reason when the engine is missing."""
    if not available():
        raise SolverUnavailable(
            "difficulty targets (--difficulty, --rating, --require) need the human-style "
            "engine (solvers.human), which is not in this installation"
        )


def level_name(text: str) -> str:
    """The canonical level for a case-insensitive name; ValueError lists the valid ones."""
    for level in LEVELS:
        if level.lower() == text.strip().lower():
            return level
    raise ValueError(f"unknown difficulty {text!r}: expected one of {', '.join(LEVELS)}")


def technique_name(text: str) -> str:
    """The engine's name for a technique given by name or title (``X-Wing``, ``x_wing``)."""
    require()
    human = importlib.import_module("solvers.human")
    key = _key(text)
    for technique in human.TECHNIQUES:
        if key in (_key(technique.name), _key(technique.title)):
            return str(technique.name)
    valid = ", ".join(t.name for t in human.TECHNIQUES)
    raise ValueError(f"unknown technique {text!r}: expected one of {valid}")


def _key(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum() or ch == "+")


# The technique set the built-in corpora were generated and levelled with (the engine's
# techniques before Sudoku Explainer's direct techniques, turbot fish, three strong links
# and forcing chains came in).  Rating with the full set changes levels, so switching
# means rebuilding the corpora (``sudoku-bench corpora build``).
CORPUS_TECHNIQUES = (
    "full_house",
    "hidden_single",
    "naked_single",
    "pointing",
    "claiming",
    "locked_pair",
    "naked_pair",
    "x_wing",
    "hidden_pair",
    "locked_triple",
    "naked_triple",
    "swordfish",
    "hidden_triple",
    "xy_wing",
    "xyz_wing",
    "unique_rectangle",
    "naked_quad",
    "jellyfish",
    "hidden_quad",
    "bug_plus_one",
    "skyscraper",
    "two_string_kite",
    "simple_colouring",
    "w_wing",
    "x_chain",
    "xy_chain",
)


def rate(grid: Grid) -> Rated:
    """Rate a puzzle with the technique set the built-in corpora use (`CORPUS_TECHNIQUES`)."""
    require()
    rating = importlib.import_module("solvers.human").rate(grid, CORPUS_TECHNIQUES)
    return Rated(
        level=rating.level or "",
        er=float(rating.er),
        score=int(rating.score),
        klass=rating.category or "",
        techniques=frozenset(rating.counts),
        solved=bool(rating.solved_by_logic),
    )
