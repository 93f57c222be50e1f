"""One deduction of the human-style engine: what it changes and why."""

from __future__ import annotations

from typing import NamedTuple

from solvers.grid import Shape


class Step(NamedTuple):
    """A deduction: the technique, its placements and eliminations, and what justifies it.

    ``placements`` and ``eliminations`` are ``(cell, digit)`` pairs; ``cells``,
    ``units`` and ``digits`` are the pattern that justifies them (for a naked
    pair: its two cells, its unit and its two digits).  ``chain`` lists the
    ``(cell, digit)`` nodes of a chain, in order, for chain techniques.
    ``rating`` is the Sudoku-Explainer-style difficulty of this very step (it
    can depend on the unit kind or the chain length).  ``before`` is the
    candidate grid before the step (`CandidateState.snapshot`), kept only when
    the engine traces.  ``detail`` carries what a forcing chain assumed and how
    it concluded.  ``str(step)`` is the plain-English explanation.
    """

    technique: str
    placements: tuple[tuple[int, int], ...]
    eliminations: tuple[tuple[int, int], ...]
    cells: tuple[int, ...]
    units: tuple[int, ...]
    digits: tuple[int, ...]
    rating: float
    shape: Shape
    chain: tuple[tuple[int, int], ...] = ()
    before: tuple[int, ...] | None = None
    detail: tuple = ()  # technique-specific facts for the explanation (forcing chains)

    def __str__(self) -> str:
        from solvers.human.trace import english

        return english(self)
