"""The (+) branches' closures hold every fact the branches hold, so the search that follows
only the branches they pick concludes what following every branch concludes."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable

import pytest

from corpora.corpus import read_puzzles
from solvers.human.state import CandidateState
from solvers.human.techniques import forcing, plus_closure
from solvers.human.techniques.branches import PLUS, Context
from tests.paths import ROOT
from tests.solvers.human.test_human_path import GRID, STATIC_GRID
from tests.solvers.human.test_nested_levels import FORUM_GRID

pytest.importorskip("numba")

DATA = ROOT / "corpora" / "data"


def _first(name: str) -> Callable[[], CandidateState]:
    grid = next(iter(read_puzzles(DATA / name))).grid
    return lambda: CandidateState.from_grid(grid)


def _pencil(text: str) -> Callable[[], CandidateState]:
    return lambda: CandidateState.from_candidates(text)


# Candidate grids where (+) branches have work to do (each made fresh when asked for): the
# forum puzzle before its first nested step, two grids the engine reached on gen9-extreme,
# and 4x4 and 16x16 puzzles.
STATES = {
    "forum": _pencil(FORUM_GRID),
    "gen9-extreme step 26": _pencil(GRID),
    "gen9-extreme static": _pencil(STATIC_GRID),
    "gen4": _first("gen4.txt"),
    "gen16": _first("gen16.txt"),
}


@pytest.mark.parametrize("name", STATES)
def test_a_closure_holds_every_fact_its_branch_holds(name):
    state = STATES[name]()
    ends = plus_closure.plus_ends(state)
    assert ends, name
    ctx = Context(state)
    conflicts = 0
    for seed, facts in ends.items():
        branch = ctx.branch([seed], PLUS)
        if branch.conflict is not None:
            conflicts += 1
            assert facts is None, f"{name}: seed {seed} ends in a contradiction"
        elif facts is not None:
            missing = [x for x in branch.parents if not facts >> x & 1]
            assert not missing, f"{name}: seed {seed} lacks {missing}"
    if name == "gen9-extreme step 26":
        assert conflicts  # the check above has contradictions to miss
    assert any(f is not None and f.bit_count() > 20 for f in ends.values())


@pytest.mark.parametrize("name", list(STATES)[:3])
def test_the_search_concludes_the_same_with_and_without_closures(name, monkeypatch):
    with_closures = forcing.dynamic_forcing_chain_plus(STATES[name]())
    monkeypatch.setattr(forcing, "plus_ends", lambda _state: None)
    assert forcing.dynamic_forcing_chain_plus(STATES[name]()) == with_closures


def test_without_numba_there_are_no_closures(monkeypatch):
    monkeypatch.setattr(plus_closure, "AVAILABLE", False)
    assert plus_closure.plus_ends(CandidateState.from_candidates(GRID)) is None


def test_the_solver_loads_the_kernels_when_it_warms_up():
    """A worker warms its solvers up before any time limit: the kernels' first call, which
    loads them, must not fall inside a timed solve."""
    code = (
        "import solvers\n"
        "from solvers.human.techniques import plus_kernel, static_kernel\n"
        "assert not plus_kernel.close_all.signatures\n"
        "solvers.get('human').warm_up()\n"
        "assert plus_kernel.close_all.signatures and static_kernel.analyse.signatures\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
