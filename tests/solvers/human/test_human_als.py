"""The techniques on almost locked sets (ALS-XZ, ALS-XY-Wing, ALS chain, Death Blossom) and
Sue de Coq: each fires on a hand-made candidate grid with exact eliminations, keeps quiet
when one link of its pattern is broken, explains itself, and never removes a solution
digit on generated puzzles of several box shapes."""

from __future__ import annotations

import json

import pytest

from solvers.human import CandidateState, propagate
from solvers.human.table import BY_NAME, GROUPS
from solvers.human.trace import compact, record
from tests.human_fixtures import generated

ALS_TECHNIQUES = ("sue_de_coq", "als_xz", "als_xy_wing", "als_chain", "death_blossom")


def _grid(overrides: dict[str, str], default: str = "123456789") -> str:
    """A 9x9 candidate grid: every cell `default`, except the named ones."""
    cells = [default] * 81
    for name, cands in overrides.items():
        cells[(int(name[1]) - 1) * 9 + int(name[3]) - 1] = cands
    return " ".join(cells)


# A = r1c1,r1c2 {123} (row 1) and B = r5c1,r5c3 {134} (row 5): the only 1 of A (r1c1) sees
# the only 1 of B (r5c1), so 1 is restricted common, and 3 is in A (r1c2) or B (r5c3).
XZ = {"r1c1": "12", "r1c2": "23", "r5c1": "14", "r5c3": "34"}
# pivot C = r5c5 {12}; A = r1c5,r1c6 {134} linked to it by 1, B = r5c1 {23} by 2: 3 is in A
# (r1c5 or r1c6) or in B (r5c1), and r1c1 sees all three.
XY_WING = {"r1c5": "134", "r1c6": "34", "r5c5": "12", "r5c1": "23"}
# r1c1 {12} - r2c2 {23} - r2c7 {35} - r5c7 {56} - r5c3 {46} - r8c3 {14}: in sets of its
# units, 1 is in r1c1 or in r8c3.
CHAIN = {"r1c1": "12", "r2c2": "23", "r2c7": "35", "r5c7": "56", "r5c3": "46", "r8c3": "14"}
# stem r5c5 {123}: petals r5c2 {14} for 1, r5c3 {24} for 2, r6c5 {34} for 3, each seeing it.
BLOSSOM = {"r5c5": "123", "r5c2": "14", "r5c3": "24", "r6c5": "34"}
# r1c1,r1c2 {1234} where box 1 meets row 1, completed by r1c5 {12} in the row and r2c3 {34}
# in the box: four cells, four digits.
SUE_DE_COQ = {"r1c1": "1234", "r1c2": "1234", "r1c5": "12", "r2c3": "34"}

FIRES = [
    ("als_xz", XZ, "r1c3<>3 r2c3<>3 r3c3<>3 r4c2<>3 r5c2<>3 r6c2<>3", "restricted common 1"),
    ("als_xy_wing", XY_WING, "r1c1<>3", "(3=2)r5c1{23} - (2=1)r5c5{12} - (1=3)r1c5,r1c6{134}"),
    ("als_chain", CHAIN, "r1c3<>1 r2c3<>1 r3c3<>1 r7c1<>1 r8c1<>1 r9c1<>1", "1 is in the first"),
    (
        "death_blossom",
        BLOSSOM,
        "r5c4<>4 r5c6<>4 r6c1<>4 r6c2<>4 r6c3<>4",
        "stem r5c5{123}, petals 1: r5c2{14}; 2: r5c3{24}; 3: r6c5{34}",
    ),
    (
        "sue_de_coq",
        SUE_DE_COQ,
        "r1c3<>1,2,3,4 r1c4<>1,2 r1c6<>1,2 r1c7<>1,2 r1c8<>1,2 r1c9<>1,2 "
        "r2c1<>3,4 r2c2<>3,4 r3c1<>3,4 r3c2<>3,4 r3c3<>3,4",
        "r1c1,r1c2{1234} + line r1c5{12} + box r2c3{34}",
    ),
]
QUIET = [
    ("als_xz", {**XZ, "r5c1": "5", "r5c2": "14"}),  # r5c2 does not see r1c1: no RCC
    ("als_xy_wing", {**XY_WING, "r5c5": "5", "r5c4": "12"}),  # the pivot misses r1c5
    ("als_chain", {**CHAIN, "r8c3": "15"}),  # the last set no longer links by 4
    ("death_blossom", {**BLOSSOM, "r5c5": "1235"}),  # no petal for 5
    ("sue_de_coq", {**SUE_DE_COQ, "r2c3": "35"}),  # five digits for four cells
]


@pytest.mark.parametrize(("name", "marks", "expected", "text"), FIRES)
def test_fires_with_exact_eliminations(name, marks, expected, text):
    step = BY_NAME[name].find(CandidateState.from_candidates(_grid(marks)))
    assert step is not None
    assert step.technique == name
    assert compact(step) == expected
    assert step.rating == BY_NAME[name].se
    assert text in str(step)


@pytest.mark.parametrize(("name", "marks"), QUIET)
def test_quiet_when_the_pattern_is_broken(name, marks):
    assert BY_NAME[name].find(CandidateState.from_candidates(_grid(marks))) is None


def test_doubly_linked_als_xz_locks_both_sets():
    # A = r1c1,r1c2 {123}, B = r5c1,r5c2 {134}: 1 (column 1) and 3 (column 2) are both
    # restricted common, so both sets are locked: 2 leaves box 1 and row 1, 4 row 5 and
    # box 4, and 1 and 3 leave the rest of their columns.
    marks = {"r1c1": "12", "r1c2": "23", "r5c1": "14", "r5c2": "34"}
    step = BY_NAME["als_xz"].find(CandidateState.from_candidates(_grid(marks)))
    assert step is not None
    assert "doubly linked" in str(step)
    elims = set(step.eliminations)
    assert (2 * 9 + 0, 1) in elims  # r3c1 loses 1 (column 1)
    assert (8 * 9 + 1, 3) in elims  # r9c2 loses 3 (column 2)
    assert (0 * 9 + 5, 2) in elims  # r1c6 loses 2 (row 1)
    assert (4 * 9 + 8, 4) in elims  # r5c9 loses 4 (row 5)
    assert all(d in (1, 2, 3, 4) for _, d in elims)


@pytest.mark.parametrize(("name", "marks", "expected", "text"), FIRES)
def test_json_record_names_the_sets_and_links(name, marks, expected, text):
    step = BY_NAME[name].find(CandidateState.from_candidates(_grid(marks)))
    out = json.loads(json.dumps(record(step)))
    assert out["sets"]
    assert all(s["cells"] and s["digits"] for s in out["sets"])
    assert out["notation"] in out["text"]
    assert out["compact"] == expected


def test_off_by_default_and_in_extended():
    for name in ALS_TECHNIQUES:
        assert not BY_NAME[name].enabled
        assert name not in GROUPS["all"]
        assert name in GROUPS["extended"]
        assert BY_NAME[name].family == "als"


@pytest.mark.parametrize("box", [(2, 2), (2, 3), (2, 4), (3, 3), (3, 4)])
def test_sound_on_generated_puzzles_of_every_shape(box):
    """Classic techniques plus these, every step checked against the solution."""
    count = {(3, 4): 2, (3, 3): 6}.get(box, 8)
    techniques = list(GROUPS["classic"]) + list(ALS_TECHNIQUES)
    for puzzle, solution in generated(box, count, 7):
        result = propagate(CandidateState.from_grid(puzzle), techniques, solution=solution)
        assert result.status in ("solved", "stuck")
        if result.solved:
            assert result.state.to_grid() == solution


def test_sound_and_used_on_a_16x16_puzzle():
    """gen16 line 9 needs ALS-XZ and ALS-XY-Wing steps beyond the classic techniques."""
    from pathlib import Path

    import corpora
    import solvers
    from solvers.grid import Grid

    path = Path(corpora.__file__).parent / "data" / "gen16.txt"
    lines = [x.split()[0] for x in path.read_text().splitlines() if x and x[0] != "#"]
    puzzle = Grid.parse(lines[8])
    solution = solvers.get("dlx").solve(puzzle).solution
    techniques = list(GROUPS["classic"]) + list(ALS_TECHNIQUES)
    result = propagate(CandidateState.from_grid(puzzle), techniques, solution=solution)
    assert result.solved
    assert result.counts.get("als_xz", 0)
    assert result.counts.get("als_xy_wing", 0)
