"""Sudoku Explainer's direct techniques on hand-made candidate grids: where each must fire, and not.

Each grid starts with every candidate in every cell and removes a few, so the
pattern under test is the only thing in it.
"""

from __future__ import annotations

import pytest

from solvers.grid import shape
from solvers.human import CandidateState, compact, propagate, rate
from solvers.human.table import BY_NAME
from solvers.human.techniques import direct

SHAPE = shape(3, 3)


def _cell(name: str) -> int:
    return (int(name[1]) - 1) * 9 + int(name[3]) - 1


def grid(*removals: tuple[int, str]) -> str:
    """A pencil-mark grid: every digit everywhere, except `digit` from each of the cells listed."""
    cells = [set(range(1, 10)) for _ in range(81)]
    for digit, names in removals:
        for name in names.split():
            cells[_cell(name)].discard(digit)
    return " ".join("".join(map(str, sorted(c))) for c in cells)


BOX1_ROWS23 = "r2c1 r2c2 r2c3 r3c1 r3c2 r3c3"
BOX2_ROW3 = "r3c4 r3c5 r3c6"
# technique: (fires, does not fire, the step where it fires)
CASES = {
    # 5 lies in row 1 within box 1; in box 2 it is then left only in r2c5.
    "direct_pointing": (
        grid((5, "r1c3 " + BOX1_ROWS23), (5, "r1c5 r1c6 r2c4 r2c6 " + BOX2_ROW3)),
        grid((5, "r1c3 " + BOX1_ROWS23), (5, "r1c5 r1c6 r2c4 r2c6 r3c4 r3c6")),
        "r2c5=5",
    ),
    # 5 lies in box 1 within row 1; row 2 then has it only in r2c3 and r2c7.
    "direct_claiming": (
        grid((5, "r1c3 r1c4 r1c5 r1c6 r1c7 r1c8 r1c9"), (5, "r2c1 r2c2 r2c4 r2c5 r2c6 r2c8 r2c9")),
        grid((5, "r1c3 r1c4 r1c5 r1c6 r1c7 r1c8 r1c9"), (5, "r2c1 r2c2 r2c4 r2c5 r2c6 r2c9")),
        "r2c7=5",
    ),
    # 1 and 2 fit only in r1c1 and r1c2; 3 is then left only in r1c5.
    "direct_hidden_pair": (
        grid(
            (1, "r1c3 r1c4 r1c5 r1c6 r1c7 r1c8 r1c9"),
            (2, "r1c3 r1c4 r1c5 r1c6 r1c7 r1c8 r1c9"),
            (3, "r1c2 r1c3 r1c4 r1c6 r1c7 r1c8 r1c9"),
        ),
        grid(
            (1, "r1c3 r1c4 r1c5 r1c6 r1c7 r1c8 r1c9"),
            (2, "r1c3 r1c4 r1c5 r1c6 r1c7 r1c8 r1c9"),
            (3, "r1c2 r1c3 r1c4 r1c7 r1c8 r1c9"),
        ),
        "r1c5=3",
    ),
    # 1, 2 and 3 fit only in r1c1-r1c3; 4 is then left only in r1c5.
    "direct_hidden_triple": (
        grid(
            (1, "r1c4 r1c5 r1c6 r1c7 r1c8 r1c9"),
            (2, "r1c4 r1c5 r1c6 r1c7 r1c8 r1c9"),
            (3, "r1c4 r1c5 r1c6 r1c7 r1c8 r1c9"),
            (4, "r1c2 r1c3 r1c4 r1c6 r1c7 r1c8 r1c9"),
        ),
        grid(
            (1, "r1c4 r1c5 r1c6 r1c7 r1c8 r1c9"),
            (2, "r1c4 r1c5 r1c6 r1c7 r1c8 r1c9"),
            (3, "r1c4 r1c5 r1c6 r1c7 r1c8 r1c9"),
            (4, "r1c2 r1c3 r1c4 r1c7 r1c8 r1c9"),
        ),
        "r1c5=4",
    ),
}
# Direct claiming's grid also holds a direct pointing (box 2 keeps 5 only in row 3), which
# Sudoku Explainer, and the engine, try first: the finder is tested alone there.
ENGINE_FIRST = {"direct_pointing", "direct_hidden_pair", "direct_hidden_triple"}


@pytest.mark.parametrize("name", list(CASES))
def test_direct_technique_fires(name):
    fires, _, expected = CASES[name]
    step = BY_NAME[name].find(CandidateState.from_candidates(fires))
    assert step is not None
    assert step.technique == name
    assert compact(step) == expected
    assert step.eliminations == ()
    assert step.rating == BY_NAME[name].se


@pytest.mark.parametrize("name", list(CASES))
def test_direct_technique_does_not_fire(name):
    _, quiet, _ = CASES[name]
    assert BY_NAME[name].find(CandidateState.from_candidates(quiet)) is None


@pytest.mark.parametrize("name", sorted(ENGINE_FIRST))
def test_direct_technique_is_the_engines_next_step(name):
    fires, _, expected = CASES[name]
    step = propagate(CandidateState.from_candidates(fires), max_steps=1).steps[0]
    assert step.technique == name
    assert compact(step) == expected


def test_explanations_name_the_pattern_and_the_single():
    text = str(direct.direct_pointing(CandidateState.from_candidates(CASES["direct_pointing"][0])))
    assert text == (
        "Direct pointing: in box 1, 5 lies only in row 1 (r1c1, r1c2), "
        "so 5 has one place left in box 2: r2c5 = 5"
    )
    pair = CASES["direct_hidden_pair"][0]
    assert str(direct.direct_hidden_pair(CandidateState.from_candidates(pair))) == (
        "Direct hidden pair 1/2 in row 1 (r1c1, r1c2): 3 has one place left in row 1: r1c5 = 3"
    )


def test_easy_puzzles_rate_as_sudoku_explainer_does():
    # corpora/data/gen9-easy.txt line 53: singles and one direct step at most
    r = rate("...8.15...2....89.45.....3.7..6.8.............4...5...1...7..58.7.3149..6.....7..")
    assert r.status == "solved"
    assert r.er <= 2.0
