"""Forcing chains explained link by link, and chains in Eureka notation."""

from __future__ import annotations

import pytest

from solvers.grid import Grid, shape
from solvers.human import CandidateState, propagate
from solvers.human.chain_text import proof_lines
from solvers.human.proof import forcing_proof
from solvers.human.step import Step
from solvers.human.trace import english

# The enjoysudoku forum's hardest puzzles (2011-06-26), puzzle 20: its fifth step is a
# nested forcing chain.
FORUM = "........6..2....4..1...798....79.....8..5......3..8.1...6....2..9...51..4.......8"
NINE = shape(3, 3)


@pytest.fixture(scope="module")
def forum_steps() -> list[Step]:
    state = CandidateState.from_grid(Grid.parse(FORUM))
    return propagate(state, None, trace=True, max_steps=5).steps


def test_the_forum_nested_chain_keeps_its_rating_and_text(forum_steps):
    step = forum_steps[4]
    assert step.technique == "nested_forcing_chain"
    assert step.rating == 10.0
    assert english(step) == (
        "Nested forcing chain: assuming r1c2=3 leads to a contradiction (24 facts): "
        "removes 3 from r1c2"
    )


def test_the_forum_nested_chain_lists_its_links(forum_steps):
    proof = forcing_proof(forum_steps[4])
    assert proof is not None
    lines = proof_lines(proof)
    assert lines[:6] == [
        "If r1c2=3:",
        "  r1c2=3 -> r1c1<>3",
        "  r1c6<>9 (r1c6=9 leads to a contradiction:)",
        "    r1c6=9 -> r1c1<>9 -> r1c1=8 -> r1c4<>8",
        "    r1c6=9 -> r1c3<>9 -> r1c3=7 -> r1c7<>7",
        "    r1c6=9 -> r7c6<>9",
    ]
    assert "    r8c4=2 and r8c4<>2 cannot both hold" in lines
    assert "  r1c4<>9 + r1c6<>9 -> r2c1<>9" in lines
    assert "  r4c3<>1 (r4c3=1 leads to a contradiction:)" in lines
    assert lines[-3:] == [
        "  r5c4<>1 + r7c4<>1 + r9c4<>1 -> r1c4=1",
        "  r1c4=1 and r1c4<>1 cannot both hold",
        "so r1c2<>3",
    ]
    nested = [line for line in lines if line.endswith("leads to a contradiction:)")]
    assert len(nested) == 8


def test_every_forcing_step_is_rebuilt_with_its_own_complexity(forum_steps):
    forcing = [s for s in forum_steps if s.technique.endswith("forcing_chain")]
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
