"""The engine's solve paths are pinned: a change that alters any step fails here.

Speed work on the engine (state, chains, forcing chains) must not change a
rating or a step.  Each case is a puzzle from the built-in corpora whose path
uses a chain or forcing-chain technique; its fingerprint hashes every step
(technique, placements, eliminations, pattern, rating, chain, detail and the
explanation) and the rating.  When a change is meant to alter paths, bump
`solvers.human.engine.VERSION` and record the new fingerprints with
``python -m tests.test_human_path``.
"""

from __future__ import annotations

import hashlib

import pytest

from solvers.grid import Grid
from solvers.human import CandidateState, propagate, rate
from solvers.human.step import Step
from solvers.human.table import BY_NAME

# (source, puzzle, fingerprint of its path and rating)
PATHS = [
    (
        "gen9-extreme.txt line 95 (forcing_chain)",
        ".1..57...3....4.7.8..6...9..8..4.9..9......51..59.3.....1..67.....5.....5.83.1...",
        "3c9a04fcce518975",
    ),
    (
        "gen9-extreme.txt line 152 (nishio)",
        ".27.9..5....2.............75...6.29.4......838..4.9......7.49.......56..7.9.8.5..",
        "fed5a914587882cb",
    ),
    (
        "gen9-extreme.txt line 144 (cell_forcing_chain)",
        "....9.431...........41....7...5....6..6.13....9..2.5..6279...8....6.....8..4..2..",
        "9fb28d9d8b3746e5",
    ),
    (
        "gen9-extreme.txt line 41 (region_forcing_chain)",
        "6.271...57.84..3...5......................9362...637....5.8...9.7...524....6.1...",
        "5c6e5efa8de8f705",
    ),
    (
        "gen9-extreme.txt line 55 (dynamic_forcing_chain)",
        ".6....4....8..46.....1...93...2.71..1...6...5.73..9..4.92.........79....6.4....2.",
        "95c5c14e7d9c1ea6",
    ),
    (
        "gen9-unfair.txt line 138 (three_strong_links)",
        "62....43.....7..5.74.9...2.5..7.1..6..34....5.8....3.....14..........2....8.9....",
        "26f2ba21eb673b1c",
    ),
    (
        "gen9-unfair.txt line 131 (w_wing)",
        "9....3..18......9.6.....53...5.1.....7....86.....2.......6.2...4.....6.7..28...53",
        "a1e5fb27006fb5b8",
    ),
    (
        "gen9-unfair.txt line 31 (x_chain)",
        ".864...5......1....7....9........2.....26...3..3.18..4.2...96...6.5..3..3.4.2...5",
        "2a0ac3b0ef8c413f",
    ),
    (
        "gen9-unfair.txt line 197 (xy_chain)",
        ".......8.9...2....1....7..5.79..1.3......3.285.......6.4.........8.....1..348.96.",
        "5e944dbc96dbd7de",
    ),
]

# Every forcing finder alone on a candidate grid the engine reached (gen9-extreme.txt line 55,
# step 26: the dynamic kinds; the stronger ones never come first on the built-in corpora) and,
# for the static kinds and nishio, on the grid where the engine takes them (line 4, step 19;
# line 30, step 15).
GRID = (
    "239 6 157 3589 23578 358 4 157 128 2359 135 8 359 2357 4 6 157 12 245 45 57 1 2578 6 "
    "578 9 3 458 458 6 2 358 7 1 38 9 1 2 9 4 6 38 37 378 5 58 7 3 58 1 9 2 6 4 7 9 2 6 4 "
    "358 358 135 18 358 1358 15 7 9 2 358 4 6 6 358 4 358 358 1 9 2 7"
)
STATIC_GRID = (
    "125 9 125 25 7 4 3 68 68 7 46 68 269 689 3 249 1 5 3 456 268 269 15689 1689 7 49 249 "
    "4 56 69 7 5689 689 1 2 3 168 2 169 3 1469 169 5 46789 46789 1568 7 3 4569 2 169 469 "
    "4689 4689 56 8 7 469 3469 2 469 35 1 9 3 246 1 46 5 8 467 2467 256 1 2456 8 3469 7 "
    "2469 35 2469"
)
NISHIO_GRID = (
    "1579 159 17 14 8 129 24 6 3 2 389 6 34 7 5 48 1 49 1389 1389 4 136 12369 1239 7 5 289 "
    "138 1238 128 1358 139 4 6 789 578 138 7 5 1368 12369 1239 13 2489 248 6 4 9 1358 123 7 "
    "13 28 58 578 58 3 2 4 6 9 78 1 149 129 12 7 15 8 245 3 6 1478 6 1278 9 135 13 2458 "
    "2478 2478"
)
ALONE = {
    "forcing_chain": "786926ff710ea2f1",
    "nishio": "7b59606f4500ccb3",
    "cell_forcing_chain": "c4d064b5ddc746da",
    "region_forcing_chain": "a080cbcb070854e9",
    "dynamic_forcing_chain": "ca7e2a1e608d75de",
    "dynamic_forcing_chain_plus": "0283b48343445cdf",
    "nested_forcing_chain": "6047c69b331f8dcf",
}


def _step_text(step: Step | None) -> str:
    if step is None:
        return "None"
    return repr(
        (
            step.technique,
            step.placements,
            step.eliminations,
            step.cells,
            step.units,
            step.digits,
            step.rating,
            step.chain,
            step.detail,
            str(step),
        )
    )


def _digest(lines: list[str]) -> str:
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()[:16]


def path_fingerprint(puzzle: str) -> str:
    """A hash of every step of the engine's path and of the rating."""
    result = propagate(CandidateState.from_grid(Grid.parse(puzzle)))
    r = rate(puzzle)
    lines = [_step_text(s) for s in result.steps]
    lines.append(repr((result.status, r.er, r.ep, r.ed, r.score, r.level, r.category)))
    return _digest(lines)


def alone_fingerprint(name: str) -> str:
    """A hash of the steps one forcing finder returns on the three grids."""
    find = BY_NAME[name].find
    grids = (GRID, STATIC_GRID, NISHIO_GRID)
    return _digest([_step_text(find(CandidateState.from_candidates(g))) for g in grids])


@pytest.mark.parametrize(("source", "puzzle", "expected"), PATHS, ids=[p[0] for p in PATHS])
def test_path_is_pinned(source: str, puzzle: str, expected: str) -> None:
    assert path_fingerprint(puzzle) == expected, f"the path of {source} changed"


@pytest.mark.parametrize(("name", "expected"), ALONE.items(), ids=list(ALONE))
def test_forcing_step_is_pinned(name: str, expected: str) -> None:
    assert alone_fingerprint(name) == expected


if __name__ == "__main__":
    for source, puzzle, _ in PATHS:
        print(f"{source}: {path_fingerprint(puzzle)}")
    for name in ALONE:
        print(f"{name}: {alone_fingerprint(name)}")
