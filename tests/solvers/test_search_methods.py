"""The historic search methods: `mrv`, `positions`, `odometer`, `magictouch`.

The conformance suite covers the shared contract; these tests pin what each
method does by its write-up: solution counts against `dlx` and a brute-force
oracle, the order the odometer and the MagicDat templates turn in, the
counters, and the limits.
"""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import solvers
from solvers import Grid, Limits, Status
from solvers.human import CandidateState
from solvers.search.magictouch import Templates, bivalue_cells
from solvers.search.odometer import run_odometer
from solvers.testing import PUZZLE_9X9_HARDER, PUZZLE_9X9_TWO_SOLUTIONS
from solvers.transforms import random_transform

COMPLETE = ["mrv", "mrv[singles=hidden]", "positions", "odometer", "magictouch[fallback=odometer]"]
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Hard for search: propagation alone stalls, mrv guesses over 1000 times.  Generated:
# `corpora.generate.make(Spec(), seed="fast-hard-2", index=69593)` (the last puzzle of
# `sudoku-bench generate --seed fast-hard-2 --count 69594`), then
# `solvers.transforms.random_transform(puzzle, random.Random(39))`,
# an order in which the odometer is slow (6.5 million turns to prove it unique).
HARD = "..3..1......3..5.6.....7.....9...4....7..2.9....6....883...6....45...8.2...81...5"
# Solved by MagicTouch after propagation stalls: 7 two-candidate cells, 128 templates.
# Generated: the last of `sudoku-bench generate --seed fast-hard --count 374`.
MAGIC = "...7...12...2.1.9.....5...8.4..2...16..1.....2.8.9..6...2.3.5.6.....7...56.....4."
# MagicTouch is stuck (5 template cells, some templates stall); the odometer is quick.
# corpora/data/gen9-hard.txt line 150.
STUCK = "3..9.7.5....6.1.....8.....3..4..96.2..3.6.....9........71..62..2.......9.49...7.."
# Opened by hidden singles alone; naked singles alone leave cells open.
# corpora/data/gen9-easy.txt line 7.
HIDDEN_ONLY = ".8493.....7...4........2..84.3.2..5...9...6....5...37.....1.5.......7.31...5..8.."


def _solution_grid(box: tuple[int, int], seed: int) -> Grid:
    base = solvers.get("dlx").solve(Grid.empty(*box)).solution
    transform, shape = random_transform(base, random.Random(seed))
    return transform.apply(base, box=shape)


@st.composite
def small_puzzles(draw):
    """4x4, 6x6 and 9x9 puzzles from random valid grids, some with a wrong digit added."""
    box = draw(st.sampled_from([(2, 2), (2, 3), (3, 3)]))
    full = _solution_grid(box, draw(st.integers(0, 10**6)))
    n = full.size
    share = draw(st.sampled_from([0.3, 0.5, 0.7])) if n == 9 else draw(st.floats(0, 1))
    rng = random.Random(draw(st.integers(0, 10**6)))
    cells = [v if rng.random() < share else 0 for v in full.cells]
    if draw(st.booleans()) and 0 in cells:
        cell = cells.index(0)
        ruled_out = {cells[p] for p in full.shape.peers[cell]} | {full.cells[cell]}
        wrong = [d for d in range(1, n + 1) if d not in ruled_out]
        if wrong:
            cells[cell] = wrong[0]
    return full.replace(cells)


def _truth(puzzle: Grid, limit: int) -> set[Grid]:
    return set(solvers.get("dlx").solve(puzzle, limit=limit).solutions)


def _assert_counted(puzzle: Grid, result, limit: int) -> None:
    """The solutions are right; all of them when there are fewer than `limit`."""
    truth = _truth(puzzle, limit)
    assert all(solvers.is_solution(puzzle, g) for g in result.solutions)
    assert len(set(result.solutions)) == len(truth)
    if len(truth) < limit:
        assert set(result.solutions) == truth
        assert result.exhausted
    else:
        assert not result.exhausted
    expected = {0: Status.UNSOLVABLE, 1: Status.SOLVED}.get(len(truth), Status.MULTIPLE)
    assert result.status is expected


# -- complete methods: exact counts -----------------------------------------------


@pytest.mark.parametrize("spec", COMPLETE)
@SETTINGS
@given(puzzle=small_puzzles())
def test_complete_methods_count_like_dlx(spec, puzzle):
    if solvers.conflicts(puzzle):
        return
    result = solvers.get(spec).solve(puzzle, limit=3, time_limit=30)
    if result.status is Status.TIMEOUT:  # the odometer may take its time; never wrong
        assert all(solvers.is_solution(puzzle, g) for g in result.solutions)
        return
    _assert_counted(puzzle, result, 3)


@SETTINGS
@given(puzzle=small_puzzles())
def test_magictouch_claims_only_what_its_templates_settle(puzzle):
    if solvers.conflicts(puzzle):
        return
    result = solvers.get("magictouch").solve(puzzle, limit=3, time_limit=30)
    assert result.status is not Status.TIMEOUT
    assert all(solvers.is_solution(puzzle, g) for g in result.solutions)
    if result.status is Status.STUCK:
        assert not result.solutions
    if result.exhausted or result.status is Status.UNSOLVABLE:
        _assert_counted(puzzle, result, 3)


@pytest.mark.parametrize("spec", COMPLETE)
def test_enumerates_every_4x4_grid(spec):
    result = solvers.get(spec).solve(Grid.empty(2), limit=1000)
    assert len(result.solutions) == 288
    assert result.exhausted
    assert all(solvers.is_solution(Grid.empty(2), g) for g in result.solutions)


@pytest.mark.parametrize("spec", ["mrv", "mrv[singles=hidden]", "positions"])
def test_proves_uniqueness_and_finds_both_solutions(spec):
    solver = solvers.get(spec)
    unique = solver.solve(Grid.parse(HARD), limit=2)
    assert unique.unique
    two = solver.solve(Grid.parse(PUZZLE_9X9_TWO_SOLUTIONS), limit=2)
    assert two.status is Status.MULTIPLE
    assert set(two.solutions) == _truth(Grid.parse(PUZZLE_9X9_TWO_SOLUTIONS), 2)


@pytest.mark.parametrize("spec", ["mrv", "mrv[singles=hidden]", "positions"])
def test_detects_no_solution_beyond_propagation(spec):
    # Unique puzzle with one given changed to a digit no peer forbids: no solution,
    # but nothing is empty until the search has placed digits.
    puzzle = Grid.parse(HARD)
    cells = list(puzzle.cells)
    cells[1] = 9
    broken = puzzle.replace(cells)
    assert not solvers.conflicts(broken)
    assert not _truth(broken, 1)
    result = solvers.get(spec).solve(broken, limit=2)
    assert result.status is Status.UNSOLVABLE
    assert result.exhausted
    assert result.stats["nodes"] > 0


@pytest.mark.parametrize("spec", ["mrv", "positions"])
@pytest.mark.parametrize("box", [(3, 4), (4, 4)])
def test_larger_boxes(spec, box):
    full = _solution_grid(box, 11)
    rng = random.Random(5)
    puzzle = full.replace([v if rng.random() < 0.55 else 0 for v in full.cells])
    _assert_counted(puzzle, solvers.get(spec).solve(puzzle, limit=2, time_limit=60), 2)


# -- mrv ---------------------------------------------------------------------------


def test_mrv_counters():
    stats = solvers.get("mrv").solve(Grid.parse(HARD), limit=2).stats
    assert stats["guesses"] == stats["nodes"] > 0
    # Exhausted: every guess was taken back in the end.
    assert stats["backtracks"] == stats["guesses"]
    assert 0 < stats["max_depth"] <= stats["guesses"]
    assert stats["singles"] == stats["propagations"] > 0
    assert "hidden_singles" not in stats


def test_mrv_fills_singles_before_guessing():
    # The hidden-singles puzzle needs no guess with singles=hidden, but guesses as described.
    naked = solvers.get("mrv").solve(Grid.parse(HIDDEN_ONLY)).stats
    hidden = solvers.get("mrv[singles=hidden]").solve(Grid.parse(HIDDEN_ONLY)).stats
    assert hidden["guesses"] == 0
    assert hidden["hidden_singles"] > 0
    assert naked["guesses"] > 0


@pytest.mark.parametrize("spec", ["mrv", "positions", "odometer"])
def test_first_guess_takes_the_lowest_digit_of_the_first_choice(spec):
    """After singles, the two-solution puzzle leaves r4c4, r4c6, r9c4 and r9c6 with {8, 9}:
    the first choice in scan order is r4c4 (mrv: the first cell with fewest candidates;
    positions: row 4's 8; odometer: the first wheel) and its lowest digit is 8."""
    result = solvers.get(spec).solve(Grid.parse(PUZZLE_9X9_TWO_SOLUTIONS))
    assert (result.solution.cells[30], result.solution.cells[32]) == (8, 9)
    assert result.stats["guesses"] == {"mrv": 1, "positions": 1, "odometer": 4}[spec]
    assert result.stats["backtracks"] == 0


# -- positions ---------------------------------------------------------------------


def test_positions_counters():
    stats = solvers.get("positions").solve(Grid.parse(HARD), limit=2).stats
    assert stats["nodes"] == stats["forced_placements"] + stats["branches"]
    assert stats["guesses"] == stats["branches"] > 0
    assert stats["dead_ends"] > 0
    assert stats["backtracks"] == stats["branches"]  # exhausted: every branch taken back


def test_positions_needs_no_branch_when_hidden_singles_suffice():
    stats = solvers.get("positions").solve(Grid.parse(HIDDEN_ONLY)).stats
    assert (stats["branches"], stats["dead_ends"]) == (0, 0)
    assert stats["forced_placements"] == Grid.parse(HIDDEN_ONLY).cells.count(0)


# -- odometer ----------------------------------------------------------------------


def _all_4x4() -> list[tuple[int, ...]]:
    return sorted(g.cells for g in solvers.get("dlx").solve(Grid.empty(2), limit=300).solutions)


def test_odometer_turns_in_odometer_order():
    """From the empty 4x4 grid (no propagation) the wheels meet every grid in lexicographic
    order: the first wheel is the most significant digit."""
    state = CandidateState.from_grid(Grid.empty(2))
    stats: dict = {}
    found, exhausted, stopped = run_odometer(Grid.empty(2), state, "reading", 1000, Limits(), stats)
    assert [g.cells for g in found] == _all_4x4()
    assert exhausted
    assert stopped is None
    assert (stats["wheels"], stats["assignments_tested"]) == (16, 288)
    assert stats["wheel_turns"] > 288
    assert stats["carries"] > 0


def test_odometer_first_solution_is_the_lowest():
    for spec in ("odometer", "odometer[order=fewest]"):
        result = solvers.get(spec).solve(Grid.empty(2))
        assert result.solution.cells == _all_4x4()[0] or spec.endswith("fewest]")
        assert result.stats["wheel_turns"] == result.stats["nodes"]


def test_odometer_propagates_first():
    result = solvers.get("odometer").solve(Grid.parse(PUZZLE_9X9_HARDER), limit=2)
    assert result.unique  # logic alone
    assert result.stats["nodes"] == 0
    assert result.stats["hidden_single"] > 0
    two = solvers.get("odometer").solve(Grid.parse(PUZZLE_9X9_TWO_SOLUTIONS), limit=3)
    assert two.status is Status.MULTIPLE
    assert two.exhausted
    assert (two.stats["wheels"], two.stats["assignments_tested"]) == (4, 2)


def test_odometer_proves_uniqueness_by_turning_every_wheel():
    result = solvers.get("odometer").solve(Grid.parse(MAGIC), limit=2)
    assert result.unique
    assert result.solution in _truth(Grid.parse(MAGIC), 1)
    assert result.stats["naked_pair"] > 0  # the outside rule of pairs ran first
    assert result.stats["wheels"] == 42
    assert result.stats["wheel_turns"] > 1000


def test_odometer_stops_at_its_budget():
    result = solvers.get("odometer").solve(Grid.parse(HARD), budget=500)
    assert result.status is Status.BUDGET
    assert not result.solutions
    assert result.stats["wheel_turns"] == result.stats["nodes"] == 501
    assert result.stats["wheels"] > 0
    assert result.stats["assignments_tested"] == 0


def test_odometer_stops_at_its_time_limit():
    # Proving HARD unique takes the odometer 6.5 million turns (the first solution: 5.9M).
    result = solvers.get("odometer").solve(Grid.parse(HARD), limit=2, time_limit=0.2)
    if result.solutions:  # a machine fast enough to reach the first solution in time
        assert result.stats["stopped"] == "TIMEOUT"
    else:
        assert result.status is Status.TIMEOUT
    assert not result.exhausted
    assert result.stats["wheel_turns"] > 0
    assert result.stats["carries"] > 0


# -- magictouch --------------------------------------------------------------------


def _stuck_state(text: str) -> CandidateState:
    from solvers.search.odometer import magic_propagation

    state, result = magic_propagation(Grid.parse(text), Limits(), {})
    assert not result.solved
    return state


def test_templates_run_from_all_first_to_all_second():
    state = _stuck_state(MAGIC)
    cells = bivalue_cells(state, "reading")
    assert len(cells) == 7
    templates = Templates(state, cells, Limits())
    made = list(templates)
    # The same survivors, in the same order, as filtering all 2^k templates in odometer order.
    digits = [[d for d in range(1, 10) if state.candidates(c) >> (d - 1) & 1] for c in cells]
    plain = []
    for sides in itertools.product((0, 1), repeat=len(cells)):
        template = tuple(
            (c, digits[i][s]) for i, (c, s) in enumerate(zip(cells, sides, strict=True))
        )
        clash = any(
            a[1] == b[1] and a[0] in state.shape.peers[b[0]]
            for a, b in itertools.combinations(template, 2)
        )
        if not clash:
            plain.append(template)
    assert made == plain
    assert templates.generated == 2 ** len(cells)
    assert templates.passed == len(plain) < templates.generated


def test_templates_are_made_lazily():
    """The first template over 60 two-candidate cells comes at once (2^60 never listed)."""
    solution = _solution_grid((3, 3), 3)
    state = CandidateState(solution.shape)
    for cell, v in enumerate(solution.cells):
        if v < 9:  # candidates {v, v+1}: the first candidates form the solution
            for d in set(range(1, 10)) - {v, v + 1}:
                state.eliminate(cell, d)
    cells = bivalue_cells(state, "reading")[:60]
    assert len(cells) == 60
    templates = Templates(state, cells, Limits())
    first = next(iter(templates))
    assert first == tuple((c, solution.cells[c]) for c in cells)
    assert templates.generated == 1


def test_magictouch_solves_and_counts():
    result = solvers.get("magictouch").solve(Grid.parse(MAGIC), limit=2)
    assert result.unique  # every template solved or refuted
    assert result.solution in _truth(Grid.parse(MAGIC), 2)
    s = result.stats
    assert (s["bivalue_cells"], s["template_cells"], s["templates_generated"]) == (7, 7, 128)
    assert 0 < s["templates_passed_quick_test"] < 128
    assert s["templates_passed_quick_test"] == (
        s["templates_solved"] + s["templates_refuted"] + s["templates_stuck"]
    )
    assert s["engine_runs"] == s["templates_passed_quick_test"] + 1
    assert s["propagations"] > 0
    assert s["nodes"] == s["templates_passed_quick_test"]


def test_magictouch_is_stuck_without_a_solving_template_unless_told_to_fall_back():
    stuck = solvers.get("magictouch").solve(Grid.parse(STUCK), limit=2)
    assert stuck.status is Status.STUCK
    assert not stuck.solutions
    assert stuck.stats["templates_stuck"] > 0
    assert stuck.stats["templates_solved"] == 0
    assert "5 two-candidate cells" in stuck.message
    fallback = solvers.get("magictouch[fallback=odometer]").solve(Grid.parse(STUCK), limit=2)
    assert fallback.unique
    assert fallback.solution in _truth(Grid.parse(STUCK), 1)
    assert fallback.stats["wheel_turns"] > 0
    assert fallback.stats["nodes"] == (
        fallback.stats["templates_passed_quick_test"] + fallback.stats["wheel_turns"]
    )


def test_magictouch_options():
    picked = solvers.get("magictouch[max_cells=3,choose=peers]").solve(Grid.parse(MAGIC))
    assert picked.stats["template_cells"] == 3
    assert picked.stats["templates_generated"] <= 8
    state = _stuck_state(MAGIC)
    by_peers = bivalue_cells(state, "peers")
    assert sorted(by_peers) == bivalue_cells(state, "reading")
    with pytest.raises(solvers.UnknownOption, match="max_cells"):
        solvers.get("magictouch", max_cells=-1)


def test_magictouch_stops_at_its_budget():
    result = solvers.get("magictouch").solve(Grid.parse(MAGIC), budget=5)
    assert result.status is Status.BUDGET
    assert not result.solutions
    assert result.stats["templates_passed_quick_test"] == 6 == result.stats["nodes"]
