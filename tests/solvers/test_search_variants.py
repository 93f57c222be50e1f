"""The seeded searches (`mrv`, `positions`) on puzzles with constraints.

They read every constraint kind through `solvers.variants.propagate`.  Checked
here: the digit relations of the pairwise kinds agree with the verifier's rules
on every pair of digits; no propagator ever removes a digit of a known solution;
the built-in variant corpora are solved to their truth and proved unique; and on
random 4x4 puzzles with random constraints the searches count the same
solutions as CP-SAT (up to 3), never returning a grid the verifier refuses.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import solvers
from corpora.corpus import open_corpus
from solvers.grid import Grid
from solvers.variants import KINDS
from solvers.variants.constraints import (
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
    sandwich_sums,
)
from solvers.variants.propagate import (
    SUPPORTED,
    compile_model,
    pair_relations,
    parity_mask,
    settle,
)
from solvers.variants.rules import RULES, Board
from solvers.verify import check

SEARCHES = ("mrv", "mrv[singles=hidden]", "positions")


def _solver(spec: str) -> solvers.Solver:
    name, _, option = spec.partition("[")
    options = dict([option.rstrip("]").split("=")]) if option else {}
    return solvers.get(name, **options)


def _corpus(name: str) -> list[tuple[str, Grid, Grid]]:
    """(id, puzzle, solution) of a built-in corpus, the solution from its stored truth."""
    corpus = open_corpus(name)
    truth = corpus.truth()
    found = []
    for p in corpus.puzzles():
        known = truth[p.id]
        assert known.status == "SOLVED"
        assert known.solution
        cells = tuple(int(ch) for ch in known.solution)
        found.append((p.id, p.grid, p.grid.replace(cells)))
    return found


VARIANTS6 = _corpus("variants6")


def test_the_searches_claim_every_kind():
    assert set(KINDS) == SUPPORTED
    for name in ("mrv", "positions"):
        assert solvers.solver_class(name).constraint_kinds == SUPPORTED


# -- the propagation ---------------------------------------------------------------
def _pair_cases():
    """Each pairwise constraint of variants6 with one of the pairs it relates."""
    for pid, puzzle, _ in VARIANTS6:
        for constraint in puzzle.constraints:
            relations = pair_relations(constraint, puzzle)
            if relations:
                yield pytest.param(puzzle, constraint, relations[0], id=f"{pid}-{constraint.kind}")


@pytest.mark.parametrize(("puzzle", "constraint", "relation"), list(_pair_cases())[::3])
def test_a_pair_relation_agrees_with_the_verifier_rule(puzzle, constraint, relation):
    a, b, allowed = relation
    n = puzzle.size
    for x in range(1, n + 1):
        for y in range(1, n + 1):
            values = [0] * (n * n)
            values[a], values[b] = x, y
            board = Board(tuple(values), n, puzzle.box_rows, puzzle.box_cols, puzzle.constraints)
            assert allowed(x, y) == (RULES[constraint.kind](constraint, board) == []), (x, y)


def test_every_pairwise_kind_has_a_relation_case():
    kinds = {c.kind for _, p, _ in VARIANTS6 for c in p.constraints if pair_relations(c, p)}
    assert kinds == {
        "non-consecutive",
        "kropki",
        "kropki-negative",
        "xv",
        "xv-negative",
        "greater-than",
        "thermometer",
    }


def test_parity_masks_agree_with_the_verifier_rule():
    for n in (4, 6, 9):
        for parity in ("odd", "even"):
            for d in range(1, n + 1):
                board = Board((d,) + (0,) * (n * n - 1), n, 1, n, ())
                broken = RULES["parity"](Parity(0, parity), board)
                assert bool(parity_mask(parity, n) >> (d - 1) & 1) == (broken == [])


@given(data=st.data())
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_propagation_never_removes_a_digit_of_the_solution(data):
    """Random candidates that keep the known solution: settling keeps it too."""
    pid, puzzle, solution = data.draw(st.sampled_from(VARIANTS6))
    model = compile_model(puzzle.replace((0,) * (puzzle.size**2)))
    n = puzzle.size
    cand = []
    for cell, digit in enumerate(solution.cells):
        noise = data.draw(st.integers(0, (1 << n) - 1))
        cand.append((noise | 1 << (digit - 1)) & model.start[cell])
    hidden = data.draw(st.booleans())
    assert settle(model, cand, range(n * n), hidden=hidden), pid
    assert all(m >> (d - 1) & 1 for m, d in zip(cand, solution.cells, strict=True)), pid


# -- the built-in corpora ------------------------------------------------------------
def _solves(spec: str, puzzle: Grid, solution: Grid) -> None:
    result = _solver(spec).solve(puzzle, limit=2, time_limit=60)
    assert result.status is solvers.Status.SOLVED, result.message
    assert result.exhausted  # limit 2 found one: proved unique
    assert check(puzzle, result.solution) == []
    assert result.solution.cells == solution.cells
    assert result.stats["rejected"] == 0


@pytest.mark.parametrize("spec", SEARCHES)
def test_every_variants6_puzzle_is_solved_and_proved_unique(spec):
    for _, puzzle, solution in VARIANTS6:
        _solves(spec, puzzle, solution)


# Puzzles of the 9x9 corpora the searches solve in well under a second, so that
# each corpus and each kind (in mixed9) is covered without a slow test.
NINE = {
    "killer9": ("killer9:1", "killer9:2"),
    "jigsaw9": ("jigsaw9:1",),
    "x9": ("x9:1", "x9:2"),
    "thermo9": ("thermo9:1", "thermo9:2"),
    "antiknight9": ("antiknight9:1",),
    "kropki9": ("kropki9:1",),
    "mixed9": (
        "mixed9:2",  # jigsaw
        "mixed9:4",  # extra-region
        "mixed9:7",  # disjoint-groups
        "mixed9:10",  # diagonal
        "mixed9:16",  # anti-king
        "mixed9:22",  # killer
        "mixed9:28",  # thermometer
        "mixed9:37",  # kropki, kropki-negative
        "mixed9:43",  # xv, xv-negative
        "mixed9:46",  # parity
        "mixed9:50",  # greater-than
        "mixed9:53",  # sandwich
        "mixed9:56",  # diagonal, killer
        "mixed9:61",  # kropki, thermometer
    ),
}
# Puzzles covered by mrv only: positions takes seconds on them.
SLOW_FOR = {"mixed9:27": ("positions",), "mixed9:31": ("positions",)}  # little-killer, arrow


def _nine_cases():
    for name, ids in NINE.items():
        corpus = {pid: (puzzle, solution) for pid, puzzle, solution in _corpus(name)}
        for pid in (*ids, *(k for k in SLOW_FOR if k.startswith(f"{name}:"))):
            for spec in ("mrv[singles=hidden]", "positions"):
                if spec not in SLOW_FOR.get(pid, ()):
                    yield pytest.param(spec, *corpus[pid], id=f"{spec}-{pid}")


@pytest.mark.parametrize(("spec", "puzzle", "solution"), list(_nine_cases()))
def test_nine_by_nine_variant_puzzles_are_solved_to_their_truth(spec, puzzle, solution):
    _solves(spec, puzzle, solution)


def test_the_nine_by_nine_cases_cover_every_kind_but_non_consecutive():
    covered = set()
    for name, ids in NINE.items():
        corpus = {pid: puzzle for pid, puzzle, _ in _corpus(name)}
        for pid in (*ids, *SLOW_FOR):
            if pid in corpus:
                covered |= {c.kind for c in corpus[pid].constraints}
    assert covered == set(KINDS) - {"non-consecutive"}  # its 9x9 puzzles take seconds


# -- random small puzzles against CP-SAT ---------------------------------------------
N = 4
ORTHOGONAL_PAIRS = sorted(
    (r * N + c, r * N + c + dc + dr * N)
    for r in range(N)
    for c in range(N)
    for dr, dc in ((0, 1), (1, 0))
    if r + dr < N and c + dc < N
)


def _walk(draw, length: int) -> tuple[int, ...]:
    """A path of king moves through distinct cells (shorter when it gets stuck)."""
    cells = [draw(st.integers(0, N * N - 1))]
    while len(cells) < length:
        r, c = divmod(cells[-1], N)
        steps = [
            (r + dr) * N + c + dc
            for dr in (-1, 0, 1)
            for dc in (-1, 0, 1)
            if 0 <= r + dr < N and 0 <= c + dc < N and (r + dr) * N + c + dc not in cells
        ]
        if not steps:
            break
        cells.append(draw(st.sampled_from(steps)))
    return tuple(cells)


def _diagonals() -> list[tuple[int, ...]]:
    """Every diagonal line of the grid, as little killers read them (edge to edge)."""
    found = []
    for r0, c0 in [(0, c) for c in range(N)] + [(r, 0) for r in range(1, N)]:
        for dc in (1, -1):
            cells, r, c = [], r0, c0
            while 0 <= r < N and 0 <= c < N:
                cells.append(r * N + c)
                r, c = r + 1, c + dc
            found.append(tuple(cells))
    return found


@st.composite
def constraints(draw, solved: list[int]):
    """One random constraint of a random kind for a 4x4 grid (it may not validate).

    Half of the sums, dots, signs and parities are read off `solved`, so that many
    puzzles keep a solution; the others are random, so that many have none."""
    kind = draw(st.randoms(use_true_random=False)).choice(sorted(KINDS))  # evenly spread
    truthful = draw(st.booleans())
    if kind == "jigsaw":
        cells = list(range(N * N))
        random.Random(draw(st.integers(0, 10**6))).shuffle(cells)
        return Jigsaw(tuple(tuple(cells[i : i + N]) for i in range(0, N * N, N)))
    if kind == "extra-region":
        return ExtraRegion(tuple(draw(st.sets(st.integers(0, N * N - 1), min_size=2, max_size=N))))
    simple = {
        "disjoint-groups": DisjointGroups,
        "anti-knight": AntiKnight,
        "anti-king": AntiKing,
        "non-consecutive": NonConsecutive,
        "xv-negative": XVNegative,
    }
    if kind in simple:
        return simple[kind]()
    if kind == "diagonal":
        return Diagonal(draw(st.sampled_from(("main", "anti"))))
    if kind == "kropki-negative":
        return KropkiNegative(draw(st.sampled_from(("white", "black"))))
    if kind == "killer":
        cells = tuple(draw(st.sets(st.integers(0, N * N - 1), min_size=1, max_size=N)))
        total = draw(st.one_of(st.none(), st.integers(1, 10)))
        if truthful:
            total = sum(solved[c] for c in cells)
        return Killer(cells, total)
    if kind == "little-killer":
        cells = draw(st.sampled_from(_diagonals()))
        if draw(st.booleans()):
            cells = cells[::-1]
        total = draw(st.integers(len(cells), N * len(cells)))
        return LittleKiller(cells, sum(solved[c] for c in cells) if truthful else total)
    if kind == "thermometer":
        return Thermometer(_walk(draw, draw(st.integers(2, N))))
    if kind == "arrow":
        cells = _walk(draw, draw(st.integers(2, 5)))
        split = draw(st.integers(1, min(2, len(cells) - 1)))
        return Arrow(cells[:split], cells[split:])
    pair = draw(st.sampled_from(ORTHOGONAL_PAIRS))
    x, y = (solved[c] for c in pair)
    if kind == "kropki" and truthful:
        high, low = max(x, y), min(x, y)
        return (
            Kropki(pair, "black", high // low)
            if high % low == 0
            else Kropki(pair, "white", high - low)
        )
    if kind == "kropki":
        colour = draw(st.sampled_from(("white", "black")))
        low = 1 if colour == "white" else 2
        return Kropki(pair, colour, draw(st.integers(low, N - 1 + (colour == "black"))))
    if kind == "xv":
        return XV(pair, 5)
    if kind == "greater-than":
        return GreaterThan(pair if (x > y if truthful else draw(st.booleans())) else pair[::-1])
    if kind == "parity":
        cell = draw(st.integers(0, N * N - 1))
        parity = draw(st.sampled_from(("odd", "even")))
        return Parity(cell, ("even", "odd")[solved[cell] % 2] if truthful else parity)
    assert kind == "sandwich"
    line = draw(st.integers(0, N - 1))
    cells = (
        tuple(line * N + c for c in range(N))
        if draw(st.booleans())
        else tuple(r * N + line for r in range(N))
    )
    digits = [solved[c] for c in cells]
    low, high = sorted((digits.index(1), digits.index(N)))
    total = draw(st.sampled_from(sorted(sandwich_sums(N))))
    return Sandwich(cells, sum(digits[low + 1 : high]) if truthful else total)


SOLVED4 = (1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1)


@st.composite
def small_puzzles(draw):
    """A 4x4 grid with givens from a random classic solution (relabelled, its rows
    swapped within bands) and one to three random constraints that validate."""
    digits = draw(st.permutations(range(1, N + 1)))
    rows = [SOLVED4[r * N : (r + 1) * N] for r in range(N)]
    for band in (0, 2):
        if draw(st.booleans()):
            rows[band], rows[band + 1] = rows[band + 1], rows[band]
    solved = [digits[v - 1] for row in rows for v in row]
    shown = draw(st.sets(st.integers(0, N * N - 1), max_size=8))
    cells = tuple(solved[i] if i in shown else 0 for i in range(N * N))
    chosen = draw(st.lists(constraints(solved), min_size=1, max_size=3))
    try:
        return Grid(2, 2, cells, constraints=tuple(chosen))
    except ConstraintError:
        return None  # a sum out of reach, two jigsaws ...: not a puzzle


def _answer(spec: str, puzzle: Grid) -> tuple[str, frozenset[tuple[int, ...]] | None]:
    result = _solver(spec).solve(puzzle, limit=3, time_limit=60)
    for grid in result.solutions:
        assert check(puzzle, grid) == [], spec
    found = frozenset(g.cells for g in result.solutions)
    # three solutions stop the search: which three depends on the order it looks in
    return result.status.value, (found if len(found) < 3 else None)


@given(puzzle=small_puzzles())
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_random_small_puzzles_have_the_solutions_cpsat_finds(puzzle):
    if puzzle is None:
        return
    expected = _answer("cpsat", puzzle)
    for spec in SEARCHES:
        assert _answer(spec, puzzle) == expected, spec
