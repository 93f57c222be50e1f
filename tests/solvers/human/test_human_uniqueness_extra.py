"""Unique rectangles of types 5 and 6, hidden and avoidable rectangles and BUG+n (the
uniqueness techniques Sudoku Explainer lacks, off by default): each fires on a hand-made
grid with exact eliminations and an explanation, keeps quiet where it does not apply, and
never contradicts the solution of generated puzzles of other box shapes."""

from __future__ import annotations

import pytest

import solvers
from solvers.grid import Grid
from solvers.human import CandidateState, propagate
from solvers.human.table import BY_NAME, GROUPS
from solvers.human.trace import compact, english, pencilmarks, record
from tests.human_fixtures import BUG_34, generated
from tests.human_fixtures import candidate_grid as _grid

NEW = (
    "unique_rectangle_5",
    "unique_rectangle_6",
    "hidden_rectangle",
    "avoidable_rectangle_1",
    "avoidable_rectangle_2",
    "bug_plus_n",
)


def _find(name: str, state: CandidateState):
    return BY_NAME[name].find(state)


def test_the_new_techniques_are_off_by_default_and_assume_uniqueness():
    for name in NEW:
        technique = BY_NAME[name]
        assert not technique.enabled
        assert technique.assumes_unique
        assert name in GROUPS["extended"]
        assert name not in GROUPS["all"]


# -- unique rectangle type 5 -----------------------------------------------------
# Rows 1-2, columns 1 and 4 (boxes 1 and 2); r1c1 holds only 12.
FLOOR = {"r1c1": "12"}


def test_unique_rectangle_5_fires_on_two_diagonal_corners():
    # r1c4 and r2c1 hold 12 plus 3: one is 3; r1c2, r1c3 (row 1, box 1) and r2c5, r2c6
    # (row 2, box 2) see both.
    marks = {**FLOOR, "r1c4": "123", "r2c1": "123", "r2c4": "12"}
    step = _find("unique_rectangle_5", CandidateState.from_candidates(_grid(marks)))
    assert step is not None
    assert compact(step) == "r1c2<>3 r1c3<>3 r2c5<>3 r2c6<>3"
    assert step.rating == 4.5
    assert english(step).startswith("Unique rectangle type 5 on 1/2 (r1c1, r1c4, r2c1, r2c4)")


def test_unique_rectangle_5_fires_on_three_corners():
    # r1c4, r2c1 and r2c4 hold 12 plus 3: only r2c5 and r2c6 see all three.
    marks = {**FLOOR, "r1c4": "123", "r2c1": "123", "r2c4": "123"}
    step = _find("unique_rectangle_5", CandidateState.from_candidates(_grid(marks)))
    assert step is not None
    assert compact(step) == "r2c5<>3 r2c6<>3"


def test_unique_rectangle_5_needs_one_extra_digit():
    marks = {**FLOOR, "r1c4": "123", "r2c1": "124", "r2c4": "12"}
    assert _find("unique_rectangle_5", CandidateState.from_candidates(_grid(marks))) is None


# -- unique rectangle type 6 -----------------------------------------------------
def _no_one_in_rows_1_2(extra: dict[str, str]) -> str:
    # 1 lies in rows 1 and 2 only in columns 1 and 4.
    marks = {f"r{r}c{c}": "23456789" for r in (1, 2) for c in range(1, 10)}
    marks |= {"r1c1": "12", "r2c4": "12", "r1c4": "123", "r2c1": "124"}
    return _grid(marks | extra)


def test_unique_rectangle_6_fires_when_a_is_locked_in_both_rows():
    # 1 in r1c4 would put 1 in r2c1 and 2 in r1c1 and r2c4: the deadly pattern.
    step = _find("unique_rectangle_6", CandidateState.from_candidates(_no_one_in_rows_1_2({})))
    assert step is not None
    assert compact(step) == "r1c4<>1 r2c1<>1"
    assert "Unique rectangle type 6 on 1/2" in english(step)


def test_unique_rectangle_6_needs_a_locked_in_two_lines():
    state = CandidateState.from_candidates(_no_one_in_rows_1_2({"r2c7": "1234"}))
    assert _find("unique_rectangle_6", state) is None


# -- hidden rectangle ------------------------------------------------------------
def _hidden(extra: dict[str, str]) -> str:
    # 1 lies in row 2 only at r2c1, r2c4 and in column 4 only at r1c4, r2c4.
    marks = {f"r2c{c}": "23456789" for c in range(1, 10)}
    marks |= {f"r{r}c4": "23456789" for r in range(1, 10)}
    marks |= {"r1c1": "12", "r1c4": "125", "r2c1": "126", "r2c4": "1234"}
    return _grid(marks | extra)


def test_hidden_rectangle_fires_on_a_locked_in_the_opposite_lines():
    # r2c4 = 2 would put 1 in r2c1 and r1c4, and 2 in r1c1: the deadly pattern.
    step = _find("hidden_rectangle", CandidateState.from_candidates(_hidden({})))
    assert step is not None
    assert compact(step) == "r2c4<>2"
    assert "Hidden rectangle on 1/2" in english(step)


def test_hidden_rectangle_needs_both_lines_locked():
    state = CandidateState.from_candidates(_hidden({"r7c4": "1789"}))
    assert _find("hidden_rectangle", state) is None


# -- avoidable rectangles ----------------------------------------------------------
def _solved(placed: dict[str, int], marks: dict[str, str], givens: str = "") -> CandidateState:
    """A state of an empty puzzle (but for `givens`, cell -> digit as 'r2c4=2' ...), with
    digits placed by deduction and the named cells' candidates cut to `marks`."""
    cells = [0] * 81
    for given in givens.split():
        name, digit = given.split("=")
        cells[(int(name[1]) - 1) * 9 + int(name[3]) - 1] = int(digit)
    state = CandidateState.from_grid(Grid(3, 3, tuple(cells)))
    for name, digit in placed.items():
        state.place((int(name[1]) - 1) * 9 + int(name[3]) - 1, digit)
    for name, keep in marks.items():
        cell = (int(name[1]) - 1) * 9 + int(name[3]) - 1
        for d in range(1, 10):
            if str(d) not in keep:
                state.eliminate(cell, d)
    return state


def test_avoidable_rectangle_1_fires_on_three_solved_corners():
    # r1c4 = r2c1 = 1 and r2c4 = 2, none given: r1c1 = 2 would complete a swappable rectangle.
    state = _solved({"r1c4": 1, "r2c1": 1, "r2c4": 2}, {})
    step = _find("avoidable_rectangle_1", state)
    assert step is not None
    assert compact(step) == "r1c1<>2"
    assert "were solved, not given" in english(step)


def test_avoidable_rectangle_1_needs_no_given_in_the_rectangle():
    state = _solved({"r1c4": 1, "r2c1": 1}, {}, givens="r2c4=2")
    assert _find("avoidable_rectangle_1", state) is None


def test_avoidable_rectangles_need_to_know_the_givens():
    # The same grid as pencil marks: which placed digits were given is unknown.
    state = _solved({"r1c4": 1, "r2c1": 1, "r2c4": 2}, {})
    pencil = CandidateState.from_candidates(pencilmarks(state.snapshot()))
    assert pencil.givens() is None
    assert _find("avoidable_rectangle_1", pencil) is None


def test_avoidable_rectangle_2_fires_on_one_shared_extra_digit():
    # r1c1 = 1 and r1c4 = 2 solved; r2c1 (23) and r2c4 (13) would complete the rectangle
    # unless one is 3: the rest of row 2 loses 3.
    state = _solved({"r1c1": 1, "r1c4": 2}, {"r2c1": "23", "r2c4": "13"})
    step = _find("avoidable_rectangle_2", state)
    assert step is not None
    assert compact(step) == "r2c2<>3 r2c3<>3 r2c5<>3 r2c6<>3 r2c7<>3 r2c8<>3 r2c9<>3"
    assert record(step)["text"].startswith("Avoidable rectangle type 2 on 1/2")


def test_avoidable_rectangle_2_needs_the_same_extra_digit():
    state = _solved({"r1c1": 1, "r1c4": 2}, {"r2c1": "23", "r2c4": "14"})
    assert _find("avoidable_rectangle_2", state) is None


# -- BUG+n ---------------------------------------------------------------------------
# corpora/data/gen9-unfair.txt line 68, step 37 of the "extended" path: r8c5 (478) holds 4 and r8c6
# (568) holds 8 beyond a BUG; BUG types 2 to 4 find nothing here.
BUG_2_DIGITS = (
    "..389...1.1...7..5.2.35....7..16...2...7...49.....4...854...6.............69..2..",
    "5 67 3 8 9 26 4 27 1 69 1 8 46 24 7 39 23 5 4 2 79 3 5 1 79 6 8 "
    "7 4 5 1 6 9 38 38 2 36 36 1 7 28 28 5 4 9 29 8 29 5 3 4 17 17 6 "
    "8 5 4 2 1 3 6 9 7 23 9 27 46 478 568 18 15 34 1 37 6 9 47 58 2 58 34",
)


@pytest.mark.parametrize(
    ("grid", "expected", "text"),
    [
        (BUG_2_DIGITS, "r8c5<>8", "4 in r8c5, 8 in r8c6"),
        # r6c4 (457) holds 4 and r8c4 (467) 6 (BUG type 4 finds this one too)
        (BUG_34, "r8c4<>4", "4 in r6c4, 6 in r8c4"),
    ],
)
def test_bug_plus_n_fires_on_extras_of_two_digits(grid, expected, text):
    # One extra candidate is true; 8 in r8c5 (4 in r8c4) would make both false.
    puzzle, pencil = grid
    step = _find("bug_plus_n", CandidateState.from_candidates(pencil))
    assert step is not None
    assert compact(step) == expected
    assert step.rating == 5.7
    assert english(step).startswith(f"BUG+2: without the extra candidates {text}")
    truth = solvers.get("dlx").solve(Grid.parse(puzzle)).solution.cells
    assert all(truth[cell] != digit for cell, digit in step.eliminations)


def test_bug_types_2_to_4_miss_what_bug_plus_n_finds():
    state = CandidateState.from_candidates(BUG_2_DIGITS[1])
    assert all(_find(name, state) is None for name in ("bug_type_2", "bug_type_3", "bug_type_4"))


def test_bug_plus_n_needs_two_cells_beyond_a_bug():
    # Without r8c4's 6 only r6c4 holds a digit beyond the BUG: that is BUG+1's case.
    tokens = BUG_34[1].split()
    tokens[7 * 9 + 3] = "67"
    assert _find("bug_plus_n", CandidateState.from_candidates(" ".join(tokens))) is None


# -- soundness on other box shapes ------------------------------------------------------
def test_every_step_is_sound_on_other_shapes():
    # With the singles alone before them, the new techniques do much of the work.
    config = "+".join(("singles", *NEW))
    counts: dict[str, int] = {}
    for box, count, seed in (((2, 3), 40, 7), ((2, 4), 20, 7), ((3, 4), 1, 99)):
        for puzzle, solution in generated(box, count, seed):
            result = propagate(CandidateState.from_grid(puzzle), config, solution=solution)
            assert result.status != "contradiction", puzzle.format()
            for name in NEW:
                counts[name] = counts.get(name, 0) + result.counts.get(name, 0)
    assert sum(counts.values()) >= 4, counts
