"""Forcing chains: each kind on a grid where it is the next step, and where it must not fire.

The grids are states the engine reached on the project's own generated corpora
(``corpora/data/gen9-*.txt``; file, line and step are noted at each case);
the puzzle is kept so every step is also checked against its solution.
"""

from __future__ import annotations

import pytest

import solvers
from solvers.grid import Grid
from solvers.human import CandidateState, compact, propagate, rate, record
from solvers.human.table import BY_NAME, TECHNIQUES
from solvers.human.techniques import branches, forcing
from solvers.human.techniques.chains import length_bonus

# technique: (puzzle, candidate grid before the step, the step in compact notation)
CASES = {
    # corpora/data/gen9-extreme.txt line 6, step 30 of the engine's path
    "forcing_chain": (
        ".34....5...8..64..7.1.......8.6...3.6..2....4....1...........9.9.2.4.8......891..",
        "2 3 4 8 79 1 679 5 679 5 9 8 37 237 6 4 27 1 7 6 1 4 29 5 39 28 389 1 8 579 6 57 4 2 3 "
        "579 6 57 3579 2 357 8 579 1 4 4 2 357 9 1 37 567 678 5678 8 4 57 1 6 2 357 9 357 9 1 2 "
        "357 4 37 8 67 567 3 57 6 57 8 9 1 4 2",
        "r4c3<>5",
    ),
    # corpora/data/gen9-extreme.txt line 38, step 23
    "nishio": (
        "37.....5.16..5.7.........21..612.....1...5..645.73....79.46.........2..4....9....",
        "3 7 289 2689 148 14 4689 5 89 1 6 289 2389 5 3489 7 3489 389 89 4 5 368 78 3789 368 2 "
        "1 89 3 6 1 2 489 459 4789 579 2 1 7 89 48 5 3489 39 6 4 5 89 7 3 6 128 189 28 7 9 13 4 "
        "6 138 25 138 25 56 8 13 35 17 2 139 13679 4 56 2 4 358 9 1378 138 13678 378",
        "r2c8<>9",
    ),
    # corpora/data/gen9-extreme.txt line 24, step 18
    "cell_forcing_chain": (
        "....47.2.7.8....6.........5.8.6.....6...1.84...1.3....5.3......24.8...53....2....",
        "13 569 569 1359 4 7 139 2 8 7 259 8 12359 59 12359 1349 6 149 13 29 4 1239 8 6 1379 "
        "1379 5 49 8 257 6 579 249 12357 137 1279 6 3 257 2579 1 259 8 4 279 49 57 1 24579 3 8 "
        "25679 79 2679 5 1679 3 1479 679 149 12679 8 12679 2 4 679 8 679 19 1679 5 3 8 1679 "
        "679 35 2 35 14679 179 14679",
        "r6c4<>7",
    ),
    # corpora/data/gen9-extreme.txt line 55, step 28
    "region_forcing_chain": (
        ".6....4....8..46.....1...93...2.71..1...6...5.73..9..4.92.........79....6.4....2.",
        "239 6 17 3589 23578 358 4 157 128 2359 135 8 359 357 4 6 157 12 245 45 57 1 278 6 578 "
        "9 3 458 458 6 2 358 7 1 38 9 1 2 9 4 6 38 37 378 5 58 7 3 58 1 9 2 6 4 7 9 2 6 4 358 "
        "358 135 18 358 1358 15 7 9 2 358 4 6 6 358 4 358 358 1 9 2 7",
        "r3c1<>5",
    ),
    # corpora/data/gen9-extreme.txt line 55, step 26
    "dynamic_forcing_chain": (
        ".6....4....8..46.....1...93...2.71..1...6...5.73..9..4.92.........79....6.4....2.",
        "239 6 157 3589 23578 358 4 157 128 2359 135 8 359 2357 4 6 157 12 245 45 57 1 2578 6 "
        "578 9 3 458 458 6 2 358 7 1 38 9 1 2 9 4 6 38 37 378 5 58 7 3 58 1 9 2 6 4 7 9 2 6 4 "
        "358 358 135 18 358 1358 15 7 9 2 358 4 6 6 358 4 358 358 1 9 2 7",
        "r1c5<>5",
    ),
}
# The stronger kinds never came first on the generated corpora: their finders run alone on
# the dynamic case's grid (where the engine would take the plain dynamic chain).
ALONE = {
    "dynamic_forcing_chain_plus": ("dynamic_forcing_chain", "r1c5<>5"),
    "nested_forcing_chain": ("dynamic_forcing_chain", "r1c1<>2"),
}
# Every candidate of an empty grid is in some solution: nothing is forced (4x4 for the
# nested kind, whose search on an empty 9x9 grid would try every pair of candidates).
EMPTY = " ".join(["123456789"] * 81)
EMPTY4 = " ".join(["1234"] * 16)
FORCING = [t.name for t in TECHNIQUES if t.family == "forcing"]


def _truth(puzzle: str) -> tuple[int, ...]:
    result = solvers.get("dlx").solve(Grid.parse(puzzle), limit=2)
    assert result.unique
    return result.solution.cells


def _assert_sound(step, puzzle: str, pencilmarks: str) -> None:
    truth = _truth(puzzle)
    state = CandidateState.from_candidates(pencilmarks)
    for cell, digit in step.eliminations:
        assert truth[cell] != digit
        assert state.candidates(cell) >> (digit - 1) & 1
    for cell, digit in step.placements:
        assert truth[cell] == digit


def test_every_forcing_kind_has_a_case():
    assert set(CASES) | set(ALONE) == set(FORCING)


@pytest.mark.parametrize("name", list(CASES))
def test_forcing_chain_is_next_step(name):
    puzzle, pencilmarks, expected = CASES[name]
    result = propagate(CandidateState.from_candidates(pencilmarks), max_steps=1)
    step = result.steps[0]
    assert step.technique == name
    assert compact(step) == expected
    _assert_sound(step, puzzle, pencilmarks)


@pytest.mark.parametrize("name", list(ALONE))
def test_stronger_kinds_alone(name):
    case, expected = ALONE[name]
    puzzle, pencilmarks, _ = CASES[case]
    step = BY_NAME[name].find(CandidateState.from_candidates(pencilmarks))
    assert step is not None
    assert step.technique == name
    assert compact(step) == expected
    _assert_sound(step, puzzle, pencilmarks)


@pytest.mark.parametrize("name", FORCING)
def test_nothing_is_forced_on_an_empty_grid(name):
    empty = EMPTY4 if name == "nested_forcing_chain" else EMPTY
    assert BY_NAME[name].find(CandidateState.from_candidates(empty)) is None


@pytest.mark.parametrize("name", list(CASES))
def test_rating_adds_the_length_bonus(name):
    _, pencilmarks, _ = CASES[name]
    step = BY_NAME[name].find(CandidateState.from_candidates(pencilmarks))
    kind, sources, facts = step.detail
    base = BY_NAME[name].se
    if name == "forcing_chain" and len({d for _, d in step.chain}) > 1:
        base = 7.0  # 6.6 only for a chain on one digit
    assert step.rating == round(base + length_bonus(facts), 1)
    if kind == "contradiction" and name != "forcing_chain":
        # nishio and dynamic contradictions between an on and an off fact count each side
        # on its own (Sudoku Explainer's way): the facts both rest on count twice
        assert facts >= len(step.chain)
    else:
        assert facts == len(step.chain) or kind in ("cell", "region", "both")


def test_explanations_say_what_was_assumed():
    texts = {}
    for name, (_, pencilmarks, _) in CASES.items():
        step = BY_NAME[name].find(CandidateState.from_candidates(pencilmarks))
        texts[name] = str(step)
        assert record(step)["chain"]
    assert "assuming r" in texts["forcing_chain"]
    assert "contradiction" in texts["forcing_chain"]
    assert texts["cell_forcing_chain"].startswith("Cell forcing chain: every candidate of r")
    assert "every place of" in texts["region_forcing_chain"]


def test_a_puzzle_the_chains_finish_soundly():
    # corpora/data/gen9-extreme.txt line 4: no chain of the second tier finishes it
    puzzle = CASES["forcing_chain"][0]
    assert rate(puzzle, "no_uniqueness").status == "solved"
    solution = Grid(3, 3, _truth(puzzle))
    # (the techniques off by default are left out: with a finned X-Wing and a finned
    # Jellyfish, or the ALS techniques, it needs no forcing chain)
    before = [t.name for t in TECHNIQUES if t.family != "forcing" and t.enabled]
    assert rate(puzzle, before).status == "stuck"
    result = propagate(CandidateState.from_grid(Grid.parse(puzzle)), solution=solution)
    assert result.solved
    assert result.counts.get("forcing_chain")


def test_forcing_on_other_shapes_is_sound():
    # a 4x4 with one given per row has many solutions: every conclusion must hold in all
    state = CandidateState.from_grid(Grid.parse("1... .2.. ..3. ...4"))
    step = forcing.dynamic_forcing_chain(state)
    grids = solvers.get("dlx").solve(Grid.parse("1... .2.. ..3. ...4"), limit=100)
    assert step is None or all(
        all(g.cells[c] != d for c, d in step.eliminations) for g in grids.solutions
    )


def test_cell_and_unit_chains_are_one_rule_the_cheapest_first():
    # Sudoku Explainer searches cells and units together: on the forcing-chain case's grid a
    # unit's chain (8 facts, 8.1) beats the best cell's (12 facts, 8.3)
    pencilmarks = CASES["forcing_chain"][1]
    cells_only = forcing._search(
        CandidateState.from_candidates(pencilmarks), branches.STATIC, frozenset({"cell"}), 8.0
    )
    assert (cells_only.rating, cells_only.detail[2]) == (8.3, 12)
    step = BY_NAME["cell_forcing_chain"].find(CandidateState.from_candidates(pencilmarks))
    assert (step.technique, step.rating, step.detail[2]) == ("region_forcing_chain", 8.1, 8)
    # on a tie of rating and facts the cell's chain comes first, as in Sudoku Explainer
    pencilmarks = CASES["nishio"][1]
    step = BY_NAME["cell_forcing_chain"].find(CandidateState.from_candidates(pencilmarks))
    region = BY_NAME["region_forcing_chain"].find(CandidateState.from_candidates(pencilmarks))
    assert (step.rating, step.detail[2]) == (region.rating, region.detail[2]) == (8.3, 14)
    assert step.technique == "cell_forcing_chain"


def test_a_cell_left_without_digits_counts_as_an_on_off_clash():
    off = 81 * 9  # node of r1c1<>1 (on nodes: cell * 9 + digit - 1)
    seed = 0  # r1c1=1
    x = off + 9 * 2 + 3  # r1c3<>4
    a, b, c = off + 9 + 1, off + 9 + 2, off + 9 + 3  # r1c2<>2, r1c2<>3, r1c2<>4
    parents = {seed: (), x: (seed,), a: (x,), b: (x,), c: (seed,)}
    conflict = branches._emptied(parents, (a, b, c), off)
    # c is the cheapest to leave out: a and b force r1c2=4 while r1c2<>4
    assert conflict == (c - off, c)
    assert parents[c - off] == (a, b)
    # both sides count, the facts they share twice: {r1c2=4, a, b, x, seed} and {c, seed}
    assert branches.conflict_size(parents, conflict, branches.DYNAMIC) == 7
    assert len(branches.ancestors(parents, (a, b, c))) == 5  # the old count, one side
