"""The engine's solve paths are pinned: a change that alters any step fails here.

Speed work on the engine (state, chains, forcing chains) must not change a
rating or a step.  Each case is a puzzle from the built-in corpora whose path
uses a chain or forcing-chain technique; its fingerprint hashes every step
(technique, placements, eliminations, pattern, rating, chain, detail and the
explanation) and the rating.  When a change is meant to alter paths, bump
`solvers.human.engine.VERSION` and record the new fingerprints with
``python -m tests.solvers.human.test_human_path``.
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
        "gen9-unfair.txt line 130 (bug_type_2; a forcing chain before engine 1.2)",
        "2....874..357.6...1..54......8...91..........3..2...6..79........2..183.5........",
        "fb8a14f347bb6729",
    ),
    (
        "gen9-extreme.txt line 41 (cell_forcing_chain; nishio before engine 1.3)",
        "6.271...57.84..3...5......................9362...637....5.8...9.7...524....6.1...",
        "1e0574cf75f25065",
    ),
    (
        "gen9-extreme.txt line 144 (cell_forcing_chain)",
        "....9.431...........41....7...5....6..6.13....9..2.5..6279...8....6.....8..4..2..",
        "75e6d63066e7185d",
    ),
    (
        "gen9-extreme.txt line 55 (dynamic_forcing_chain; region_forcing_chain before 1.3)",
        ".6....4....8..46.....1...93...2.71..1...6...5.73..9..4.92.........79....6.4....2.",
        "381c3da34cef5641",
    ),
    (
        "gen9-unfair.txt line 159 (three_strong_links)",
        ".5..3.......6...1..1..75.36......9681...5...3.89......4.6.8.....7......9..524....",
        "bfa98f3a04ea5fdc",
    ),
    (
        "gen9-extreme.txt line 89 (grouped_three_strong_links)",
        ".7.81.2...9..7.........38..4.......5.2....13...615.....4...2..8...7.6.1.3...4.5..",
        "05cf5d1ddf6222ae",
    ),
    (
        "gen9-extreme.txt line 90 (uvwxyz_wing)",
        "7.5.9.........3.69....5...3...1....45.6..7...9.4.2..1..7.....8.........2..24.6...",
        "7c4dd794936b00dc",
    ),
    (
        "gen9-unfair.txt line 128 (unique_loop)",
        "..3.4.......19..4.......3.57...396....18........5..82.93...1..8.8...4...1....623.",
        "0da59c559912010e",
    ),
    (
        "gen9-unfair.txt line 78 (bug_plus_one)",
        ".348...51.19..52.......7..3...7.1.........4....5....9...1.4...86.........9..13...",
        "6fe6a778c857293c",
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
    "nishio": "ca51423d1ef5469d",
    "cell_forcing_chain": "a080cbcb070854e9",
    "region_forcing_chain": "a080cbcb070854e9",
    "dynamic_forcing_chain": "ea811800f060904c",
    "dynamic_forcing_chain_plus": "d534d73b7601b87a",
    "nested_forcing_chain": "e7fb675e6387145e",
    "nested_multiple_chain": "301fa23e38af26cf",
    "nested_dynamic_chain": "810f064bd91b6d85",
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
