"""BUG types 2 to 4, aligned pair and triple exclusion and bidirectional cycles (Sudoku Explainer's
techniques): each fires on a grid where it applies, with exact eliminations, ratings
and explanations, removes nothing the solution needs, and keeps quiet where it does
not apply."""

from __future__ import annotations

import pytest

import solvers
from solvers.grid import Grid
from solvers.human.state import CandidateState
from solvers.human.table import BY_NAME
from solvers.human.trace import compact
from tests.human_fixtures import BUG_34

# gen9-unfair (Sudoku Explainer: 5.7), step 38 of the engine's path: r7c7 and r9c6 hold
# 2 beyond a BUG.
BUG_2 = (
    "2....874..357.6...1..54......8...91..........3..2...6..79........2..183.5........",
    "2 9 6 13 13 8 7 4 5 4 3 5 7 29 6 12 8 19 1 8 7 5 4 29 3 29 6 "
    "7 2 8 4 6 5 9 1 3 9 6 4 18 18 3 5 7 2 3 5 1 2 79 79 4 6 8 "
    "8 7 9 36 23 24 126 5 14 6 4 2 9 5 1 8 3 7 5 1 3 68 78 247 26 29 49",
)
# A grid of the classic path of a gen9 puzzle: r5c8 (28) and r8c8 (26) see r1c8 and r2c8.
APE = (
    "58.........71.4........645...6.3...8.7.5....11..6...4..4....39...3.7.1...9.....7.",
    "5 8 1249 2379 29 2379 2679 1236 23679 2369 236 7 1 2589 4 2689 2368 2369 "
    "239 123 129 23789 289 6 4 5 2379 249 25 6 2479 3 1279 2579 2 8 "
    "23489 7 2489 5 2489 289 269 236 1 1 235 2589 6 289 2789 2579 4 23579 "
    "2678 4 1258 28 12568 1258 3 9 256 268 256 3 2489 7 2589 1 268 2456 "
    "268 9 1258 2348 124568 12358 2568 7 2456",
)
# A grid of the classic path of a gen9-extreme puzzle: r4c2 (56) and r8c2 (346) see r2c2,
# r3c2 and r9c2.
ATE = (
    ".9..743.........153........4.....1.3.2.3..5...7..2.....87..2...9..1.58.....8.....",
    "12568 9 12568 256 7 4 3 68 268 7 46 2468 269 689 3 2469 1 5 "
    "3 456 24568 2569 15689 1689 7 4689 24689 4 56 5689 7 5689 689 1 2 3 "
    "168 2 1689 3 14689 1689 5 46789 46789 1568 7 3 4569 2 1689 469 4689 4689 "
    "156 8 7 469 3469 2 469 34569 1469 9 346 246 1 346 5 8 3467 2467 "
    "1256 13456 12456 8 3469 7 2469 34569 12469",
)
# gen9-unfair (Sudoku Explainer: 6.7), step 31 of the engine's path.
Y_CYCLE = (
    ".....4.3..2.9....567........37........2...8...8.319.4....8.15...41....7.9..6.....",
    "8 1 59 27 2567 4 79 3 69 3 2 4 9 678 678 17 168 5 6 7 59 1 3 58 4 289 29 "
    "14 3 7 24 2568 2568 19 1569 169 14 9 2 47 567 567 8 156 3 5 8 6 3 1 9 2 4 7 "
    "7 6 3 8 24 1 5 29 249 2 4 1 5 9 3 6 7 8 9 5 8 6 247 27 3 12 124",
)

FIRES = [
    ("bug_type_2", BUG_2, "r7c5<>2 r7c6<>2 r9c7<>2 r9c8<>2", 5.7, "BUG type 2"),
    ("bug_type_3", BUG_34, "r3c4<>6", 5.8, "naked subset 4/6 in column 4 with r4c4"),
    ("bug_type_4", BUG_34, "r6c4<>5 r8c4<>4", 5.7, "7 has no other place in column 4"),
    ("aligned_pair_exclusion", APE, "r1c8<>6", 6.2, "r1c8 and r2c8"),
    ("aligned_triple_exclusion", ATE, "r9c2<>4,5,6", 7.5, "r2c2, r3c2 and r9c2"),
    ("bidirectional_cycle", Y_CYCLE, "r1c5<>7 r4c8<>1 r4c9<>1", 6.7, "Bidirectional Y-cycle"),
]
QUIET = [
    ("bug_type_2", BUG_34),  # two different extra digits
    ("bug_type_3", BUG_2),  # one extra digit only
    ("bug_type_4", BUG_2),  # the BUG cells share no unit
    ("aligned_pair_exclusion", BUG_2),
    ("aligned_pair_exclusion", Y_CYCLE),
    ("aligned_triple_exclusion", Y_CYCLE),
    ("bidirectional_cycle", BUG_2),
]


@pytest.mark.parametrize(("name", "case", "expected", "rating", "text"), FIRES)
def test_fires_with_exact_eliminations(name, case, expected, rating, text):
    step = BY_NAME[name].find(CandidateState.from_candidates(case[1]))
    assert step is not None
    assert step.technique == name
    assert compact(step) == expected
    assert step.rating == rating
    assert text in str(step)


@pytest.mark.parametrize(("name", "case", "expected", "rating", "text"), FIRES)
def test_step_is_sound(name, case, expected, rating, text):
    solved = solvers.get("dlx").solve(Grid.parse(case[0]), limit=2)
    assert solved.unique
    truth = solved.solution.cells
    state = CandidateState.from_candidates(case[1])
    assert all(
        state.values[c] == truth[c] or state.candidates(c) >> (truth[c] - 1) & 1 for c in range(81)
    )
    step = BY_NAME[name].find(state)
    assert all(truth[c] != d for c, d in step.eliminations)


@pytest.mark.parametrize(("name", "case"), QUIET)
def test_quiet_where_it_does_not_apply(name, case):
    assert BY_NAME[name].find(CandidateState.from_candidates(case[1])) is None


def test_bug_types_assume_uniqueness_and_the_others_do_not():
    assert all(BY_NAME[f"bug_type_{k}"].assumes_unique for k in (2, 3, 4))
    assert not BY_NAME["aligned_pair_exclusion"].assumes_unique
    assert not BY_NAME["aligned_triple_exclusion"].assumes_unique
    assert not BY_NAME["bidirectional_cycle"].assumes_unique


def test_aligned_pair_exclusion_on_a_hand_made_grid():
    # r1c1 (124) and r1c2 (123) share row 1; r1c3 (12), r1c4 (13) and r1c5 (23) see both:
    # 1 or 2 in r1c1 leaves r1c2 nothing, so r1c1 is 4.
    marks = ["124", "123", "12", "13", "23"] + ["56789"] * 4 + ["123456789"] * 72
    step = BY_NAME["aligned_pair_exclusion"].find(CandidateState.from_candidates(" ".join(marks)))
    assert step is not None
    assert compact(step) == "r1c1<>1,2"
    marks[4] = "234"  # r1c5 is no longer bivalue: 2 in r1c1 and 3 in r1c2 is possible
    step = BY_NAME["aligned_pair_exclusion"].find(CandidateState.from_candidates(" ".join(marks)))
    assert step is None or compact(step) != "r1c1<>1,2"


def _found_after(name: str, marks: str, cell: int, digit: int):
    """`name`'s step on the grid `marks` once `digit` leaves `cell`, searched on a state
    that was searched before the change (its memo of fruitless cells kept)."""
    state = CandidateState.from_candidates(marks)
    BY_NAME[name].find(state)
    state.eliminate(cell, digit)
    return BY_NAME[name].find(state)


def test_aligned_pair_exclusion_searches_again_when_an_excluder_changes():
    marks = ["124", "123", "12", "13", "234"] + ["56789"] * 4 + ["123456789"] * 72
    before = BY_NAME["aligned_pair_exclusion"].find(CandidateState.from_candidates(" ".join(marks)))
    assert before is None or compact(before) != "r1c1<>1,2"
    step = _found_after("aligned_pair_exclusion", " ".join(marks), 4, 4)  # r1c5 becomes 23
    assert step is not None
    assert compact(step) == "r1c1<>1,2"


def test_aligned_triple_exclusion_searches_again_when_an_excluder_changes():
    marks = ATE[1].split()
    marks[66] = "14"  # r8c4 open, so that r8c2 may hold 1 ...
    marks[64] = "1346"  # ... and it holds four digits: no longer an excluder
    state = CandidateState.from_candidates(" ".join(marks))
    before = BY_NAME["aligned_triple_exclusion"].find(state)
    assert before is None or compact(before) != "r9c2<>4,5,6"
    step = _found_after("aligned_triple_exclusion", " ".join(marks), 64, 1)
    assert step is not None
    assert compact(step) == "r9c2<>4,5,6"
