"""The human engine on variant puzzles: each technique on a hand-checked position, the
built-in variant corpora solved to their truth, and every step checked against the solution."""

from __future__ import annotations

import pytest

import solvers
from corpora.corpus import open_corpus
from solvers.grid import Grid
from solvers.human import rate
from solvers.human.engine import UnsoundStep
from solvers.human.table import BY_NAME
from solvers.human.variant import KINDS, VariantState, assume, basic, killer, propagate_variant
from solvers.human.variant.rating import SCORES
from solvers.variants import AntiKnight, Diagonal, Killer, NonConsecutive, Parity, Thermometer
from solvers.variants import kinds as kinds_of

ROW1 = set(range(9))
BOX1 = {0, 1, 2, 9, 10, 11, 18, 19, 20}


def _state(text: str, *constraints) -> VariantState:
    return VariantState.of(Grid.parse(text).with_constraints(constraints))


# -- each technique on a position checked by hand ---------------------------------
def test_non_consecutive_takes_the_neighbours_digits_one_apart():
    state = _state("2" + "." * 15, NonConsecutive())
    step = basic.non_consecutive(state)
    assert step.eliminations == ((1, 1), (1, 3), (4, 1), (4, 3))
    assert str(step) == (
        "Non-consecutive: r1c1 holds 2, so its orthogonal neighbours cannot hold 1 or 3: "
        "removes 1 and 3 from r1c2, r2c1"
    )


def test_cage_combinations_keep_the_sets_of_the_sum_and_lock_their_digits():
    state = _state("." * 81, Killer((0, 1), 3))
    step = killer.cage_combinations(state)
    assert step.technique == "cage_combinations"
    assert step.rating == 2.4
    outside = (ROW1 | BOX1) - {0, 1}  # they see both cells of the cage: 1 and 2 leave them
    expected = {(c, d) for c in (0, 1) for d in range(3, 10)}
    expected |= {(c, d) for c in outside for d in (1, 2)}
    assert set(step.eliminations) == expected
    assert str(step).startswith(
        "Cage combinations: killer cage r1c1 r1c2 (sum 3) takes the digits 1+2; its set holds "
        "1/2, and a cell that sees all its places for one loses it: removes"
    )


def test_cage_combinations_drop_a_set_the_candidates_cannot_place():
    state = _state("." * 81, Killer((0, 1), 10))
    for d in range(2, 9):
        state.eliminate(0, d)  # r1c1 is 1 or 9: of 1+9, 2+8, 3+7 and 4+6 only 1+9 fits
    step = killer.cage_combinations(state)
    assert step.detail == (10, ((1, 9),))
    assert {d for c, d in step.eliminations if c == 1} == set(range(2, 9))
    assert "takes the digits 1+9; its set holds 1/9" in str(step)


def test_rule_of_45_innies():
    # Row 1 of a 4x4 sums to 10; the cage r1c1 r1c2 inside it sums to 3, so the innies
    # r1c3 and r1c4 sum to 7: 3 and 4, in a row.
    state = _state("." * 16, Killer((0, 1), 3), Killer((2, 6), 5))
    step = killer.rule_of_45(state)
    assert step.units == (0,)
    assert step.cells == (2, 3)
    assert step.detail == ("innies", 7)
    assert step.eliminations == ((2, 1), (2, 2), (3, 1), (3, 2))
    assert step.rating == 3.0
    assert str(step) == (
        "Rule of 45: the cells of row 1 sum to 10; the cages wholly inside leave the innies "
        "r1c3, r1c4, which sum to 7: removes 1 and 2 from r1c3, r1c4"
    )


def test_rule_of_45_outies():
    # Row 1 is covered by a cage of 3 and a cage of 44 that also takes r2c9: 3 + 44 - 45
    # leaves 2 for the outie r2c9 (seven innies are too many to try).
    big = (2, 3, 4, 5, 6, 7, 8, 17)
    state = _state("." * 81, Killer((0, 1), 3), Killer(big, 44))
    step = killer.rule_of_45(state)
    assert step.cells == (17,)
    assert step.detail == ("outies", 2)
    assert step.eliminations == tuple((17, d) for d in (1, 3, 4, 5, 6, 7, 8, 9))
    assert str(step).startswith(
        "Rule of 45: the cells of row 1 sum to 45; the cages that meet them stick out by the "
        "outies r2c9, which sum to 2: removes"
    )


def test_house_pointing_through_a_knights_move():
    # 1 in row 1 only at r1c1 or r1c5: r2c3 sees both (a box with one, a knight's move
    # from the other), so it cannot be 1; no box or line holds both places.
    state = _state("." * 81, AntiKnight())
    for c in ROW1 - {0, 4}:
        state.eliminate(c, 1)
    assert basic.pointing(state) is None
    assert basic.claiming(state) is None
    step = basic.house_pointing(state)
    assert step.eliminations == ((11, 1),)
    assert str(step) == (
        "House pointing: in row 1, 1 lies only in r1c1, r1c5, and the cells that see all of "
        "them cannot hold it: removes 1 from r2c3"
    )


def test_a_hidden_single_on_a_diagonal_names_it():
    state = _state("." * 81, Diagonal("main"))
    for c in (0, 10, 20, 30, 40, 50, 60, 70):
        state.eliminate(c, 5)
    step = basic.hidden_single(state)
    assert step.placements == ((80, 5),)
    assert str(step) == "Hidden single: 5 has one place in main diagonal: r9c9 = 5"


def test_nishio_each_failing_assumption_replays():
    puzzle = next(iter(open_corpus("x9").puzzles())).grid
    state = VariantState.of(puzzle)
    result = propagate_variant(state, max_steps=10_000)
    step = next(s for s in result.steps if s.technique == "nishio_singles")
    assert step.rating == 7.5
    assert set(step.eliminations) == {(c, d) for c, d, _ in step.detail}
    replay = VariantState.of(puzzle)
    for earlier in result.steps[: result.steps.index(step)]:
        for cell, digit in earlier.placements:
            replay.place(cell, digit)
        for cell, digit in earlier.eliminations:
            replay.eliminate(cell, digit)
    for cell, digit, reason in step.detail:
        assert puzzle.replace(result.state.values).cells[cell] != digit
        assert assume.refutation(replay, cell, digit) == reason
    assert str(step).startswith(
        "Nishio (singles): following singles, the non-consecutive rule and cage combinations, "
        "each assumption fails: "
    )


def test_parity_sets_the_first_candidates():
    state = _state("." * 16, Parity(0, "odd"), Parity(5, "even"))
    assert state.candidates(0) == 0b0101
    assert state.candidates(5) == 0b1010


# -- the solver --------------------------------------------------------------------
def test_the_human_solver_takes_the_region_neighbour_and_killer_kinds():
    human = solvers.solver_class("human")
    assert human.constraint_kinds == KINDS
    thermo = Grid.empty(2).with_constraints((Thermometer((0, 1)),))
    assert human.handles(thermo).reason == "human does not take thermometer constraints"
    with pytest.raises(ValueError, match="does not take thermometer"):
        VariantState.of(thermo)


def test_a_variant_the_engine_cannot_finish_is_stuck_with_its_candidates():
    result = solvers.get("human").solve(Grid.empty(2).with_constraints((Diagonal("main"),)))
    assert result.status is solvers.Status.STUCK
    assert not result.solutions
    assert len(result.stats["candidates"].split()) == 16


def test_a_cage_no_digits_can_fill_is_unsolvable():
    puzzle = Grid.parse("1...............").with_constraints((Killer((1, 2), 3),))
    result = solvers.get("human").solve(puzzle)
    assert result.status is solvers.Status.UNSOLVABLE
    assert result.exhausted
    assert "killer cage r1c2 r1c3 (sum 3)" in result.message


# -- the built-in variant corpora ----------------------------------------------------
def _puzzles(name: str, count: int | None = None, skip: frozenset[str] = frozenset()):
    corpus = open_corpus(name)
    truth = corpus.truth()
    found = []
    for p in corpus.puzzles():
        kinds = kinds_of(p.grid)
        if kinds <= KINDS and not kinds & skip:
            solution = p.grid.replace(tuple(int(ch, 36) for ch in truth[p.id].solution))
            found.append(pytest.param(p.grid, solution, id=p.id))
    return found[:count]


SOLVED = (_puzzles("killer9", 5) + _puzzles("jigsaw9", 3) + _puzzles("x9", 3)) + _puzzles(
    "antiknight9"
)[1:2]


@pytest.mark.parametrize(("puzzle", "solution"), SOLVED)
def test_the_builtin_variant_corpora_are_solved_by_logic_to_their_truth(puzzle, solution):
    result = solvers.get("human").solve(puzzle, trace=True)
    assert result.status is solvers.Status.SOLVED, result.message
    assert result.exhausted
    assert result.solution.cells == solution.cells
    assert all(str(step) for step in result.trace)


# Anti-knight and non-consecutive 9x9 puzzles need many slow nishio nets: the soundness of
# those techniques is checked on the 6x6 ones and the anti-knight puzzle above.
SOUND = _puzzles("variants6") + _puzzles(
    "mixed9", skip=frozenset({"anti-knight", "non-consecutive"})
)


@pytest.mark.parametrize(("puzzle", "solution"), SOUND)
def test_every_variant_step_keeps_the_solution(puzzle, solution):
    result = propagate_variant(VariantState.of(puzzle), solution=solution)
    assert result.checked == len(result.steps) > 0
    assert result.status in ("solved", "stuck")
    if result.solved:
        assert result.state.to_grid().cells == solution.cells


def test_a_wrong_variant_step_is_caught():
    puzzle, solution = _puzzles("killer9", 1)[0].values
    wrong = solution.replace([v % 9 + 1 for v in solution.cells])
    with pytest.raises(UnsoundStep, match="unsound"):
        propagate_variant(VariantState.of(puzzle), solution=wrong)


def test_rate_reads_a_variant_path_on_the_classic_scales():
    puzzle = next(iter(open_corpus("killer9").puzzles())).grid
    r = rate(puzzle)
    assert r.status == "solved"
    assert r.config == "variant"
    assert r.hardest == "rule_of_45"
    assert (r.er, r.ep, r.ed) == (3.0, 2.4, 2.4)
    assert r.category == "Intermediate"
    assert r.score == sum(
        n * (SCORES[t][0] if t in SCORES else BY_NAME[t].score) for t, n in r.counts.items()
    )


def test_a_time_limit_stops_a_long_contradiction_scan():
    puzzle = _puzzles("antiknight9", 1)[0].values[0]  # needs nishio nets: seconds per step
    result = solvers.get("human").solve(puzzle, time_limit=0.2)
    assert result.status is solvers.Status.TIMEOUT
    assert not result.solutions
