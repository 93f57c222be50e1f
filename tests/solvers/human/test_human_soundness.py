"""Soundness mode over generated puzzles: no step may contradict the known solution.

Variant puzzles (the built-in 6x6 set; the larger variant corpora are checked in
``test_human_variants.py``) are checked under the same kinds of configurations.

Puzzles are minimal ones made here: random valid grids (dlx completes a few
random givens) with clues removed, in random order, while the solution stays
unique.  Minimal puzzles are hard enough to reach the second-tier techniques;
single-technique configurations make each technique do more of the work.
"""

from __future__ import annotations

import pytest

from corpora.corpus import open_corpus
from solvers.grid import Grid
from solvers.human import CandidateState, UnsoundStep, propagate
from solvers.human.step import Step
from solvers.human.table import GROUPS, TECHNIQUES
from solvers.human.variant import KINDS, VariantState, propagate_variant
from solvers.variants import kinds
from tests.human_fixtures import generated

CONFIGS = ["all", "tier1"] + [
    f"singles+{t.name}" for t in TECHNIQUES if t.family not in ("singles",) and t.tier == 2
]
NESTED_STATIC = ("singles+nested_forcing_chain", "singles+nested_multiple_chain")


@pytest.mark.parametrize("config", CONFIGS)
def test_every_step_is_sound_on_generated_9x9(config):
    checked = 0
    # forcing chains alone do nearly all the work of a puzzle (slowly): fewer puzzles; the
    # nested levels with static inner chains take up to minutes a puzzle: one whose path
    # takes three of them
    count = 4 if any(f in config for f in GROUPS["forcing"]) else 12
    puzzles = generated((3, 3), 12, 2024)
    chosen = puzzles[2:3] if config in NESTED_STATIC else puzzles[:count]
    for puzzle, solution in chosen:
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


VARIANT_CONFIGS = [
    "singles",
    "singles+pointing+claiming",
    "singles+naked_pair+naked_triple+naked_quad",
    "singles+hidden_pair+hidden_triple+hidden_quad",
    "singles+x_wing+swordfish+jellyfish",
    "all",
]


@pytest.mark.parametrize("config", VARIANT_CONFIGS)
def test_every_step_is_sound_on_the_variant_corpus(config):
    # the 6x6 built-in variants of the kinds the engine takes; the techniques only variants
    # have (killer, non-consecutive, house pointing, nishios) are on in every configuration
    corpus = open_corpus("variants6")
    truth = corpus.truth()
    checked = 0
    for p in corpus.puzzles():
        if not kinds(p.grid) <= KINDS:
            continue
        solution = p.grid.replace(tuple(int(ch, 36) for ch in truth[p.id].solution))
        result = propagate_variant(VariantState.of(p.grid), config, solution=solution)
        checked += result.checked
        assert result.status in ("solved", "stuck"), p.id
        if result.solved:
            assert result.state.to_grid().cells == solution.cells
    assert checked > 0
