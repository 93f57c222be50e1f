"""Puzzles and grids several human-engine test modules use (tests import this, never
each other)."""

from __future__ import annotations

import random
from functools import cache

import solvers
from solvers.grid import Grid
from solvers.human.state import CandidateState


def _random_solution(box: tuple[int, int], rng: random.Random) -> Grid:
    dlx = solvers.get("dlx")
    n = box[0] * box[1]
    while True:
        cells = [0] * (n * n)
        for cell in rng.sample(range(n * n), n):
            cells[cell] = rng.randint(1, n)
        result = dlx.solve(Grid(box[0], box[1], tuple(cells)))
        if result.status is solvers.Status.SOLVED:
            return result.solution


def _minimal_puzzle(solution: Grid, rng: random.Random) -> Grid:
    dlx = solvers.get("dlx")
    cells = list(solution.cells)
    for cell in rng.sample(range(len(cells)), len(cells)):
        keep = cells[cell]
        cells[cell] = 0
        if not dlx.solve(solution.replace(cells), limit=2).unique:
            cells[cell] = keep
    return solution.replace(cells)


@cache
def generated(box: tuple[int, int], count: int, seed: int) -> tuple[tuple[Grid, Grid], ...]:
    """(puzzle, solution) pairs, reproducible from the seed."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        solution = _random_solution(box, rng)
        out.append((_minimal_puzzle(solution, rng), solution))
    return tuple(out)


# technique: (puzzle, candidate grid before the step, the step in compact notation)
FORCING_CASES = {
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

# Every candidate of an empty 9x9 grid is in some solution: nothing is forced.
EMPTY = " ".join(["123456789"] * 81)


# The classic path of gen9-hard line 6 reaches this grid: r6c4 and r8c4 hold one digit
# each beyond a BUG (4 in row 6, 6 in row 8), and 7 has two places in column 4, both there.
BUG_34 = (
    "..42...1.59....4......437....3.89..77.5..1..........6.....5.27.9....85.11....2..8",
    "3 7 4 2 9 56 8 1 56 5 9 6 8 1 7 4 2 3 2 8 1 56 4 3 7 9 56 "
    "46 2 3 46 8 9 1 5 7 7 46 5 3 26 1 9 8 24 8 1 9 457 27 45 3 6 24 "
    "46 3 8 1 5 46 2 7 9 9 46 2 467 67 8 5 3 1 1 5 7 9 3 2 6 4 8",
)


def candidate_grid(overrides: dict[str, str], default: str = "123456789") -> str:
    """A 9x9 candidate grid: every cell `default`, except the named ones."""
    cells = [default] * 81
    for name, cands in overrides.items():
        cells[(int(name[1]) - 1) * 9 + int(name[3]) - 1] = cands
    return " ".join(cells)


def thinned_state(box: tuple[int, int], seed: int, keep: float, cuts: float):
    """A random candidate state: the empty grid's first solution with a `keep` share of
    its cells given, then about ``cuts`` random eliminations per cell of candidates off
    that solution (so the state stays consistent), rich in bivalue cells and pairs."""
    from solvers.human import CandidateState

    rng = random.Random(seed)
    solution = solvers.get("dlx").solve(Grid.empty(*box)).solution
    cells = [v if rng.random() < keep else 0 for v in solution.cells]
    state = CandidateState.from_grid(solution.replace(cells))
    for _ in range(int(cuts * len(state.cand))):
        cell = rng.randrange(len(state.cand))
        wrong = [d for d in range(1, state.n + 1) if state.cand[cell] >> (d - 1) & 1]
        wrong = [d for d in wrong if d != solution.cells[cell]]
        if wrong:
            state.eliminate(cell, rng.choice(wrong))
    return state


def first_puzzles(name: str, count: int, box: tuple[int, int] | None = None) -> list[Grid]:
    """The first `count` puzzles of the built-in corpus `name` (``corpora/data/NAME.txt``),
    read with boxes of `box` (rows, columns) when given."""
    from tests.paths import ROOT

    lines = (ROOT / "corpora" / "data" / f"{name}.txt").read_text().splitlines()
    grids = [Grid.parse(line, box=box) for line in lines if line and not line.startswith("#")]
    return grids[:count]


def engine_states(grid: Grid, limit: int | None = None):
    """The states along the engine's path from `grid` (one step at a time), `limit` at
    most."""
    from solvers.human import CandidateState, propagate

    state = CandidateState.from_grid(grid)
    states = []
    while state.empty and not state.contradiction and (limit is None or len(states) < limit):
        states.append(state.copy())
        if propagate(state, max_steps=1).stopped_by is None:
            break
    return states


def hodoku_states(grids, finder: str, monkeypatch) -> list:
    """The states at which the HoDoKu-order pass of each of `grids` calls the finder
    `hodoku_finders.<finder>` (copies, in call order)."""
    from solvers.human import hodoku_finders
    from solvers.human.hodoku_path import hodoku_path

    states = []
    search = getattr(hodoku_finders, finder)

    def recording(state, *args):
        states.append(state.copy())
        return search(state, *args)

    with monkeypatch.context() as patch:
        patch.setattr(hodoku_finders, finder, recording)
        for grid in grids:
            hodoku_path(grid)
    return states


def thinned_states():
    """A hypothesis strategy for `thinned_state`: boxes from 2x2 to 4x4, up to 40% of the
    cells given, up to four eliminations per cell."""
    from hypothesis import strategies as st

    return st.builds(
        thinned_state,
        box=st.sampled_from([(2, 2), (2, 3), (3, 2), (3, 3), (3, 4), (4, 4)]),
        seed=st.integers(0, 10**6),
        keep=st.floats(0.0, 0.4),
        cuts=st.floats(0.0, 4.0),
    )


def random_candidate_grid(
    box_rows: int, box_cols: int, seed: int, keep: float, placed: float
) -> tuple:
    """A valid candidate grid: a solved grid's digits kept, each other candidate kept with
    probability `keep`, a share `placed` of the cells placed."""
    rng = random.Random(seed)
    n = box_rows * box_cols
    digits = list(range(1, n + 1))
    rng.shuffle(digits)
    rows = [box_cols * (r % box_rows) + r // box_rows for r in range(n)]  # a valid pattern
    solution = [digits[(rows[r] + c) % n] for r in range(n) for c in range(n)]
    state = CandidateState.from_grid(Grid.empty(box_rows, box_cols))
    for cell, d in enumerate(solution):
        if rng.random() < placed and state.candidates(cell) >> (d - 1) & 1:
            state.place(cell, d)
    for cell, d in enumerate(solution):
        for other in range(1, n + 1):
            if other != d and state.candidates(cell) >> (other - 1) & 1 and rng.random() > keep:
                state.eliminate(cell, other)
    return state.shape, state.cand[:], state.pos[:], state.placed[:]


def struck_state(grid: Grid, seed: int, share: float) -> CandidateState:
    """The puzzle's state with about `share` of its open candidates struck (one kept per
    cell), chosen by `seed`: states no path reaches, with many sets, links and chains."""
    rng = random.Random(seed)
    state = CandidateState.from_grid(grid)
    for cell, mask in enumerate(list(state.cand)):
        if state.values[cell]:
            continue
        digits = [k + 1 for k in range(state.n) if mask >> k & 1]
        for d in digits[1:]:
            if rng.random() < share and state.cand[cell].bit_count() > 1:
                state.eliminate(cell, d)
    return state
