"""`human`: the propagation engine alone, as a solver.

It never guesses: when no technique applies it answers ``STUCK`` with the
candidate grid (``stats["candidates"]``, one token per cell).  Every step is a
deduction true in every solution, so a grid finished by logic alone is the
only solution (``exhausted=True``), and a contradiction proves there is none
(``UNSOLVABLE``) -- unless a uniqueness technique (unique rectangle, BUG+1)
was used, which holds only for puzzles with one solution; then neither claim
is made.  ``nodes`` counts engine steps, so ``budget`` caps the steps.

Puzzles with constraints of the kinds in `solvers.human.variant.KINDS` (region
and neighbour rules, killer cages) go to the variant engine, which assumes no
uniqueness; classic puzzles never do.
"""

from __future__ import annotations

from typing import Any

from solvers.base import Limits, Param, Solver, SolveResult, Status
from solvers.grid import Grid
from solvers.human.engine import PropagationResult, propagate
from solvers.human.hodoku_chains import compiled_best
from solvers.human.hodoku_chains import compiled_fits as chains_compiled
from solvers.human.hodoku_finders import COMPILED as SUBSETS_COMPILED
from solvers.human.hodoku_finders import compiled_sets
from solvers.human.hodoku_path import only_solution
from solvers.human.hodoku_tabling import compiled_conclusion, compiled_fits
from solvers.human.state import CandidateState
from solvers.human.table import GROUPS, resolve
from solvers.human.techniques import (
    als,
    compiled_branches,
    grouped_links,
    one_digit,
    sue_de_coq,
    x_forcing,
)
from solvers.human.techniques.aligned import COMPILED as ALIGNED_COMPILED
from solvers.human.techniques.aligned import compiled_pair, compiled_triple
from solvers.human.techniques.als_wings import COMPILED as WINGS_COMPILED
from solvers.human.techniques.als_wings import compiled_wing
from solvers.human.techniques.branches import Context
from solvers.human.techniques.common import cells_with, peer_masks
from solvers.human.techniques.finned_fish import COMPILED as FISH_COMPILED
from solvers.human.techniques.finned_fish import compiled_search
from solvers.human.techniques.nested import compiled_hints
from solvers.human.techniques.one_digit import COMPILED as ONE_DIGIT_COMPILED
from solvers.human.techniques.static_graph import StaticGraph
from solvers.human.techniques.sue_de_coq import COMPILED as SUE_DE_COQ_COMPILED
from solvers.human.techniques.x_forcing import COMPILED as X_FORCING_COMPILED
from solvers.human.trace import pencilmarks
from solvers.human.variant import KINDS, VariantResult, VariantState, propagate_variant
from solvers.registry import register

TECHNIQUES_HELP = (
    "the techniques to use: a group (" + ", ".join(GROUPS) + ") or technique names joined by +"
)


class TechniquesParam(Param):
    """A technique configuration, checked when the solver is made."""

    def coerce(self, name: str, value: Any) -> Any:
        value = super().coerce(name, value)
        try:
            resolve(value)
        except ValueError as exc:
            from solvers.base import UnknownOption

            raise UnknownOption(f"parameter {name}={value!r}: {exc}") from None
        return value


def engine_stats(result: PropagationResult | VariantResult) -> dict[str, Any]:
    """The normalised counters of a propagation, with steps per technique."""
    return {
        "nodes": len(result.steps),
        "guesses": 0,
        "backtracks": 0,
        "propagations": result.state.changes,
        "steps": len(result.steps),
        **result.counts,
    }


@register
class Human(Solver):
    name = "human"
    family = "human"
    complete = False
    counts = False
    traces = True
    summary = (
        "human-style propagation: singles, subsets, locked candidates, fish, wings, chains "
        "(region, neighbour and killer rules on variants); STUCK when logic runs out"
    )
    source = (
        "the human-style solvers of the project's write-ups (Magic Sudoku; the 'ibug' solver; "
        "Sudoku Kyo), with Sudoku Explainer / HoDoKu technique ratings"
    )
    parameters = {"techniques": TechniquesParam("all", TECHNIQUES_HELP)}
    constraint_kinds = KINDS

    def warm_up(self) -> None:
        """Load the compiled kernels of the (+) and nested forcing-chain searches (with
        the ``fast`` extra): their first call in a process loads them from numba's cache,
        which must not fall inside a timed solve."""
        super().warm_up()
        load_kernels()

    def _solve(self, puzzle: Grid, limit: int, limits: Limits, trace: bool) -> SolveResult:
        if puzzle.constraints:
            return self._solve_variant(puzzle, limits, trace)
        state = CandidateState.from_grid(puzzle)
        result = propagate(state, self.options["techniques"], trace=trace, limits=limits)
        stats = engine_stats(result)
        steps = tuple(result.steps) if trace else None
        proof = not result.uniqueness_used
        if result.solved:
            return SolveResult(Status.SOLVED, (state.to_grid(),), proof, stats, steps)
        if result.contradiction:
            if proof:
                return SolveResult(Status.UNSOLVABLE, (), True, stats, steps, result.reason or "")
            return SolveResult(
                Status.STUCK,
                (),
                False,
                stats,
                steps,
                f"contradiction after a uniqueness technique ({result.reason}): "
                "the puzzle has no unique solution",
            )
        stats["candidates"] = pencilmarks(state.snapshot())
        if result.stopped_by in (Status.TIMEOUT, Status.BUDGET):
            return SolveResult(Status(result.stopped_by), (), False, stats, steps)
        return SolveResult(
            Status.STUCK,
            (),
            False,
            stats,
            steps,
            f"logic ran out with {state.empty} open cells (candidates in stats)",
        )

    def _solve_variant(self, puzzle: Grid, limits: Limits, trace: bool) -> SolveResult:
        """A puzzle with constraints: the variant engine (`solvers.human.variant`), which
        assumes nothing about uniqueness, so its answers are proofs as the classic ones."""
        state = VariantState.of(puzzle)
        result = propagate_variant(state, self.options["techniques"], trace=trace, limits=limits)
        stats = engine_stats(result)
        steps = tuple(result.steps) if trace else None
        if result.solved:
            return SolveResult(Status.SOLVED, (state.to_grid(),), True, stats, steps)
        if result.contradiction:
            return SolveResult(Status.UNSOLVABLE, (), True, stats, steps, result.reason or "")
        stats["candidates"] = pencilmarks(state.snapshot())
        if result.stopped_by in (Status.TIMEOUT, Status.BUDGET):
            return SolveResult(Status(result.stopped_by), (), False, stats, steps)
        return SolveResult(
            Status.STUCK,
            (),
            False,
            stats,
            steps,
            f"logic ran out with {state.empty} open cells (candidates in stats)",
        )


SOLVED_GRID = "".join(str((3 * (r % 3) + r // 3 + c) % 9 + 1) for r in range(9) for c in range(9))
"""A solved 9x9 grid, for `load_kernels` to call the compiled solver on."""


def load_kernels() -> None:
    """Call each compiled kernel once, on the empty 9x9 grid (its types are those of every
    grid), so that they are loaded (or compiled, after an install); nothing without numba."""
    state = CandidateState.from_grid(Grid.empty(3, 3))
    if compiled_fits(state.shape):
        compiled_conclusion(state, False)
    if chains_compiled(state):
        compiled_best(state, "aic", -1)
    if SUBSETS_COMPILED:
        compiled_sets(state, 2, [0])
    only_solution(Grid.parse(SOLVED_GRID))
    if ALIGNED_COMPILED:
        compiled_triple(state, 0, peer_masks(state.shape))
        compiled_pair(state, 0, peer_masks(state.shape))
    if WINGS_COMPILED:
        compiled_wing(state, 3, "wxyz_wing")
    if FISH_COMPILED:
        compiled_search(state, 1, True, 2)
    compiled_hints(state.shape, state.cand, state.pos, state.placed, True, True)
    StaticGraph(state).shared_groups(True)  # (and the reach's kernel)
    if X_FORCING_COMPILED:
        x_forcing.compiled_best(state, cells_with(state, 1), 1)
    if ONE_DIGIT_COMPILED:
        one_digit.compiled_conflicts(state.shape, 1, 0, 1)
    if SUE_DE_COQ_COMPILED:
        sue_de_coq.compiled_crossing(state, 2 * state.n, 0, 0b111)
    compiled_branches.load(Context(state))
    if als.COMPILED:
        als.load_compiled(state)
    if grouped_links.COMPILED:
        grouped_links.compiled_chain(state, 1, 2, cells_with(state, 1))
