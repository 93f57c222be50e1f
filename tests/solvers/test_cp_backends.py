"""The constraint-programming backends: cpsat, constraint (python-constraint), sat (PySAT).

Status mappings are pinned; every variant solves and counts (0 / 1 / 2+) on
small grids, agreeing with dlx; limits map to TIMEOUT / BUDGET; a missing
library makes a backend unavailable, with its install command, without
breaking ``import solvers``.
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import solvers
from solvers import Grid, Status
from solvers.testing import PUZZLE_4X4, PUZZLE_4X4_UNSOLVABLE, PUZZLE_9X9_TWO_SOLUTIONS

cp_model_pb2 = pytest.importorskip("ortools.sat.cp_model_pb2")
pytest.importorskip("constraint")
pytest.importorskip("pysat")

from solvers.cp import constraint as pyconstraint  # noqa: E402
from solvers.cp import cpsat  # noqa: E402
from solvers.sat import sat  # noqa: E402

COMPLETE_SPECS = [
    "cpsat",
    "cpsat[model=boolean]",
    "cpsat[counting=block]",
    "cpsat[model=boolean,counting=block]",
    "constraint",
    "constraint[algorithm=optimized]",
    "constraint[algorithm=recursive]",
    "constraint[forwardcheck=false]",
    "sat",
    "sat[encoding=minimal]",
    "sat[backend=glucose]",
    "sat[backend=glucose,encoding=minimal]",
    "sat[incremental=true]",
    "sat[backend=glucose,encoding=minimal,incremental=true]",
]
SOLVED_4X4 = "1234341221434321"
SEVENTEEN = "...8.1..........435............7.8........1...2..3....6......75..34........2..6.."


# -- status mappings ------------------------------------------------------------------


def test_every_cpsat_status_is_mapped():
    assert set(cpsat.STATUS_MEANING) == set(cp_model_pb2.CpSolverStatus.keys())


@pytest.mark.parametrize(
    ("name", "meaning"),
    [
        ("OPTIMAL", cpsat.FOUND),
        ("FEASIBLE", cpsat.PARTIAL),
        ("INFEASIBLE", cpsat.NONE),
        ("UNKNOWN", cpsat.STOPPED),
        ("MODEL_INVALID", cpsat.BROKEN),
    ],
)
def test_cpsat_status_meaning(name, meaning):
    assert cpsat.status_meaning(cp_model_pb2.CpSolverStatus.Value(name)) == meaning


def test_unknown_cpsat_status_raises():
    with pytest.raises(RuntimeError, match="does not map"):
        cpsat.status_meaning(99)


@pytest.mark.parametrize(
    ("answer", "meaning"), [(True, "found"), (False, "none"), (None, "stopped")]
)
def test_sat_answer_meaning(answer, meaning):
    assert sat.outcome(answer) == meaning


@pytest.mark.parametrize("answer", [1, 0, "SAT"])
def test_unknown_sat_answer_raises(answer):
    with pytest.raises(RuntimeError, match="does not map"):
        sat.outcome(answer)


# -- solving and counting -------------------------------------------------------------


@pytest.mark.parametrize("spec", COMPLETE_SPECS)
def test_counts_none_one_and_two(spec):
    solver = solvers.get(spec)
    unique = solver.solve(Grid.parse(PUZZLE_4X4), limit=2)
    assert (unique.status, unique.exhausted) == (Status.SOLVED, True)
    assert unique.solution.format() == SOLVED_4X4
    none = solver.solve(Grid.parse(PUZZLE_4X4_UNSOLVABLE), limit=2)
    assert (none.status, none.exhausted, none.solutions) == (Status.UNSOLVABLE, True, ())
    two = solver.solve(Grid.parse(PUZZLE_9X9_TWO_SOLUTIONS), limit=3)
    assert (two.status, two.exhausted, len(set(two.solutions))) == (Status.MULTIPLE, True, 2)
    assert not any(solvers.check(Grid.parse(PUZZLE_9X9_TWO_SOLUTIONS), s) for s in two.solutions)


@pytest.mark.parametrize("spec", COMPLETE_SPECS)
def test_full_grid_is_its_own_unique_solution(spec):
    full = Grid.parse(SOLVED_4X4)
    result = solvers.get(spec).solve(full, limit=2)
    assert (result.status, result.exhausted, result.solutions) == (Status.SOLVED, True, (full,))


@pytest.mark.parametrize("spec", ["cpsat", "cpsat[model=boolean]", "sat", "constraint"])
def test_six_by_six_and_sixteen_by_sixteen(spec):
    from solvers.testing import PUZZLE_6X6, PUZZLE_16X16

    for text in (PUZZLE_6X6, PUZZLE_16X16):
        puzzle = Grid.parse(text)
        result = solvers.get(spec).solve(puzzle, limit=2)
        assert result.unique, f"{spec}: {result.status}"
        assert not solvers.check(puzzle, result.solution)


_SOLUTIONS_4X4 = ["1234341221434321", "1234432121433412", "2143341243211234"]


@st.composite
def small_puzzles(draw) -> Grid:
    """4x4 puzzles with 0, 1 or many solutions: blanked solutions, sometimes with a clash."""
    cells = list(Grid.parse(draw(st.sampled_from(_SOLUTIONS_4X4))).cells)
    for i in draw(st.sets(st.integers(0, 15), min_size=6, max_size=16)):
        cells[i] = 0
    if draw(st.booleans()):  # a wrong given often makes the puzzle unsolvable
        i = draw(st.integers(0, 15))
        cells[i] = draw(st.integers(1, 4))
    return Grid(2, 2, tuple(cells))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzle=small_puzzles())
@pytest.mark.parametrize("spec", COMPLETE_SPECS)
def test_agrees_with_dlx(spec, puzzle):
    reference = solvers.get("dlx").solve(puzzle, limit=3)
    result = solvers.get(spec).solve(puzzle, limit=3)
    assert result.status == reference.status
    assert result.exhausted == reference.exhausted
    if reference.exhausted:  # all solutions listed: the same ones
        assert set(result.solutions) == set(reference.solutions)
    else:  # more than the limit: any three distinct, valid ones
        assert len(set(result.solutions)) == 3
        assert not any(solvers.check(puzzle, s) for s in result.solutions)


@pytest.mark.parametrize("spec", ["sat[incremental=true]", "sat[backend=glucose,incremental=true]"])
def test_incremental_sat_keeps_puzzles_apart(spec):
    # one instance, one loaded solver per shape: each answer must match dlx's
    solver = solvers.get(spec)
    texts = [PUZZLE_4X4, PUZZLE_9X9_TWO_SOLUTIONS, PUZZLE_4X4_UNSOLVABLE, SEVENTEEN, "." * 16]
    for text in texts * 2:
        puzzle = Grid.parse(text)
        reference = solvers.get("dlx").solve(puzzle, limit=2)
        result = solver.solve(puzzle, limit=2)
        assert (result.status, result.exhausted) == (reference.status, reference.exhausted)
        assert not any(solvers.check(puzzle, s) for s in result.solutions)
        if reference.exhausted:
            assert set(result.solutions) == set(reference.solutions)
    assert len(solver.loaded()) == 2  # a 4x4 and a 9x9 solver, loaded once each
    loaded = solver.loaded()[(3, 3)]
    assert solver.solve(Grid.parse(SEVENTEEN)).unique is False  # limit=1: not proved
    assert solver.loaded()[(3, 3)] is loaded


def test_input_grid_and_solution_symbols_kept():
    puzzle = Grid.parse(SEVENTEEN)
    for spec in ("cpsat", "cpsat[model=boolean]", "sat"):
        result = solvers.get(spec).solve(puzzle)
        assert result.status is Status.SOLVED
        assert result.solution.symbols == puzzle.symbols
        assert not solvers.check(puzzle, result.solution)


# -- limits ---------------------------------------------------------------------------


@pytest.mark.parametrize("spec", ["cpsat", "sat", "constraint"])
def test_time_limit_stops_an_endless_count(spec):
    # the 4x4 grid has 288 solutions: all listed, and the count proved, within a loose limit
    result = solvers.get(spec).solve(Grid.empty(2), limit=10**9, time_limit=60)
    assert (result.status, len(result.solutions), result.exhausted) == (Status.MULTIPLE, 288, True)
    # the 16x16 grid has too many to list: the time limit ends the count
    result = solvers.get(spec).solve(Grid.empty(4), limit=10**9, time_limit=0.2)
    assert Status.TIMEOUT in (result.status, result.stats.get("stopped"))
    assert not result.exhausted


def test_cpsat_unknown_maps_to_budget():
    # max_number_of_conflicts=0: CP-SAT stops before searching and answers UNKNOWN
    result = solvers.get("cpsat").solve(Grid.parse(SEVENTEEN), budget=0)
    assert (result.status, result.solutions, result.exhausted) == (Status.BUDGET, (), False)


def test_cpsat_timeout_without_a_solution():
    result = solvers.get("cpsat").solve(Grid.empty(5), time_limit=1e-6)
    assert (result.status, result.solutions, result.exhausted) == (Status.TIMEOUT, (), False)


def test_constraint_watchdog_interrupts_a_long_search():
    # the library's optimized solver (static variable order) thrashes on 17-clue puzzles
    result = solvers.get("constraint[algorithm=optimized]").solve(
        Grid.parse(SEVENTEEN), time_limit=0.1
    )
    assert (result.status, result.solutions) == (Status.TIMEOUT, ())
    assert result.stats["nodes"] > 0


def test_constraint_budget_counts_values_tried():
    result = solvers.get("constraint").solve(Grid.empty(3), limit=10**6, budget=30)
    assert Status.BUDGET in (result.status, result.stats.get("stopped"))
    assert result.stats["nodes"] == 31


def test_sat_budget_counts_decisions_on_cadical():
    result = solvers.get("sat[encoding=minimal]").solve(Grid.parse(SEVENTEEN), budget=3)
    assert (result.status, result.stats["decisions"], result.stats["nodes"]) == (
        Status.BUDGET,
        3,
        3,
    )


def test_sat_budget_on_glucose():
    # Glucose checks its (conflict) budget only between restarts: here, between solutions
    spec = "sat[backend=glucose]"
    result = solvers.get(spec).solve(Grid.empty(3), limit=10**6, budget=50)
    assert Status.BUDGET in (result.status, result.stats.get("stopped"))
    assert not result.exhausted


# -- statistics and parameters --------------------------------------------------------


@pytest.mark.parametrize(("counting", "solves"), [("enumerate", 1), ("block", 2)])
def test_cpsat_statistics(counting, solves):
    spec = f"cpsat[workers=1,counting={counting}]"
    result = solvers.get(spec).solve(Grid.parse(SEVENTEEN), limit=2)
    assert result.unique
    stats = result.stats
    for key in ("num_branches", "num_conflicts", "wall_time", "build_seconds", "solve_seconds"):
        assert stats[key] >= 0, key
    assert stats["workers"] == 1
    assert stats["model"] == "integer"
    assert stats["solves"] == solves  # block: the solution, then the proof it is alone
    assert stats["nodes"] == stats["num_branches"]


def test_sat_statistics_come_from_the_solver():
    result = solvers.get("sat").solve(Grid.parse(SEVENTEEN), limit=2)
    stats = result.stats
    assert stats["engine"] == sat.engine_name("cadical")
    assert stats["nodes"] == stats["decisions"] > 0
    assert stats["propagations"] > 0
    assert stats["clauses"] == 11988 + 17


def test_sat_engines_exist_in_installed_pysat():
    from pysat.solvers import SolverNames

    for backend in sat.ENGINES:
        assert hasattr(SolverNames, sat.engine_name(backend))


@pytest.mark.parametrize(
    ("encoding", "count"),
    [
        # 81 at-least-one cell clauses + 27 units x 9 digits x C(9,2) pairs
        ("minimal", 81 + 27 * 9 * 36),
        # + 81 cells x C(9,2) pairs + 27 units x 9 digits at-least-one
        ("extended", 81 + 27 * 9 * 36 + 81 * 36 + 27 * 9),
    ],
)
def test_sat_encoding_sizes(encoding, count):
    clauses = sat.clauses(3, 3, encoding)
    assert len(clauses) == count
    assert all(0 < abs(lit) <= 729 for clause in clauses for lit in clause)


def test_cpsat_rejects_negative_workers():
    with pytest.raises(solvers.UnknownOption, match="workers"):
        solvers.get("cpsat[workers=-1]")


def test_minconflicts_is_incomplete():
    solver = solvers.get("constraint[algorithm=minconflicts,seed=1]")
    result = solver.solve(Grid.parse(PUZZLE_4X4), limit=2)
    assert result.status in (Status.SOLVED, Status.STUCK)
    assert not result.exhausted
    if result.solutions:
        assert not solvers.check(Grid.parse(PUZZLE_4X4), result.solution)


# -- optional libraries ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "hint"),
    [
        ("cpsat", "pip install ortools"),
        ("constraint", "pip install python-constraint2"),
        ("sat", "pip install 'sudoku-bench[sat]'"),
    ],
)
def test_missing_library_makes_backend_unavailable(monkeypatch, name, hint):
    cls = solvers.solver_class(name)
    assert cls.supported()
    monkeypatch.setattr(cls, "requires", ("no_such_module_for_sudoku_bench",))
    assert not cls.supported()
    with pytest.raises(solvers.SolverUnavailable, match=re.escape(hint)):
        solvers.get(name)


def test_backend_modules_import_without_their_libraries():
    code = (
        "import sys\n"
        "for mod in ('ortools', 'constraint', 'pysat'): sys.modules[mod] = None\n"
        "import solvers, solvers.cp.cpsat, solvers.cp.constraint, solvers.sat.sat\n"
        "print('ok')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.stdout.strip() == "ok", done.stderr


def test_module_names():
    # python-constraint's own package is `constraint`: this module must not shadow it
    assert pyconstraint.__name__ == "solvers.cp.constraint"
    assert solvers.solver_class("constraint") is pyconstraint.PythonConstraint


# -- the benchmark helper -------------------------------------------------------------


def test_made_puzzles_are_unique_and_fit_their_solution():
    from harness.bench.cp import make_unique_puzzles

    puzzles = make_unique_puzzles(3, box=2, seed=7)
    assert len(set(puzzles)) == 3
    for puzzle in puzzles:
        result = solvers.get("dlx").solve(puzzle, limit=2)
        assert result.unique
        assert puzzle.givens < 16


def test_measure_counts_solved_and_build_share():
    from harness.bench.cp import measure

    puzzles = [Grid.parse(PUZZLE_4X4), Grid.parse(PUZZLE_4X4_UNSOLVABLE)]
    rows = measure(["cpsat", "dlx"], puzzles, limit=2, time_limit=10)
    assert [r["solver"] for r in rows] == ["cpsat", "dlx"]
    for row in rows:
        assert (row["puzzles"], row["solved"], row["wrong"]) == (2, 1, 0)
        assert row["statuses"] == {"SOLVED": 1, "UNSOLVABLE": 1}
    assert 0 < rows[0]["build_share"] < 1
    assert rows[1]["build_share"] == 0  # dlx reports no model building


@pytest.mark.parametrize("model", ["integer", "boolean"])
def test_cpsat_with_several_workers_never_counts_one_solution_twice(model):
    # CP-SAT's parallel enumeration may report a solution twice (a false MULTIPLE);
    # with workers != 1 counting blocks each solution and solves again instead.
    from corpora import open_corpus

    solver = solvers.get(f"cpsat[workers=2,model={model}]")
    for puzzle in list(open_corpus("gen4").puzzles())[:40]:
        result = solver.solve(puzzle.grid, limit=2)
        assert result.stats["counting"] == "block"
        assert len(set(result.solutions)) == len(result.solutions)
        assert result.unique, f"{puzzle.id}: {result.status}"
