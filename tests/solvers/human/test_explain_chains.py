"""Forcing chains explained link by link, and chains in Eureka notation."""

from __future__ import annotations

import pytest

from solvers.grid import Grid, shape
from solvers.human import CandidateState, propagate
from solvers.human.chain_text import proof_lines
from solvers.human.proof import MODES, forcing_proof
from solvers.human.step import Step
from solvers.human.trace import english

# The enjoysudoku forum's hardest puzzles (2011-06-26), puzzle 20: its fifth step is a
# nested forcing chain (level 2: static forcing chains inside the branches).
FORUM = "........6..2....4..1...798....79.....8..5......3..8.1...6....2..9...51..4.......8"
NINE = shape(3, 3)


@pytest.fixture(scope="module")
def forum_steps() -> list[Step]:
    state = CandidateState.from_grid(Grid.parse(FORUM))
    return propagate(state, None, trace=True, max_steps=5).steps


def test_the_forum_nested_chain_keeps_its_rating_and_text(forum_steps):
    step = forum_steps[4]
    assert step.technique == "nested_forcing_chain"
    # 9.5 plus the length bonus of 75 facts, the inner chains' counted: Sudoku Explainer's
    # fifth step on this puzzle is the same chain (r5c4=4 on, the clash at r5c8=9, 75), 10.4
    assert step.rating == 10.4
    assert english(step) == (
        "Nested forcing chain: assuming r5c4=4 leads to a contradiction (75 facts): "
        "removes 4 from r5c4"
    )


def test_the_forum_nested_chain_lists_its_links(forum_steps):
    proof = forcing_proof(forum_steps[4])
    assert proof is not None
    lines = proof_lines(proof)
    assert lines[:3] == [
        "If r5c4=4:",
        "  r5c4=4 -> r5c4<>1 -> r9c6<>1",
        "  r5c4=4 -> r5c4<>2",
    ]
    # a fact an inner chain gave: the outer facts that chain needed (in reading order), then
    # a contradiction from the outer branch's candidates, indented one level
    at = lines.index(
        "  r4c6<>6 + r5c6<>6 + r6c2<>6 + r6c7<>6 -> r4c8<>6 (r4c8=6 leads to a contradiction:)"
    )
    # the inner chain itself: a static forcing chain on the branch's candidates (8 facts)
    assert lines[at + 1 : at + 3] == [
        "    r4c8=6 -> r5c7<>6 -> r9c7=6 -> r9c6<>6 -> r2c6=6 -> r2c2<>6 -> r4c2=6 -> r4c8<>6",
        "    r4c8=6 and r4c8<>6 cannot both hold",
    ]
    assert lines[-3:] == [
        "  r4c8<>6 + r5c7<>6 + r6c7<>6 -> r5c8=6 -> r5c8<>9",
        "  r5c8=9 and r5c8<>9 cannot both hold",
        "so r5c4<>4",
    ]
    nested = [line for line in lines if line.endswith("leads to a contradiction:)")]
    assert len(nested) == 4


def test_every_forcing_step_is_rebuilt_with_its_own_complexity(forum_steps):
    forcing = [s for s in forum_steps if s.technique in MODES]
    assert len(forcing) == 3
    for step in forcing:
        proof = forcing_proof(step)
        assert proof is not None  # None when the rebuilt facts do not count as the step's
        for branch in proof.branches:
            seen: set[int] = set()
            for link in branch.links:
                assert set(link.because) <= seen  # a cause is told before what it forces
                seen.add(link.fact)
            assert set(branch.end) <= seen


def test_a_step_without_its_grid_has_no_proof(forum_steps):
    assert forcing_proof(forum_steps[4]._replace(before=None)) is None
    assert forcing_proof(forum_steps[0]) is None  # a hidden single


def test_a_proof_that_does_not_match_the_step_is_refused(forum_steps):
    step = forum_steps[4]
    assert forcing_proof(step._replace(detail=(*step.detail[:2], 25))) is None


def test_an_x_chain_reads_in_eureka_notation():
    chain = ((0, 5), (4, 5), (22, 5), (26, 5))  # r1c1 = r1c5 - r3c5 = r3c9
    step = Step("x_chain", (), ((8, 5),), (), (), (5,), 6.6, NINE, chain)
    assert english(step).startswith("X-chain on 5: (5)r1c1=(5)r1c5-(5)r3c5=(5)r3c9, ")


def test_an_xy_chain_reads_in_eureka_notation():
    chain = ((0, 2), (0, 5), (5, 5), (5, 7))
    step = Step("xy_chain", (), ((3, 2),), (), (), (2,), 6.6, NINE, chain)
    assert english(step).startswith("XY-chain: (2=5)r1c1-(5=7)r1c6, ")


def test_a_bidirectional_cycle_reads_as_a_eureka_loop():
    # r3c3 {3,8}, r7c3 {3,9}, r7c4 {7,9}, r3c4 {7,8}
    chain = ((20, 3), (56, 3), (56, 9), (57, 9), (57, 7), (21, 7), (21, 8), (20, 8))
    states = (True, False) * 4
    step = Step("bidirectional_cycle", (), ((24, 8),), (), (), (), 6.5, NINE, chain)
    step = step._replace(detail=("y", states))
    assert english(step).startswith(
        "Bidirectional Y-cycle: (3)r3c3-(3=9)r7c3-(9=7)r7c4-(7=8)r3c4-(8=3)r3c3, a loop; "
    )


def test_a_level_3_inner_unit_chain_lists_every_case():
    from tests.solvers.human.test_nested_levels import FORUM as LEVEL_3

    state = CandidateState.from_grid(Grid.parse(LEVEL_3))
    step = propagate(state, None, trace=True, max_steps=1).steps[0]
    assert step.technique == "nested_multiple_chain"
    proof = forcing_proof(step)
    assert proof is not None
    lines = proof_lines(proof)
    # a static unit chain inside the branch: the places of 5 in box 1 all remove 2 from r2c2
    at = lines.index(
        "  r1c1<>5 + r1c2<>5 + r2c9<>6 + r5c5<>5 + r5c7<>5 -> r2c2<>2 "
        "(every case below gives r2c2<>2:)"
    )
    assert lines[at + 1 : at + 7] == [
        "    If r2c1=5:",
        "      r2c1=5 -> r2c9<>5 -> r2c9=2 -> r2c2<>2",
        "    If r2c2=5:",
        "      r2c2=5 -> r2c2<>2",
        "    If r3c1=5:",
        "      r3c1=5 -> r5c1<>5 -> r5c9=5 -> r2c9<>5 -> r2c9=2 -> r2c2<>2",
    ]
