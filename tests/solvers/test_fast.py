"""The compiled fast path: answers against dlx, both kernels, batches, limits, truth.

The conformance and metamorphic suites run on ``fast`` like on every solver;
these tests cover what is particular to it.  Without numba they check that
``fast`` is reported unavailable, and skip the rest with that reason.
"""

from __future__ import annotations

import importlib.util
import random
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import solvers
from solvers import Grid, Status
from solvers import testing as conformance
from solvers.grid import PuzzleFormatError
from solvers.transforms import random_transform
from tests.paths import ROOT

HAVE_NUMBA = all(importlib.util.find_spec(m) is not None for m in ("numba", "numpy"))
needs_numba = pytest.mark.skipif(
    not HAVE_NUMBA, reason="not installed: pip install 'sudoku-bench[fast]'"
)

# Every box shape up to 25x25 the kernels claim, transposed ones and Latin squares included.
SHAPES = [
    (1, 4), (2, 2), (2, 3), (3, 2), (2, 4), (3, 3), (2, 5), (3, 4), (4, 3), (2, 7), (3, 5),
    (4, 4), (3, 6), (4, 5), (5, 4), (3, 7), (2, 11), (4, 6), (6, 4), (5, 5),
]  # fmt: skip
# Generated: `corpora.generate.make(Spec(), seed="fast-hard-2", index=i)` for i = 18156, 67670
# and 6876, three of the 80000 of `sudoku-bench generate --seed fast-hard-2` on which `fast`
# searches most (68, 70 and 78 nodes) and locked candidates save guesses.
HARD = [
    "...2..3..43.7...9.......7....36.....8..92....26...1..9..7........5.9...819...5.6.",
    "49.2..3......91..25.......1..2.43.9..8....2.....1....79...8...6...4.......7.....9",
    "3.......62......1..5...7.......5.6...7.8...2.5.3.7..4...82.1.7.......1.4..6......",
]
TWO_SOLUTIONS = "7593...144.1.97328832614.973...2..6...8.6.75.146753.826.42..83998.1.6...5...3.1.."


def solved(box: tuple[int, int], seed: int) -> Grid:
    """A random valid grid: the band pattern, then a random equivalence transform."""
    br, bc = box
    n = br * bc
    base = Grid(
        br, bc, tuple((bc * (r % br) + r // br + c) % n + 1 for r in range(n) for c in range(n))
    )
    transform, shape = random_transform(base, random.Random(seed))
    return transform.apply(base, box=shape)


def blanked(box: tuple[int, int], seed: int) -> Grid:
    """A puzzle with a share of cells blanked: unique, several solutions, or none."""
    rng = random.Random(seed)
    full = solved(box, seed)
    n = full.size
    share = 0.6 if n <= 9 else 0.45 if n <= 12 else 0.38  # dlx stays quick at 25x25
    cells = [0 if rng.random() < share else v for v in full.cells]
    if seed % 3 == 2:  # a wrong digit where no given forbids it: often no solution
        cell = cells.index(0)
        taken = {cells[p] for p in full.shape.peers[cell]}
        wrong = [d for d in range(1, n + 1) if d != full.cells[cell] and d not in taken]
        if wrong:
            cells[cell] = wrong[0]
    return full.replace(cells)


def same_answer(puzzle: Grid, ours: solvers.SolveResult, reference: solvers.SolveResult) -> None:
    assert ours.status is reference.status
    assert ours.exhausted == reference.exhausted
    for grid in ours.solutions:
        assert not solvers.check(puzzle, grid)
    if reference.unique:
        assert ours.solutions == reference.solutions


def test_listed_unavailable_without_numba():
    """With numba hidden, `solvers` imports, lists fast, and says how to install it."""
    script = textwrap.dedent(
        """
        import importlib.abc, sys

        class Hide(importlib.abc.MetaPathFinder):
            def find_spec(self, name, path, target=None):
                if name.split(".")[0] in ("numba", "numpy"):
                    raise ModuleNotFoundError(name)
                return None

        sys.meta_path.insert(0, Hide())
        import importlib.util
        real = importlib.util.find_spec
        hidden = ("numba", "numpy")
        importlib.util.find_spec = lambda name, *a: None if name in hidden else real(name, *a)
        import solvers, solvers.fast
        assert "fast" in solvers.names()
        cls = solvers.solver_class("fast")
        assert not cls.supported()
        try:
            solvers.get("fast")
        except solvers.SolverUnavailable as exc:
            print("unavailable:", exc)
        try:
            solvers.fast.solve_many
        except ImportError as exc:
            print("batch:", exc)
        from solvers.oracle import oracle_name
        print("oracle:", oracle_name())
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    ).stdout
    assert "unavailable: solver 'fast' needs" in out
    assert "pip install 'sudoku-bench[fast]'" in out
    assert "batch: solvers.fast.solve_many needs numba" in out
    assert "oracle: dlx" in out


def test_install_hint_and_gaps():
    cls = solvers.solver_class("fast")
    assert cls.install_hint == "pip install 'sudoku-bench[fast]'"
    assert cls.complete
    assert cls.family == "search"
    assert cls.handles(25)
    assert not cls.handles(26)


@needs_numba
@pytest.mark.parametrize("box", SHAPES, ids=lambda b: f"{b[0]}x{b[1]}")
def test_answers_match_dlx_on_every_shape(box):
    fast, dlx = solvers.get("fast"), solvers.get("dlx")
    for seed in range(3):
        puzzle = blanked(box, seed)
        same_answer(puzzle, fast.solve(puzzle, limit=2), dlx.solve(puzzle, limit=2))


@needs_numba
@pytest.mark.parametrize("box", SHAPES, ids=lambda b: f"{b[0]}x{b[1]}")
def test_batch_equals_single_solves(box):
    fast = solvers.get("fast")
    puzzles = [blanked(box, seed) for seed in range(6)]
    batch = fast.solve_batch(puzzles, limit=2)
    for puzzle, result in zip(puzzles, batch, strict=True):
        single = fast.solve(puzzle, limit=2)
        assert result.status is single.status
        assert result.solutions == single.solutions
        assert dict(result.stats) == dict(single.stats)


@needs_numba
@pytest.mark.parametrize("level", [0, 1, 2], ids=["singles", "locked", "intersections"])
def test_bitboard_and_generic_kernels_search_alike(level):
    """The 9x9 kernel reaches the same fixpoints as the generic one: identical trees."""
    from solvers.fast.single import solve_one

    puzzles = [Grid.parse(p) for p in [*HARD, TWO_SOLUTIONS]] + [
        blanked((3, 3), s) for s in range(9)
    ]
    for puzzle in puzzles:
        bit = solve_one(puzzle, 2, solvers.Limits(), level > 0, level == 2)
        generic = _generic(puzzle, level)
        assert bit.status is generic.status
        assert bit.solutions == generic.solutions
        assert dict(bit.stats) == dict(generic.stats)


def _generic(puzzle: Grid, level: int) -> solvers.SolveResult:
    """Solve a 9x9 puzzle with the generic kernel (normally used for other shapes)."""
    import numpy as np

    from solvers.fast import kernels
    from solvers.fast.single import Search

    search = Search(puzzle)
    ctr = np.zeros(kernels.COUNTERS, dtype=np.int64)
    sols = np.zeros((2, 81), dtype=np.int8)
    search.start(ctr)
    outcome = search.run(level, 2, kernels.NO_LIMIT, sols, ctr)
    grids = [puzzle.replace(row) for row in sols[: ctr[kernels.FOUND]].tolist()]
    stats = {"nodes": int(ctr[0]), "guesses": int(ctr[1]), "backtracks": int(ctr[2])}
    return solvers.counted_result(grids, outcome == kernels.EXHAUSTED, stats)


@needs_numba
def test_locked_candidates_cut_guesses_without_changing_answers():
    plain = solvers.get("fast", locked=False)
    locked = solvers.get("fast")
    assert solvers.get("fast[locked=false]").spec == "fast[locked=false]"
    total = {True: 0, False: 0}
    for text in HARD:
        puzzle = Grid.parse(text)
        a, b = locked.solve(puzzle, limit=2), plain.solve(puzzle, limit=2)
        assert a.unique
        assert b.unique
        assert a.solutions == b.solutions
        total[True] += a.stats["guesses"]
        total[False] += b.stats["guesses"]
    assert total[True] < total[False]


@needs_numba
def test_intersections_cut_guesses_without_changing_answers():
    """On the project's 16x16 corpus they halve the guesses (at 9x9 they save next to none)."""
    import corpora

    path = Path(corpora.__file__).parent / "data" / "gen16.txt"
    lines = [x.split()[0] for x in path.read_text().splitlines() if x and x[0] != "#"]
    on = solvers.get("fast[intersections=on]")
    off = solvers.get("fast[intersections=off]")
    total = {True: 0, False: 0}
    for text in lines[:10]:
        puzzle = Grid.parse(text)
        a, b = on.solve(puzzle, limit=2), off.solve(puzzle, limit=2)
        assert a.unique
        assert a.solutions == b.solutions
        total[True] += a.stats["guesses"]
        total[False] += b.stats["guesses"]
    assert total[True] < total[False]


@needs_numba
@pytest.mark.parametrize(("box", "same_as"), [((3, 3), "bands"), ((4, 4), "on"), ((3, 4), "off")])
def test_intersections_by_default_from_16x16(box, same_as):
    puzzle = blanked(box, 4)
    auto = solvers.get("fast").solve(puzzle, limit=2)
    assert auto.stats == solvers.get(f"fast[intersections={same_as}]").solve(puzzle, limit=2).stats


@needs_numba
def test_bands_branches_on_placements_without_changing_answers():
    """tdoku's method, the 9x9 default, finds the answers the cell branching finds.

    At other sizes it is the intersection level.
    """
    bands = solvers.get("fast[intersections=bands]")
    puzzles = [Grid.parse(p) for p in [*HARD, TWO_SOLUTIONS]] + [
        blanked((3, 3), s) for s in range(6)
    ]
    for other in ("off", "on"):
        cells = solvers.get(f"fast[intersections={other}]")
        for puzzle in puzzles:
            a, b = bands.solve(puzzle, limit=2), cells.solve(puzzle, limit=2)
            assert a.status is b.status
            assert len(set(a.solutions)) == len(b.solutions)  # several: maybe others, found first
            assert a.solutions == b.solutions or not a.unique
            assert not any(solvers.check(puzzle, s) for s in a.solutions)
    for puzzle, batched in zip(puzzles, bands.solve_batch(puzzles, limit=2), strict=True):
        assert dict(batched.stats) == dict(bands.solve(puzzle, limit=2).stats)
    puzzle = blanked((4, 4), 4)
    on = solvers.get("fast[intersections=on]").solve(puzzle, limit=2)
    assert bands.solve(puzzle, limit=2).stats == on.stats


@needs_numba
def test_bands_keeps_placement_counts_of_every_digit_and_chute():
    """What the rule and the branching read, kept by each digit's closure, matches a recount.

    The placements per band and stack, and the may/must intersections.
    """
    import numpy as np

    from solvers.fast import kernels, kernels9

    peers = kernels9.peer_masks()
    for text in [*HARD, TWO_SOLUTIONS]:
        stack = np.zeros((82, kernels9.WORDS), dtype=np.int64)
        pending = np.zeros(82, dtype=np.int32)
        ctr = np.zeros(kernels.COUNTERS, dtype=np.int64)
        cells = np.array(Grid.parse(text).cells, dtype=np.int8)
        kernels9.start(cells, stack, pending, ctr)
        st = stack[0].copy()
        assert kernels9.load_givens(st, cells, peers)
        assert kernels9.propagate(st, peers, kernels.BANDS)
        total = 0
        for d in range(9):
            counts = [
                int(kernels9.PERMUTATION_COUNT[kernels9.chute_matrix(st, d, c)]) for c in range(6)
            ]
            assert counts == [int(st[kernels9.COUNTS + d]) >> (8 * c) & 0xFF for c in range(6)]
            total += sum(k << (8 * c) for c, k in enumerate(counts))
        assert total == st[kernels9.TOTAL]
        recounted = st.copy()
        kernels9.recount_triads(recounted)
        assert (recounted == st).all()
        assert st[kernels9.TRIADS : kernels9.TRIADS + 18].all()


@needs_numba
def test_borrowed_arrays_share_memory():
    """`kernels.borrow` is a view without a reference count: writes reach the array."""
    import numpy as np
    from numba import config as numba_config
    from numba import njit
    from numba.core.errors import TypingError

    from solvers.fast import kernels

    @njit
    def write(a):
        b = kernels.borrow(a)
        b[1, 2] = 7
        return b.shape

    a = np.zeros((3, 4), dtype=np.int64)
    assert write(a) == (3, 4)
    assert a[1, 2] == 7
    assert a.sum() == 7
    # a strided view would be read in the wrong order: refused when compiled
    if not numba_config.DISABLE_JIT:
        with pytest.raises(TypingError):
            write(np.zeros((3, 8), dtype=np.int64)[:, ::2])


@needs_numba
def test_borrow_each_keeps_every_array_of_a_tuple():
    """`kernels.borrow_each` hands back the same arrays (any shape, dtype and layout)
    without reference counts: writes through them reach the callers' arrays."""
    import numpy as np
    from numba import config as numba_config
    from numba import njit
    from numba.core.errors import TypingError

    from solvers.fast import kernels

    @njit
    def write(arrays):
        flat, square, strided = kernels.borrow_each(arrays)
        flat[3] = 5
        square[1, 0] = 6
        strided[2, 1] = 9
        return flat.shape[0], square.shape, strided.shape, strided.strides

    flat = np.zeros(8, dtype=np.int64)
    square = np.zeros((2, 2), dtype=np.uint64)
    wide = np.zeros((3, 8), dtype=np.int64)
    strided = wide[:, ::2]
    assert write((flat, square, strided)) == (8, (2, 2), (3, 4), strided.strides)
    assert flat.tolist() == [0, 0, 0, 5, 0, 0, 0, 0]
    assert square.tolist() == [[0, 0], [6, 0]]
    assert wide[2, 2] == 9
    assert wide.sum() == 9

    @njit
    def length(arrays):
        return kernels.borrow_each(arrays)[0].shape[0]

    assert length((flat,)) == 8
    if not numba_config.DISABLE_JIT:  # a tuple holding anything but arrays is refused
        with pytest.raises(TypingError):
            length((flat, 3))


# A row-0/box-0 intersection (cells 0, 1, 2) and where its digits may go elsewhere.
REST_OF_ROW = range(3, 9)
REST_OF_BOX = (9, 10, 11, 18, 19, 20)


def _intersection_rule(masks: list[int]) -> list[int]:
    """Both kernels' intersection rule on one 9x9 candidate state; their results must agree."""
    import numpy as np

    from solvers.fast import kernels, kernels9

    cand = np.array(masks, dtype=np.int32)
    queue = np.zeros(81, dtype=np.int32)
    qlen, _ = kernels.intersections(cand, queue, 9, 3, 3, np.zeros(81, dtype=np.int64))
    assert qlen == 0
    st = np.zeros(kernels9.WORDS, dtype=np.int64)
    for cell, m in enumerate(masks):
        for d in range(9):
            if m >> d & 1:
                st[d * 3 + cell // 27] |= 1 << (cell % 27)
    kernels9.recount_triads(st)
    assert kernels9.intersections(st) > 0
    bits = [sum(1 << d for d in range(9) if st[d * 3 + c // 27] >> (c % 27) & 1) for c in range(81)]
    assert bits == cand.tolist()
    return bits


@needs_numba
def test_three_digits_that_fill_an_intersection_leave_its_line_and_box():
    """A naked triple in three cells of a row and a box: tdoku's 'exactly three' triad clause."""
    masks = [0b111] * 3 + [0x1FF] * 78
    after = _intersection_rule(masks)
    assert after[:3] == [0b111] * 3
    for cell in [*REST_OF_ROW, *REST_OF_BOX]:
        assert after[cell] == 0x1F8
    assert after[27] == after[80] == 0x1FF


@needs_numba
def test_three_digits_that_must_go_into_an_intersection_drive_out_the_others():
    """Digits 1-3 have no other place in row 0: cells 0-2 keep only them (a hidden triple)."""
    masks = [0x1FF] * 3 + [0x1F8] * 6 + [0x1FF] * 72
    after = _intersection_rule(masks)
    assert after[:3] == [0b111] * 3
    assert after[3:] == masks[3:]  # the rest of the box is pointing's job, not this rule's


@needs_numba
@pytest.mark.parametrize("box", [(3, 3), (2, 3), (4, 4)], ids=lambda b: f"{b[0]}x{b[1]}")
def test_time_slices_resume_the_same_search(box, monkeypatch):
    """A search paused after every node and resumed ends exactly as one run does."""
    from solvers.fast import single

    fast = solvers.get("fast")
    puzzle = Grid.empty(*box)
    whole = fast.solve(puzzle, limit=40)
    monkeypatch.setattr(single, "FIRST_SLICE", 1)
    monkeypatch.setattr(single, "SLICE_SECONDS", 0.0)  # never grow the slices
    monkeypatch.setattr(single, "FIRST_CAPACITY", 3)  # and grow the solution store often
    sliced = fast.solve(puzzle, limit=40, time_limit=600)
    assert sliced.solutions == whole.solutions
    assert dict(sliced.stats) == dict(whole.stats)
    assert len(set(sliced.solutions)) == 40


@needs_numba
def test_budget_counts_nodes_exactly():
    fast = solvers.get("fast")
    puzzle = Grid.parse(HARD[2])
    full = fast.solve(puzzle, limit=2)
    assert full.stats["nodes"] > 10
    cut = fast.solve(puzzle, limit=2, budget=10)
    assert cut.stats["nodes"] == 10
    assert not cut.exhausted
    assert cut.status is Status.BUDGET or cut.stats.get("stopped") == "BUDGET"
    enough = fast.solve(puzzle, limit=2, budget=full.stats["nodes"])
    assert enough.unique
    assert enough.solutions == full.solutions
    assert fast.solve(Grid.parse(conformance.PUZZLE_4X4), budget=0).status is Status.SOLVED


@needs_numba
def test_budget_in_a_batch():
    from solvers.fast import solve_many

    hard = Grid.parse(HARD[2])
    batch = solve_many([hard], budget=5)
    assert batch.over_budget.tolist() == [True]
    assert batch.nodes.tolist() == [5]
    assert not batch.exhausted[0]
    assert solvers.get("fast").solve_batch([hard], budget=5)[0].status is Status.BUDGET
    assert solve_many([hard], budget=10**6).over_budget.tolist() == [False]


@needs_numba
def test_counting_beyond_the_first_store():
    fast = solvers.get("fast")
    result = fast.solve(Grid.empty(2), limit=1000)
    assert len(set(result.solutions)) == 288
    assert result.exhausted
    batch = fast.solve_batch([Grid.empty(2)] * 3, limit=300)  # past BATCH_LIMIT: one by one
    assert [len(r.solutions) for r in batch] == [288] * 3


@needs_numba
def test_solve_many_arrays_and_counters():
    import numpy as np

    from solvers.fast import solve_many

    grids = [Grid.parse(p) for p in [*HARD, TWO_SOLUTIONS, conformance.PUZZLE_9X9_UNSOLVABLE]]
    array = np.array([g.cells for g in grids], dtype=np.int64)
    batch = solve_many(array, limit=2)
    assert batch.counts.tolist() == [1, 1, 1, 2, 0]
    assert batch.exhausted.tolist() == [True, True, True, False, True]
    assert batch.unique.tolist() == [True, True, True, False, False]
    assert batch.solutions.shape == (5, 2, 81)
    for i, grid in enumerate(grids[:4]):
        assert not solvers.check(grid, batch.grid(i))
    assert batch.grid(3, 1) != batch.grid(3, 0)
    assert batch.grid(4) is None
    assert (batch.guesses > 0).sum() >= 3
    assert (batch.nodes >= batch.guesses // 2).all()
    first = solve_many(grids, limit=1)
    assert first.counts.tolist() == [1, 1, 1, 1, 0]
    assert first.solutions.shape == (5, 1, 81)


@needs_numba
def test_threads_give_the_same_answers():
    from solvers.fast import solve_many

    puzzles = [blanked((3, 3), seed) for seed in range(300)]
    one = solve_many(puzzles, threads=1)
    two = solve_many(puzzles, threads=2)
    for field in ("counts", "solutions", "nodes", "guesses", "backtracks", "exhausted"):
        assert (getattr(one, field) == getattr(two, field)).all(), field


@needs_numba
def test_invalid_givens_in_a_batch():
    from solvers.fast import solve_many

    fast = solvers.get("fast")
    bad = Grid.parse(conformance.PUZZLE_9X9_INVALID)
    batch = solve_many([bad, Grid.parse(HARD[0])])
    assert batch.invalid.tolist() == [True, False]
    result = fast.solve_batch([bad])[0]
    assert result.status is Status.INVALID
    assert result.message == fast.solve(bad).message
    small = Grid.parse("11.. .... .... ....")
    assert fast.solve_batch([small])[0].status is Status.INVALID


@needs_numba
def test_solve_many_rejects_bad_input():
    import numpy as np

    from solvers.fast import solve_many

    with pytest.raises(ValueError, match="one box shape"):
        solve_many([Grid.empty(2), Grid.empty(3)])
    with pytest.raises(ValueError, match="square number"):
        solve_many(np.zeros((2, 80), dtype=np.int8))
    with pytest.raises(ValueError, match="digits 1..9"):
        solve_many(np.full((1, 81), 10))
    with pytest.raises(ValueError, match="limit"):
        solve_many([Grid.empty(2)], limit=0)
    with pytest.raises(ValueError, match="keep"):
        solve_many([Grid.empty(2)], limit=1, keep=2)
    with pytest.raises(ValueError, match="threads"):
        solve_many([Grid.empty(2)], threads=0)
    with pytest.raises(TypeError):
        solve_many(["not a grid"])
    with pytest.raises(ValueError, match="up to 25x25"):
        solve_many(np.zeros((1, 26 * 26), dtype=np.int8), box=(2, 13))
    assert len(solve_many([])) == 0


@needs_numba
def test_mixed_shapes_through_solve_batch_keep_order():
    fast = solvers.get("fast")
    puzzles = [blanked(box, seed) for seed in range(4) for box in [(2, 2), (3, 3), (2, 3)]]
    results = fast.solve_batch(puzzles, limit=2)
    for puzzle, result in zip(puzzles, results, strict=True):
        assert result.status is fast.solve(puzzle, limit=2).status
        assert all(s.box_rows == puzzle.box_rows for s in result.solutions)


@needs_numba
def test_oracle_uses_the_batch():
    from solvers import oracle

    assert oracle.oracle_name() == "fast"
    puzzles = [Grid.parse(p) for p in [*HARD, TWO_SOLUTIONS]]
    assert [r.status for r in oracle.solve_many(puzzles)] == [Status.SOLVED] * 3 + [Status.MULTIPLE]
    assert oracle.count_solutions(Grid.parse(TWO_SOLUTIONS)) == 2


@pytest.mark.parametrize("oracle_solver", ["fast", "dlx"])
def test_oracle_truth_stream_with_and_without_fast(oracle_solver, monkeypatch):
    from solvers import oracle

    if oracle_solver == "fast" and not HAVE_NUMBA:
        pytest.skip("not installed: pip install 'sudoku-bench[fast]'")
    monkeypatch.setattr(oracle, "oracle_name", lambda: oracle_solver)
    puzzles = [Grid.parse(p) for p in [HARD[0], TWO_SOLUTIONS, conformance.PUZZLE_9X9_UNSOLVABLE]]
    puzzles.append(Grid.parse(conformance.PUZZLE_9X9_INVALID))
    got = list(oracle.truth_stream(iter(puzzles), chunk=2))
    assert [item for item, _, _ in got] == puzzles
    assert [count for _, count, _ in got] == [1, 2, 0, 0]
    assert [solution is None for _, _, solution in got] == [False, False, True, True]
    assert not solvers.check(puzzles[1], got[1][2])


def test_oracle_named_by_the_environment(monkeypatch):
    from solvers import oracle

    monkeypatch.setenv("SUDOKU_BENCH_ORACLE", "dlx")
    assert oracle.oracle_name() == "dlx"
    monkeypatch.setenv("SUDOKU_BENCH_ORACLE", "nosuch")
    with pytest.raises(solvers.UnknownSolver, match="nosuch"):
        oracle.oracle_name()


@needs_numba
def test_truth_stream_in_chunks_keeps_order():
    from solvers.fast import truth_stream

    puzzles = [blanked(box, seed) for seed in range(5) for box in [(3, 3), (2, 2)]]
    dlx = solvers.get("dlx")
    got = list(truth_stream(puzzles, chunk=3))
    assert len(got) == len(puzzles)
    for puzzle, (item, count, solution) in zip(puzzles, got, strict=True):
        assert item is puzzle
        reference = dlx.solve(puzzle, limit=2)
        assert count == len(reference.solutions)
        assert (solution is None) == (count == 0)
        if count:
            assert not solvers.check(puzzle, solution)
    with pytest.raises(ValueError, match="chunk"):
        list(truth_stream(puzzles, chunk=0))


@needs_numba
def test_truth_file_reads_lines_fast_and_places_errors(tmp_path):
    from solvers.fast import truth_file

    path = tmp_path / "set.txt"
    path.write_text(f"# a comment\n{HARD[0]} rating 9.9\n\n{TWO_SOLUTIONS}\n{'1' * 81}\n")
    rows = list(truth_file(path, chunk=2))
    assert [(r[0], r[1]) for r in rows] == [("set.txt:2", 1), ("set.txt:4", 2), ("set.txt:5", 0)]
    assert not solvers.check(Grid.parse(HARD[0]), Grid.parse(rows[0][2]))
    assert rows[2][2] == ""
    bad = tmp_path / "bad.txt"
    bad.write_text(f"{HARD[0]}\n{HARD[1][:40]}x{HARD[1][41:]}\n")
    with pytest.raises(PuzzleFormatError, match=r"bad.txt:2:41"):
        list(truth_file(bad))
    other = tmp_path / "big.txt"
    other.write_text("." * 256 + "\n")
    with pytest.raises(PuzzleFormatError, match="up to 9x9"):
        list(truth_file(other))


@pytest.mark.parametrize("oracle_solver", ["fast", "dlx"])
def test_verify_truth_only_stores_the_truth(oracle_solver, tmp_path, monkeypatch, capsys):
    from corpora import truth
    from harness import truth_store
    from harness.cli import main
    from harness.records import puzzle_text
    from harness.store import Store
    from solvers import oracle

    if oracle_solver == "fast" and not HAVE_NUMBA:
        pytest.skip("not installed: pip install 'sudoku-bench[fast]'")
    monkeypatch.setattr(oracle, "oracle_name", lambda: oracle_solver)
    monkeypatch.setattr(truth_store, "oracle_name", lambda: oracle_solver)
    monkeypatch.setattr(truth, "CHUNK", 2)
    path = tmp_path / "set.txt"
    lines = [
        HARD[0],
        TWO_SOLUTIONS,
        conformance.PUZZLE_9X9_UNSOLVABLE,
        conformance.PUZZLE_9X9_INVALID,
    ]
    path.write_text("\n".join([*lines, conformance.PUZZLE_4X4]) + "\n")
    db = tmp_path / "truth.sqlite"
    assert main(["verify", "--truth-only", "--corpus", str(path), "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert f"5 puzzles (invalid 1, multiple 1, none 1, unique 2) by {oracle_solver}" in out
    with Store(db) as store:
        kinds = [store.truth(*puzzle_text(Grid.parse(text))) for text in lines]
        assert [t.kind for t in kinds] == ["unique", "multiple", "none", "invalid"]
        assert kinds[0].solution == str(solvers.get("dlx").solve(Grid.parse(HARD[0])).solution)
        assert kinds[0].oracle == oracle_solver
        assert store.truth(conformance.PUZZLE_4X4).solution == "1234341221434321"
    assert main(["verify", "--truth-only"]) == 2


@needs_numba
def test_documented_fast_example_holds():
    """The docs' example (plain code, so the docs' doctests run without numba too)."""
    import ast

    page = ROOT / "docs" / "solvers" / "fast.md"
    section = page.read_text(encoding="utf-8")
    example = section.split("```python\n", 1)[1].split("```", 1)[0]
    namespace: dict = {}
    checked = 0
    for line in example.splitlines():
        code, _, comment = line.partition("  # ")
        if comment and comment[0] in "([{'":  # an expected value, then maybe ": a note"
            expected = ast.literal_eval(comment.split(": ", 1)[0])
            assert eval(code, namespace) == expected, line
            checked += 1
        else:
            exec(code, namespace)
    assert checked == 3


@needs_numba
def test_ab_worker_checks_answers_and_times_both_settings(capsys):
    """`harness.bench.fast_ab`'s worker: one checked row per set and limit, both settings."""
    import json

    from harness.bench.fast_ab import alternative, worker

    worker(["gen16"], repeat=1, forms=1)
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["set"], r["limit"]) for r in rows] == [("gen16", 1), ("gen16", 2)]
    assert rows[1]["unique"] == rows[1]["unique_alt"] == rows[1]["puzzles"] == 30
    assert rows[0]["alt"] == "off"  # 16x16 has the intersection level on by default
    assert alternative(rows).startswith("off: ")


@needs_numba
def test_many_solutions_become_the_same_grids():
    """Past a few solutions, `single.grids_of` skips validation; the grids must not differ."""
    import numpy as np

    from solvers.fast.single import grids_of

    puzzle = Grid.parse("1... 3..2 ...3 ..2.").replace((0,) * 16)
    batch = solvers.get("fast").solve(puzzle, limit=200)
    rows = np.array([g.cells for g in batch.solutions], dtype=np.int8)
    fast = grids_of(puzzle, rows)
    slow = [puzzle.replace(row) for row in rows.tolist()]
    assert len(fast) == 200
    assert fast == slow
    assert [g.symbols for g in fast] == [g.symbols for g in slow]
    assert all(type(c) is int for g in fast for c in g.cells)
    assert {hash(g) for g in fast} == {hash(g) for g in slow}
