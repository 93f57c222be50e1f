"""The bitmask helpers the forcing chains lean on agree with plain loops over the bits."""

from __future__ import annotations

import random

import pytest

from solvers.human.techniques.closure import digit_cells
from solvers.human.techniques.common import bits


def _plain_bits(mask: int) -> list[int]:
    return [i for i in range(mask.bit_length()) if mask >> i & 1]


def test_bits_of_small_and_large_masks():
    rng = random.Random(1)
    masks = [0, 1, 1023, 1024, 1 << 80, *range(64)]
    masks += [rng.getrandbits(rng.choice((9, 10, 11, 81, 256))) for _ in range(500)]
    for m in masks:
        assert bits(m) == _plain_bits(m)


def test_bits_gives_a_fresh_list():
    first = bits(5)
    first.append(7)
    assert bits(5) == [0, 2]


@pytest.mark.parametrize("n", [4, 6, 8, 9, 12, 16, 20])
def test_digit_cells_are_the_cells_taking_each_digit(n):
    rng = random.Random(n)
    for _ in range(50):
        cand = [rng.getrandbits(n) if rng.random() < 0.7 else 0 for _ in range(n * n)]
        want = [sum(1 << c for c, m in enumerate(cand) if m >> k & 1) for k in range(n)]
        assert digit_cells(cand, n) == want


def _plain_links(state, kind: str) -> tuple:
    """HoDoKu chain links by loops over peers and places (what `chain_links` computes)."""
    n, cand, shape = state.n, state.cand, state.shape
    total = len(cand) * n
    strong, weak, sees = [0] * total, [0] * total, [0] * total
    nodes = [c * n + d for c, m in enumerate(cand) for d in range(n) if m >> d & 1]
    for node in nodes:
        c, d = divmod(node, n)
        same = sum(1 << (p * n + d) for p in shape.peers[c] if cand[p] >> d & 1)
        cell = sum(1 << (c * n + e) for e in range(n) if e != d and cand[c] >> e & 1)
        sees[node] = same | cell
        if kind in ("xy", "aic") and cand[c].bit_count() == 2:
            strong[node] |= cell
        if kind in ("x", "aic"):
            for u in shape.cell_units[c]:
                places = [p for p in shape.units[u] if cand[p] >> d & 1]
                if len(places) == 2:
                    other = places[0] if places[1] == c else places[1]
                    strong[node] |= 1 << (other * n + d)
        bivalue = sum(1 << q for q in range(total) if cand[q // n].bit_count() == 2)
        weak[node] = {"x": same, "xy": same & bivalue}.get(kind, same | cell)
    return strong, weak, sees, nodes


@pytest.mark.parametrize("kind", ["x", "xy", "aic"])
def test_hodoku_chain_links_match_plain_loops(kind):
    from solvers.grid import Grid
    from solvers.human import CandidateState
    from solvers.human.hodoku_chains import chain_links

    grid = Grid.parse(
        "1.....7....71.9..6.8..7......8.9.6..5.......2...2.3.5...6.1.9...4.......9....4..3"
    )
    state = CandidateState.from_grid(grid)
    rng = random.Random(7)
    for _ in range(3):
        assert chain_links(state, kind) == _plain_links(state, kind)
        cell = rng.choice([c for c, m in enumerate(state.cand) if m.bit_count() > 2])
        state.eliminate(cell, rng.choice(bits(state.cand[cell])) + 1)
