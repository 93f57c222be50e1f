"""The start of the variant generator: whole-grid rules, clues read off a solution, uniqueness."""

from __future__ import annotations

import random

import pytest

import solvers
from corpora import variant_generate
from corpora.variant_generate import (
    CLUES,
    GLOBAL,
    kinds_of,
    make,
    make_many,
    random_jigsaw,
    windows,
)
from solvers.grid import shape
from solvers.variants import KINDS, AntiKing, AntiKnight
from solvers.verify import check

pytest.importorskip("ortools")


def test_every_kind_has_a_recipe():
    assert set(GLOBAL) | set(CLUES) == set(KINDS)


def test_windoku_windows_sit_one_cell_in_from_the_box_corners():
    nine = windows(shape(3, 3))
    assert [w.cells[0] for w in nine] == [10, 14, 46, 50]  # r2c2 r2c6 r6c2 r6c6
    assert all(len(w.cells) == 9 for w in nine)
    assert len(windows(shape(2, 3))) == 2


def test_a_random_jigsaw_has_connected_regions_of_n_cells():
    s = shape(3, 3)
    jigsaw = random_jigsaw(s, random.Random(3))
    jigsaw.validate(s)
    boxes = {tuple(c for c in range(81) if s.box_of(c) == b) for b in range(9)}
    assert set(jigsaw.regions) != boxes
    for region in jigsaw.regions:
        seen, todo = {region[0]}, [region[0]]
        while todo:
            r, c = divmod(todo.pop(), 9)
            for x in ((r + 1) * 9 + c, (r - 1) * 9 + c, r * 9 + c + 1, r * 9 + c - 1):
                if x in region and x not in seen and abs(x % 9 - c) <= 1:
                    seen.add(x)
                    todo.append(x)
        assert seen == set(region)


@pytest.mark.parametrize("kind", ["jigsaw", "killer", "sandwich", "kropki-negative"])
def test_a_made_puzzle_has_one_solution_which_keeps_every_constraint(kind):
    made = make(kind, (2, 3), seed=7)
    assert kind in {c.kind for c in made.puzzle.constraints}
    assert check(made.puzzle, made.solution) == []
    result = solvers.get("cpsat").solve(made.puzzle, limit=2)
    assert result.unique
    assert result.solution.cells == made.solution.cells
    assert make(kind, (2, 3), seed=7) == made  # a seed gives the same puzzle


def test_an_unknown_kind_is_refused():
    with pytest.raises(ValueError, match="unknown kind 'magic'"):
        make("magic")


def test_several_kinds_make_one_puzzle_whatever_order_they_are_asked_in():
    made = make(["thermometer", "anti-knight"], (2, 3), seed=4)
    assert {c.kind for c in made.puzzle.constraints} == {"thermometer", "anti-knight"}
    assert check(made.puzzle, made.solution) == []
    assert solvers.get("cpsat").solve(made.puzzle, limit=2).unique
    assert make(["anti-knight", "thermometer", "anti-knight"], (2, 3), seed=4) == made


def test_one_kind_in_a_list_is_that_kind_alone():
    assert make(["xv"], (2, 2), seed=3) == make("xv", (2, 2), seed=3)


def test_kinds_come_in_the_order_their_rules_apply():
    assert kinds_of(["sandwich", "jigsaw", "killer"]) == ("jigsaw", "killer", "sandwich")


@pytest.mark.parametrize(("a", "b"), [("kropki", "kropki-negative"), ("jigsaw", "disjoint-groups")])
def test_kinds_that_draw_on_the_same_places_are_refused_together(a, b):
    with pytest.raises(ValueError, match="do not go together"):
        kinds_of([a, b])


def test_make_many_gives_the_puzzles_of_their_own_seeds():
    first, second = make_many("parity", (2, 2), 2, "s")
    assert (first, second) == (make("parity", (2, 2), "s:0"), make("parity", (2, 2), "s:1"))
    assert first != second


def test_whole_grid_rules_with_no_solution_are_drawn_again(monkeypatch):
    draws = iter([(AntiKing(),), (AntiKnight(),)])  # no 4x4 grid keeps anti-king; one keeps this
    monkeypatch.setitem(variant_generate.GLOBAL, "anti-king", lambda s, rng: next(draws))
    made = variant_generate.make("anti-king", (2, 2), seed=0)
    assert [c.kind for c in made.puzzle.constraints] == ["anti-knight"]
    assert check(made.puzzle, made.solution) == []


def test_rules_no_draw_can_keep_end_in_no_puzzle_after_a_few_draws(monkeypatch):
    drawn = []
    monkeypatch.setitem(
        variant_generate.GLOBAL, "anti-king", lambda s, rng: drawn.append(1) or (AntiKing(),)
    )
    with pytest.raises(variant_generate.NoPuzzle, match="no draw of the whole-grid rules"):
        variant_generate.make("anti-king", (2, 2), seed=0)
    assert len(drawn) == variant_generate.LAYOUTS
