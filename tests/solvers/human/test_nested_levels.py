"""The rules inside forcing-chain branches, level by level, as Sudoku Explainer has them:
pairs and X-Wings from the (+) level on, static forcing chains from level 2, static cell
and region forcing chains from level 3; every fact they give is sound."""

from __future__ import annotations

import pytest

import solvers
from solvers.grid import Grid
from solvers.human.state import CandidateState
from solvers.human.techniques.branches import NESTED, NESTED_MULTIPLE, PLUS, Context
from solvers.human.techniques.inner_rules import other_rules
from solvers.human.techniques.nested import chain_rules

# The enjoysudoku forum's hardest puzzles, the first of the sample Sudoku Explainer rates
# 11.0; its grid before its first nested step (the singles and easier steps applied):
# no static forcing chain inside a (+) branch concludes anything (level 2), static cell
# and unit chains do (level 3).
FORUM = "..34..7......89.3..8......42...6.....3.9...4.6.1...2...7.8...9...5.....1.....5..."
FORUM_GRID = """
159 12569 3 4 125 126 7 12568 25689
1457 12456 2467 12567 8 9 156 3 256
1579 8 2679 123567 12357 12367 1569 1256 4
2 459 4789 1357 6 13478 13589 1578 35789
578 3 78 9 1257 1278 1568 4 5678
6 459 1 357 3457 3478 2 578 35789
134 7 246 8 1234 12346 3456 9 2356
3489 2469 5 2367 23479 23467 3468 2678 1
13489 12469 24689 12367 123479 5 3468 2678 23678
"""


def _branch_grid(removed: list[tuple[int, int]]):
    """An empty grid's context, and a branch of it that removed `removed` ((cell, digit)):
    its candidates, places and facts, and a recorder for the facts a rule adds."""
    start = CandidateState.from_grid(Grid.empty(3, 3))
    ctx = Context(start)
    branch = start.copy()
    parents: dict[int, tuple[int, ...]] = {}
    for cell, d in removed:
        branch.eliminate(cell, d)
        parents[ctx.off + cell * 9 + d - 1] = ()
    added: list[tuple[int, int, tuple[int, ...]]] = []

    def off(cell: int, k: int, why: tuple[int, ...]):
        added.append((cell, k + 1, why))
        parents[ctx.off + cell * 9 + k] = why
        return None

    return ctx, branch, parents, off, added


def test_a_hidden_pair_in_a_branch_rests_on_the_places_it_removed():
    # digits 1 and 2 gone from r1c3..r1c9: a hidden pair in r1c1, r1c2
    removed = [(c, d) for c in range(2, 9) for d in (1, 2)]
    ctx, b, parents, off, added = _branch_grid(removed)
    assert other_rules(ctx, b.cand, b.pos, parents, off) is False
    assert {(cell, d) for cell, d, _ in added} == {(c, d) for c in (0, 1) for d in range(3, 10)}
    why = {x for _, _, w in added for x in w}
    assert why == {ctx.off + c * 9 + d - 1 for c, d in removed}


def test_a_naked_pair_in_a_branch_rests_on_the_digits_it_removed():
    # r1c1 and r1c2 left with 1 and 2: a naked pair, in the box first (boxes, columns, rows)
    removed = [(c, d) for c in (0, 1) for d in range(3, 10)]
    ctx, b, parents, off, added = _branch_grid(removed)
    assert other_rules(ctx, b.cand, b.pos, parents, off) is False
    box = {(cell, d) for cell in (2, 9, 10, 11, 18, 19, 20) for d in (1, 2)}
    row = {(cell, d) for cell in range(2, 9) for d in (1, 2)}
    assert {(cell, d) for cell, d, _ in added} == box | row
    assert [(cell, d) for cell, d, _ in added[:2]] == [(2, 1), (2, 2)]
    assert {x for _, _, w in added for x in w} == {ctx.off + c * 9 + d - 1 for c, d in removed}


def test_an_x_wing_in_a_branch_rests_on_the_places_it_removed():
    # 5 left in rows 1 and 5 at c2 and c7 only: an X-Wing on those columns
    removed = [(r * 9 + c, 5) for r in (0, 4) for c in range(9) if c not in (1, 6)]
    ctx, b, parents, off, added = _branch_grid(removed)
    assert other_rules(ctx, b.cand, b.pos, parents, off) is False
    expected = {(r * 9 + c, 5) for r in range(9) if r not in (0, 4) for c in (1, 6)}
    assert {(cell, d) for cell, d, _ in added} == expected
    assert {x for _, _, w in added for x in w} == {ctx.off + c * 9 + 4 for c, _ in removed}


def test_a_rule_that_needs_no_fact_of_the_branch_is_left_out():
    ctx, b, parents, off, added = _branch_grid([])
    b.cand[0] = b.cand[1] = 0b11  # a naked pair the branch did not make: no rule parents
    assert other_rules(ctx, b.cand, b.pos, parents, off) is None
    assert added == []


@pytest.fixture(scope="module")
def forum():
    state = CandidateState.from_candidates(FORUM_GRID)
    solution = solvers.get("dlx").solve(Grid.parse(FORUM)).solution
    return state, solution.cells


@pytest.mark.parametrize("mode", [PLUS, NESTED, NESTED_MULTIPLE])
def test_branches_of_true_candidates_hold_only_true_facts(forum, mode):
    """A branch assuming a candidate of the solution, whatever rules it uses inside
    (inner chains included), ends without a contradiction and every fact agrees with the
    solution."""
    state, truth = forum
    ctx = Context(state)
    inner = 0
    for cell in range(0, 81, 4):
        if state.values[cell]:
            continue
        seed = cell * 9 + truth[cell] - 1
        b = ctx.branch([seed], mode)
        assert b.conflict is None
        for fact in b.parents:
            on = fact < ctx.off
            c, k = divmod(fact % ctx.off, 9)
            assert (truth[c] == k + 1) == on, ctx.name(fact)
        inner += len(b.inner or ())
    if mode != PLUS:
        assert inner > 0  # the inner chains gave facts


def test_level_three_inner_chains_need_outer_facts(forum):
    """Inside a level-3 branch, an inner cell or unit chain gives a fact; it rests on outer
    facts (its rule parents), and its complexity counts in the branch."""
    state, truth = forum
    ctx = Context(state)
    found = False
    for cell in range(81):
        if state.values[cell] or found:
            continue
        b = ctx.branch([cell * 9 + truth[cell] - 1], NESTED_MULTIPLE)
        for fact, (_, complexity) in (b.inner or {}).items():
            assert b.parents[fact], "an inner chain's fact rests on outer facts"
            assert complexity > 0
            found = True
    assert found


def test_chain_rules_leave_a_grid_without_outer_facts_alone(forum):
    state, _ = forum
    ctx = Context(state)
    added: list = []
    found = chain_rules(
        ctx, NESTED_MULTIPLE, state.cand[:], state.pos[:], state.placed[:], {}, added, {}
    )
    assert found is None
    assert added == []
