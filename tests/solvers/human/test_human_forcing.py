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
from tests.human_fixtures import EMPTY
from tests.human_fixtures import FORCING_CASES as CASES

# The stronger kinds never came first on the generated corpora: their finders run alone on
# the dynamic case's grid (where the engine would take the plain dynamic chain).
ALONE = {
    "dynamic_forcing_chain_plus": ("dynamic_forcing_chain", "r2c2<>5"),
    "nested_forcing_chain": ("dynamic_forcing_chain", "r2c2<>5"),
    "nested_multiple_chain": ("dynamic_forcing_chain", "r2c2<>5"),
    "nested_dynamic_chain": ("dynamic_forcing_chain", "r1c1<>2"),
}
# Every candidate of an empty grid is in some solution: nothing is forced (4x4 for the
# nested kind, whose search on an empty 9x9 grid would try every pair of candidates).
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
    empty = EMPTY4 if name.startswith("nested") else EMPTY
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


def test_the_length_bonus_follows_sudoku_explainer_s_series_without_end():
    # a tenth per threshold the chain's length (facts - 2) passes: 4, 6, 8, 12, 16, 24,
    # ..., each 3/2 then 4/3 of the one before; nested chains pass 128
    assert [length_bonus(t + 2) for t in (4, 5, 128, 129, 192, 193, 256, 257)] == [
        0.0,
        0.1,
        1.0,
        1.1,
        1.1,
        1.2,
        1.2,
        1.3,
    ]
    assert [length_bonus(t + 3) for t in (384, 512, 768, 1024, 1536, 2048)] == [
        1.4,
        1.5,
        1.6,
        1.7,
        1.8,
        1.9,
    ]


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
    cells_only = forcing.search_chains(
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
    conflict = branches.emptied(parents, (a, b, c), off)
    # c is the cheapest to leave out: a and b force r1c2=4 while r1c2<>4
    assert conflict == (c - off, c)
    assert parents[c - off] == (a, b)
    # both sides count, the facts they share twice: {r1c2=4, a, b, x, seed} and {c, seed}
    assert branches.conflict_size(parents, conflict, branches.DYNAMIC) == 7
    assert len(branches.ancestors(parents, (a, b, c))) == 5  # the old count, one side
