"""Canonical puzzle identity: one form per symmetry class, duplicates found and left out."""

from __future__ import annotations

import itertools
import random

import pytest

from corpora.canonical import PARTIAL, Canonicalizer, canonical, kind
from corpora.corpus import open_corpus
from harness.cli import main
from harness.records import puzzle_text
from solvers.grid import Grid
from solvers.transforms import random_transform


def _puzzles(name: str, count: int) -> list[Grid]:
    return [p.grid for p in itertools.islice(open_corpus(name).puzzles(), count)]


@pytest.mark.parametrize("name", ["gen4", "gen6", "gen9-easy", "gen9-extreme", "gen9-minimal"])
def test_isomorphic_puzzles_share_one_form(name):
    rng = random.Random(name)
    can = Canonicalizer()
    for grid in _puzzles(name, 12):
        form = can(grid)
        assert form is not None
        for _ in range(3):
            transform, box = random_transform(grid, rng)
            assert can(transform.apply(grid, box=box)) == form


def test_distinct_puzzles_keep_distinct_forms():
    grids = _puzzles("gen9-hard", 60)
    can = Canonicalizer()
    assert len({can(g) for g in grids}) == len({puzzle_text(g)[0] for g in grids}) == 60


def test_the_form_is_the_least_image_of_the_whole_group_on_4x4():
    """Brute force over every row, column, band and stack order and transposition."""
    grid = _puzzles("gen4", 1)[0]
    n = 4
    keeps = [  # the orders of 4 lines that keep their pairs (bands or stacks)
        [s * 2 + c for s, w in zip(order, within, strict=True) for c in w]
        for order in itertools.permutations(range(2))
        for within in itertools.product(itertools.permutations(range(2)), repeat=2)
    ]
    rows = [grid.cells[r * n : (r + 1) * n] for r in range(n)]
    best = None
    for source in (rows, [tuple(rows[r][c] for r in range(n)) for c in range(n)]):
        for row_order in keeps:
            for col_order in keeps:
                labels = {0: 0}
                image = "".join(str(labels.setdefault(source[r][c], len(labels)))
                                for r in row_order for c in col_order)  # fmt: skip
                best = image if best is None or image < best else best
    assert canonical(grid) == "2x2:" + best


def test_larger_shapes_get_the_partial_form_and_variants_none():
    grid = _puzzles("gen16", 1)[0]
    assert kind(grid) == PARTIAL
    form = canonical(grid)
    relabel = random_transform(grid, random.Random(1))[0]
    assert form is not None
    assert form.startswith("4x4:")
    relabelled = Grid(4, 4, tuple(relabel.relabel[v] for v in grid.cells))
    assert canonical(relabelled) == form  # relabelled copies are still found
    assert canonical(Grid.parse("." * 81)) == "0" * 81


def test_inspect_counts_duplicates_inside_and_across_corpora_and_dedupe_drops_them(
    tmp_path, capsys
):
    a, b, c = _puzzles("gen9-easy", 3)
    rng = random.Random(4)
    twin = random_transform(a, rng)[0].apply(a)
    first = tmp_path / "first.txt"
    first.write_text("\n".join(puzzle_text(g)[0] for g in (a, b, twin, b)) + "\n")
    second = tmp_path / "second.txt"
    moved = random_transform(b, rng)[0].apply(b)
    second.write_text("\n".join(puzzle_text(g)[0] for g in (c, moved)) + "\n")
    out = tmp_path / "unique.txt"
    assert main(["corpora", "inspect", str(first), str(second), "--dedupe", str(out)]) == 0
    printed = capsys.readouterr().out
    lines = [x for x in printed.splitlines() if x.startswith("duplicates:")]
    assert lines == [
        "duplicates: 1 exact copies earlier in this corpus; 1 isomorphic copies (not exact) "
        "earlier in this corpus",
        f"duplicates: 1 isomorphic copies (not exact) of {first}",
    ]
    assert out.read_text().split() == [puzzle_text(g)[0] for g in (a, b, c)]
    assert main(["corpora", "inspect", str(first), "--no-isomorphs"]) == 0
    assert "duplicates: 1 exact copies earlier in this corpus" in capsys.readouterr().out
