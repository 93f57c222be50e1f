"""The `minizinc` adapter on the real MiniZinc tool chain and Gecode.

The status mapping is pinned against the package's `Status` enum; counting
agrees with dlx on every shape; limits give TIMEOUT and BUDGET; a solver
MiniZinc does not list is refused with the install command.  Skipped, with
that command as the reason, where MiniZinc is not installed.
"""

from __future__ import annotations

import re
import subprocess

import pytest

import solvers
from solvers import Grid, Status
from solvers.cp import minizinc as mz
from solvers.registry import SolverUnavailable
from solvers.testing import (
    PUZZLE_4X4,
    PUZZLE_4X4_UNSOLVABLE,
    PUZZLE_6X6,
    PUZZLE_9X9_HARDER,
    PUZZLE_9X9_TWO_SOLUTIONS,
    PUZZLE_9X9_UNSOLVABLE,
)

if not mz.MiniZinc.supported():
    pytest.skip(f"not installed: {mz.INSTALL}", allow_module_level=True)

import minizinc  # noqa: E402


def test_every_minizinc_status_is_mapped():
    assert set(mz.STATUS_MEANING) == {s.name for s in minizinc.Status}


@pytest.mark.parametrize(
    ("name", "meaning"),
    [
        ("SATISFIED", mz.FOUND),
        ("ALL_SOLUTIONS", mz.COMPLETE),
        ("OPTIMAL_SOLUTION", mz.COMPLETE),
        ("UNSATISFIABLE", mz.NONE),
        ("UNKNOWN", mz.STOPPED),
        ("UNBOUNDED", mz.BROKEN),
        ("ERROR", mz.BROKEN),
    ],
)
def test_minizinc_status_meaning(name, meaning):
    assert mz.status_meaning(minizinc.Status[name]) == meaning


def test_unknown_minizinc_status_raises():
    with pytest.raises(RuntimeError, match="does not map"):
        mz.status_meaning("SOMETHING_NEW")


@pytest.mark.parametrize(
    ("text", "status", "count"),
    [
        (PUZZLE_4X4, Status.SOLVED, 1),
        (PUZZLE_6X6, Status.SOLVED, 1),
        (PUZZLE_9X9_HARDER, Status.SOLVED, 1),
        (PUZZLE_9X9_TWO_SOLUTIONS, Status.MULTIPLE, 2),
        (PUZZLE_4X4_UNSOLVABLE, Status.UNSOLVABLE, 0),
        (PUZZLE_9X9_UNSOLVABLE, Status.UNSOLVABLE, 0),
    ],
)
def test_counts_like_dlx(text, status, count):
    puzzle = Grid.parse(text)
    result = solvers.get("minizinc[solver=gecode]").solve(puzzle, limit=3)
    reference = solvers.get("dlx").solve(puzzle, limit=3)
    assert (result.status, len(result.solutions)) == (status, count)
    assert set(result.solutions) == set(reference.solutions)
    assert result.exhausted
    assert result.stats["solver"].startswith("Gecode")


def test_statistics_are_normalised_and_plain_data():
    result = solvers.get("minizinc").solve(Grid.parse(PUZZLE_9X9_HARDER))
    stats = result.stats
    assert stats["nodes"] == stats["nodes"] >= 1
    assert stats["backtracks"] == stats["failures"]
    assert isinstance(stats["solveTime"], float)
    assert isinstance(stats["flatTime"], float)


def test_limit_stops_at_nr_solutions_without_claiming_exhaustion():
    result = solvers.get("minizinc").solve(Grid.empty(2), limit=5)
    assert result.status is Status.MULTIPLE
    assert len(result.solutions) == 5
    assert not result.exhausted


def test_a_tiny_time_limit_gives_timeout():
    # A million solutions of the empty 16x16 grid: no machine enumerates them in 10 ms (with
    # limit=10 a fast machine finished before the limit and answered MULTIPLE).
    result = solvers.get("minizinc").solve(Grid.empty(4), limit=10**6, time_limit=0.01)
    assert result.stats.get("stopped", result.status.value) == "TIMEOUT"


def test_budget_is_gecodes_node_cutoff():
    result = solvers.get("minizinc").solve(Grid.empty(3), limit=1000, budget=20)
    assert result.stats.get("stopped", result.status.value) == "BUDGET"
    assert result.stats["nodes"] <= 21


def test_a_solver_minizinc_does_not_list_is_refused():
    with pytest.raises(SolverUnavailable, match="no solver 'no-such-solver'"):
        solvers.get("minizinc[solver=no-such-solver]")


def test_the_model_runs_on_the_minizinc_command_line(tmp_path):
    """The exported model and data are plain MiniZinc: the `minizinc` program solves them."""
    puzzle = Grid.parse(PUZZLE_4X4)
    (tmp_path / "sudoku_bench.mzn").write_text(mz.MODEL)
    (tmp_path / "puzzle.dzn").write_text(mz.dzn(puzzle))
    out = subprocess.run(
        ["minizinc", "--solver", "gecode", "sudoku_bench.mzn", "puzzle.dzn"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    digits = [int(t) for t in re.findall(r"\d+", out.split("x =", 1)[1].split("];")[0])]
    assert digits == list(solvers.get("dlx").solve(puzzle).solution.cells)


def test_without_the_driver_it_is_listed_unavailable_with_the_install_command(
    monkeypatch, tmp_path
):
    monkeypatch.setenv("PATH", str(tmp_path))  # an empty PATH: no minizinc program
    assert not mz.MiniZinc.supported()
    with pytest.raises(SolverUnavailable, match="apt-get install minizinc"):
        solvers.get("minizinc")
