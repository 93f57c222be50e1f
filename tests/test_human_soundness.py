"""Soundness mode over generated puzzles: no step may contradict the known solution.

Puzzles are minimal ones made here: random valid grids (dlx completes a few
random givens) with clues removed, in random order, while the solution stays
unique.  Minimal puzzles are hard enough to reach the second-tier techniques;
single-technique configurations make each technique do more of the work.
"""

from __future__ import annotations

import random
from functools import cache

import pytest

import solvers
from solvers.grid import Grid
from solvers.human import CandidateState, UnsoundStep, propagate
from solvers.human.step import Step
from solvers.human.table import GROUPS, TECHNIQUES


def _random_solution(box: tuple[int, int], rng: random.Random) -> Grid:
    dlx = solvers.get("dlx")
    n = box[0] * box[1]
    while True:
        cells = [0] * (n * n)
        for cell in rng.sample(range(n * n), n):
            cells[cell] = rng.randint(1, n)
        result = dlx.solve(Grid(box[0], box[1], tuple(cells)))
        if result.status is solvers.Status.SOLVED:
            return result.solution


def _minimal_puzzle(solution: Grid, rng: random.Random) -> Grid:
    dlx = solvers.get("dlx")
    cells = list(solution.cells)
    for cell in rng.sample(range(len(cells)), len(cells)):
        keep = cells[cell]
        cells[cell] = 0
        if not dlx.solve(solution.replace(cells), limit=2).unique:
            cells[cell] = keep
    return solution.replace(cells)


@cache
def generated(box: tuple[int, int], count: int, seed: int) -> tuple[tuple[Grid, Grid], ...]:
    """(puzzle, solution) pairs, reproducible from the seed."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        solution = _random_solution(box, rng)
        out.append((_minimal_puzzle(solution, rng), solution))
    return tuple(out)


CONFIGS = ["all", "tier1"] + [
    f"singles+{t.name}" for t in TECHNIQUES if t.family not in ("singles",) and t.tier == 2
]


@pytest.mark.parametrize("config", CONFIGS)
def test_every_step_is_sound_on_generated_9x9(config):
    checked = 0
    # forcing chains alone do nearly all the work of a puzzle (slowly): fewer puzzles
    count = 4 if any(f in config for f in GROUPS["forcing"]) else 12
    for puzzle, solution in generated((3, 3), 12, 2024)[:count]:
        result = propagate(CandidateState.from_grid(puzzle), config, solution=solution)
        checked += result.checked
        assert result.status != "contradiction", puzzle.format()
        if result.solved:
            assert result.state.to_grid() == solution
    assert checked > 0


@pytest.mark.parametrize("box", [(2, 2), (2, 3), (3, 4)])
def test_every_step_is_sound_on_other_shapes(box):
    count = 1 if box == (3, 4) else 8
    for puzzle, solution in generated(box, count, 99):
        result = propagate(CandidateState.from_grid(puzzle), solution=solution)
        assert result.status in ("solved", "stuck")
        if result.solved:
            assert result.state.to_grid() == solution


def test_the_generated_set_reaches_second_tier_techniques():
    used = set()
    for puzzle, solution in generated((3, 3), 12, 2024):
        used |= set(propagate(CandidateState.from_grid(puzzle), solution=solution).counts)
    tier2 = {t.name for t in TECHNIQUES if t.tier == 2}
    assert len(used & tier2) >= 3, used


def test_a_wrong_step_is_caught():
    puzzle, solution = generated((2, 2), 1, 5)[0]
    wrong = solution.replace([(v % 4) + 1 for v in solution.cells])
    with pytest.raises(UnsoundStep, match="unsound"):
        propagate(CandidateState.from_grid(puzzle), solution=wrong)


def test_unsound_step_message_names_the_step():
    grid = Grid.parse("1234341221434321")
    step = Step("naked_single", ((0, 2),), (), (0,), (), (2,), 2.3, grid.shape)
    err = UnsoundStep(step, "places 2 in r1c1, the solution has 1")
    assert "naked_single" in str(err)
    assert "r1c1" in str(err)
