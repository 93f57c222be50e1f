"""The variant puzzle model: constraints as validated, hashable values on a `Grid`."""

from __future__ import annotations

import pytest

from solvers.grid import Grid, shape
from solvers.transforms import relabel_digits, transpose
from solvers.variants import (
    KINDS,
    XV,
    AntiKing,
    AntiKnight,
    Arrow,
    ConstraintError,
    Diagonal,
    DisjointGroups,
    ExtraRegion,
    GreaterThan,
    Jigsaw,
    Killer,
    Kropki,
    KropkiNegative,
    LittleKiller,
    NonConsecutive,
    Parity,
    Sandwich,
    Thermometer,
    XVNegative,
    houses,
    kinds,
)
from solvers.variants.canonical import (
    PuzzleDataError,
    constraint_data,
    constraint_from_data,
    from_json,
    puzzle_from_data,
    to_json,
)

N9 = shape(3, 3)
ROWS9 = tuple(tuple(r * 9 + c for c in range(9)) for r in range(9))

# One valid constraint of every kind on a 9x9 grid.
SAMPLES = {
    "jigsaw": Jigsaw(ROWS9),
    "extra-region": ExtraRegion((10, 11, 12, 19, 20, 21, 28, 29, 30)),
    "disjoint-groups": DisjointGroups(),
    "diagonal": Diagonal("anti"),
    "anti-knight": AntiKnight(),
    "anti-king": AntiKing(),
    "non-consecutive": NonConsecutive(),
    "killer": Killer((0, 1, 9), 12),
    "little-killer": LittleKiller((6, 16, 26), 11),
    "thermometer": Thermometer((4, 3, 13)),
    "arrow": Arrow((0,), (1, 10)),
    "kropki": Kropki((7, 16), "black"),
    "kropki-negative": KropkiNegative("black"),
    "xv": XV((27, 36), 5),
    "xv-negative": XVNegative(),
    "parity": Parity(40, "even"),
    "greater-than": GreaterThan((0, 1)),
    "sandwich": Sandwich(tuple(range(9)), 16),
}


def test_every_kind_has_a_sample():
    assert set(SAMPLES) == set(KINDS)


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_constraint_is_a_hashable_value_of_its_kind(kind):
    constraint = SAMPLES[kind]
    assert constraint.kind == kind
    assert constraint == constraint_from_data(constraint_data(constraint, 9), 9)
    assert hash(constraint) == hash(constraint_from_data(constraint_data(constraint, 9), 9))
    constraint.validate(N9)


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_grid_keeps_each_kind_through_its_canonical_json(kind):
    grid = Grid(3, 3, (0,) * 81, constraints=(SAMPLES[kind],))
    assert from_json(to_json(grid)) == grid
    assert kinds(grid) == {kind}


def test_constraints_are_part_of_equality_and_hash_in_any_order():
    a, b = Killer((0, 1), 3), Thermometer((20, 21))
    one = Grid(3, 3, (0,) * 81, constraints=(a, b))
    other = Grid(3, 3, (0,) * 81, constraints=[b, a, b])
    assert one == other
    assert hash(one) == hash(other)
    assert one.constraints == (a, b)  # canonical order, duplicates dropped
    assert one != one.with_constraints(())
    assert one.replace(one.cells).constraints == one.constraints


def test_a_classic_grid_has_no_constraints():
    grid = Grid.parse("1... 3..2 ...3 ..2.")
    assert grid.constraints == ()
    assert grid == Grid(2, 2, grid.cells)
    assert houses(grid) == grid.shape.units


def test_cells_are_normalised_and_sets_sorted():
    assert Killer([9, 1, 0], 12).cells == (0, 1, 9)
    assert Thermometer([13, 4, 3]).cells == (13, 4, 3)  # a path keeps its order
    assert Kropki((16, 7)).value == 1
    assert Kropki((16, 7), "black").value == 2


BAD = [
    (Killer((0, 1), 18), "2 distinct digits 1..9 sum to 3..17, never 18"),
    (Killer(tuple(range(10))), "10 cells cannot hold different digits"),
    (Killer((80, 81), 3), "cell r10c1 is outside the 9x9 grid"),
    (Thermometer((0, 2)), "do not touch"),
    (Thermometer(tuple(range(9)) + (17,)), "cannot strictly increase"),
    (LittleKiller((16, 26), 9), "from one edge of the grid to another"),
    (LittleKiller((6, 16, 26), 40), "never 40"),
    (LittleKiller((0, 2), 3), "not on one diagonal"),
    (Arrow((0,), (20,)), "does not start next to its circle"),
    (Arrow((0,), tuple(range(1, 9)) + (17, 16)), "more than the circle's 9"),
    (Kropki((0, 10)), "not orthogonal neighbours"),
    (Kropki((0, 1), "black", 10), "ratio 10"),
    (Kropki((0, 1), "white", 9), "never 9"),
    (XV((0, 2), 10), "not orthogonal neighbours"),
    (GreaterThan((0, 9 + 1)), "not orthogonal neighbours"),
    (Sandwich((0, 1, 2), 3), "not one whole row or column"),
    (Sandwich(tuple(range(9)), 34), "sum to 34"),
    (Sandwich(tuple(range(9)), 1), "sum to 1"),
    (Jigsaw(ROWS9[:8]), "has 9 regions, not 8"),
    (Jigsaw(ROWS9[:8] + (ROWS9[8][:8], (0,))), "is in two regions"),
    (Jigsaw(ROWS9[:7] + (ROWS9[7] + (72,), ROWS9[8][1:])), "has 10 cells, not 9"),
    (ExtraRegion(tuple(range(10))), "2 to 9 cells"),
]


@pytest.mark.parametrize(("constraint", "message"), BAD, ids=[str(i) for i in range(len(BAD))])
def test_a_constraint_the_grid_cannot_hold_is_refused_with_its_name(constraint, message):
    with pytest.raises(ConstraintError, match=message) as caught:
        Grid(3, 3, (0,) * 81, constraints=(constraint,))
    assert str(caught.value).startswith(constraint.describe(9).split()[0])


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: Killer((0, 0), 2), "listed twice"),
        (lambda: Killer((), 2), "no cells"),
        (lambda: Killer((0, -1), 2), "non-negative integers"),
        (lambda: Killer((0, 1), "10"), "expected an integer"),
        (lambda: Thermometer((0,)), "at least 2 cells"),
        (lambda: Arrow((0,), (0, 1)), "both in the circle and on the path"),
        (lambda: Kropki((0, 1), "grey"), "expected one of white, black"),
        (lambda: Kropki((0, 1, 2)), "joins 2 cells"),
        (lambda: XV((0, 1), 7), "5 \\(V\\) or 10 \\(X\\)"),
        (lambda: Diagonal("up"), "main, anti"),
        (lambda: Parity(3, "even-ish"), "odd, even"),
    ],
)
def test_a_constraint_checks_its_own_values_when_built(build, message):
    with pytest.raises(ConstraintError, match=message):
        build()


def test_constraints_that_clash_are_refused_together():
    with pytest.raises(ConstraintError, match="one set of jigsaw regions"):
        Grid(3, 3, (0,) * 81, constraints=(Jigsaw(ROWS9), Jigsaw(tuple(zip(*ROWS9, strict=True)))))
    with pytest.raises(ConstraintError, match="disjoint groups"):
        Grid(3, 3, (0,) * 81, constraints=(Jigsaw(ROWS9), DisjointGroups()))
    with pytest.raises(ConstraintError, match="two kropki dots between r1c1 r1c2"):
        Grid(3, 3, (0,) * 81, constraints=(Kropki((0, 1)), Kropki((0, 1), "black")))
    with pytest.raises(TypeError, match="Constraint values"):
        Grid(3, 3, (0,) * 81, constraints=("killer",))


def test_jigsaw_regions_replace_the_boxes_as_houses():
    columns = tuple(zip(*ROWS9, strict=True))
    grid = Grid(3, 3, (0,) * 81, constraints=(Jigsaw(columns),))
    assert houses(grid)[18:] == tuple(sorted(columns))
    assert houses(grid)[:18] == grid.shape.units[:18]


def test_a_jigsaw_of_prime_side_has_nominal_one_row_boxes():
    regions = tuple(tuple(sorted(r * 5 + (c + r) % 5 for r in range(5))) for c in range(5))
    grid, _ = puzzle_from_data(
        {"size": 5, "constraints": [{"kind": "jigsaw", "regions": _names(regions, 5)}]}
    )
    assert (grid.box_rows, grid.box_cols) == (1, 5)
    assert grid.constraints[0].regions == tuple(sorted(regions))


def _names(regions, n):
    return [[f"r{c // n + 1}c{c % n + 1}" for c in region] for region in regions]


# -- moving with the grid ------------------------------------------------------------
def test_constraints_move_with_a_transposition():
    grid = Grid(
        3,
        3,
        (0,) * 81,
        constraints=(Thermometer((0, 1, 2)), Sandwich(tuple(range(9)), 16), AntiKnight()),
    )
    moved = transpose(9).apply(grid)
    assert Thermometer((0, 9, 18)) in moved.constraints
    assert Sandwich(tuple(range(0, 81, 9)), 16) in moved.constraints
    assert AntiKnight() in moved.constraints
    assert transpose(9).apply(moved) == grid


def test_a_diagonal_follows_the_move_that_keeps_it():
    grid = Grid(3, 3, (0,) * 81, constraints=(Diagonal("main"),))
    assert transpose(9).apply(grid).constraints == (Diagonal("main"),)
    mirror = tuple(r * 9 + 8 - c for r in range(9) for c in range(9))
    from solvers.transforms import Transform

    assert Transform(mirror, tuple(range(10))).apply(grid).constraints == (Diagonal("anti"),)


def test_a_move_that_breaks_a_rule_is_refused():
    from solvers.transforms import permute_rows

    swap = permute_rows(9, [1, 0, 2, 3, 4, 5, 6, 7, 8])
    with pytest.raises(ConstraintError, match="anti-knight does not survive"):
        swap.apply(Grid(3, 3, (0,) * 81, constraints=(AntiKnight(),)))
    with pytest.raises(ConstraintError, match="do not touch"):
        swap.apply(Grid(3, 3, (0,) * 81, constraints=(Thermometer((0, 9, 18)),)))


RELABELS = {
    "jigsaw",
    "extra-region",
    "disjoint-groups",
    "diagonal",
    "anti-knight",
    "anti-king",
}


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_each_kind_declares_whether_it_survives_relabelling(kind):
    assert SAMPLES[kind].relabels == (kind in RELABELS)


def test_a_cage_without_a_sum_survives_relabelling_and_one_with_a_sum_does_not():
    relabel = relabel_digits(9, [2, 1, 3, 4, 5, 6, 7, 8, 9])
    plain = Grid(3, 3, (1,) + (0,) * 80, constraints=(Killer((0, 1)),))
    assert relabel.apply(plain).cells[0] == 2
    with pytest.raises(ValueError, match="relabelling the digits changes the meaning of killer"):
        relabel.apply(plain.with_constraints((Killer((0, 1), 3),)))


# -- the canonical form --------------------------------------------------------------
def test_the_canonical_form_is_one_text_per_puzzle():
    a, b = Killer((1, 0), 3), XV((10, 1), 10)
    assert to_json(Grid(3, 3, (0,) * 81, constraints=(a, b))) == to_json(
        Grid(3, 3, (0,) * 81, constraints=(b, a))
    )
    data = constraint_data(Kropki((1, 0), "black"), 9)
    assert data == {"kind": "kropki", "cells": ["r1c1", "r1c2"], "colour": "black", "value": 2}


def test_the_native_form_reads_its_optional_fields():
    grid, extra = puzzle_from_data(
        {
            "givens": "1...............",
            "title": "small",
            "solution": "1234341221434321",
            "constraints": [{"kind": "killer", "cells": ["R1C2", "r1c3"]}],
        }
    )
    assert grid.size == 4
    assert grid.constraints == (Killer((1, 2)),)
    assert extra["title"] == "small"
    assert extra["solution"].cells[:4] == (1, 2, 3, 4)
    empty, _ = puzzle_from_data({"size": 6, "box": [3, 2]})
    assert (empty.box_rows, empty.box_cols, empty.givens) == (3, 2, 0)
    numbers, _ = puzzle_from_data({"givens": [[1, 0, 0, 0]] + [[0] * 4] * 3})
    assert numbers.cells[0] == 1


@pytest.mark.parametrize(
    ("data", "error", "message"),
    [
        (
            {"size": 9, "constraints": [{"kind": "magic"}]},
            ConstraintError,
            "unknown constraint kind",
        ),
        (
            {"size": 9, "constraints": [{"kind": "killer", "cells": ["r1c1"], "sum": 3}]},
            ConstraintError,
            "constraint 1 \\(killer\\): killer: unknown field 'sum'",
        ),
        (
            {"size": 9, "constraints": [{"kind": "xv", "cells": ["r1c1", "r1c2"]}]},
            ConstraintError,
            "missing total",
        ),
        (
            {"size": 9, "constraints": [{"kind": "killer", "cells": ["r1c10", "r1c9"]}]},
            ConstraintError,
            "cell r1c10 is outside the 9x9 grid",
        ),
        (
            {"size": 9, "constraints": [{}, {"kind": "killer", "cells": ["a1"]}]},
            ConstraintError,
            "constraint 1",
        ),
        (
            {"size": 9, "constraints": [{"kind": "killer", "cells": ["a1"]}]},
            ConstraintError,
            "'a1' is not a cell name",
        ),
        ({"size": 9, "colour": 2}, PuzzleDataError, "unknown field 'colour'"),
        ({"size": 9, "box": [2, 2]}, PuzzleDataError, "do not tile"),
        ({"size": "nine"}, PuzzleDataError, "size"),
        ({"size": 4, "givens": "12345"}, PuzzleDataError, "givens"),
        ([], PuzzleDataError, "JSON object"),
    ],
)
def test_bad_native_data_says_which_part(data, error, message):
    with pytest.raises(error, match=message):
        puzzle_from_data(data)


def test_random_transforms_of_a_variant_keep_to_what_its_constraints_survive():
    import random

    from solvers.transforms import random_transform

    killer = Grid(3, 3, (0,) * 81, constraints=(Killer((0, 1), 3), Thermometer((2, 3, 4))))
    regions = Grid(3, 3, (1,) + (0,) * 80, constraints=(AntiKnight(), Killer((0, 1))))
    relabelled = 0
    for seed in range(20):
        t, box = random_transform(killer, random.Random(seed))
        assert t.relabel == tuple(range(10))  # a sum would change meaning
        moved = t.apply(killer, box=box)
        assert {c.kind for c in moved.constraints} == {"killer", "thermometer"}
        u, _ = random_transform(regions, random.Random(seed))
        assert u.source in (tuple(range(81)), transpose(9).source)  # no band shuffles
        relabelled += u.relabel != tuple(range(10))
        u.apply(regions)
    assert relabelled > 0
