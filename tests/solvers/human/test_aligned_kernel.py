"""The compiled aligned pair and triple exclusions (numba) find the steps of the Python
searches, which run where numba is missing, at every state of solve paths."""

from __future__ import annotations

import pytest

from solvers.grid import Grid
from solvers.human.engine import propagate
from solvers.human.state import CandidateState
from solvers.human.techniques import aligned
from solvers.human.trace import compact
from tests.paths import ROOT

pytest.importorskip("numba")

DATA = ROOT / "corpora" / "data"


def puzzles(count: int) -> list[Grid]:
    lines = (DATA / "gen9-extreme.txt").read_text().splitlines()
    return [Grid.parse(line) for line in lines if line and not line.startswith("#")][:count]


FINDERS = {
    "pair": aligned.aligned_pair_exclusion,
    "triple": aligned.aligned_triple_exclusion,
}


def both_along_the_path(grid: Grid, monkeypatch: pytest.MonkeyPatch, find) -> int:
    """At each state of the engine's path, the compiled search and the Python one (with
    its memo kept from state to state) find the same step; how many found one."""
    state = CandidateState.from_grid(grid)
    found = 0
    while state.empty and not state.contradiction:
        monkeypatch.setattr(aligned, "COMPILED", True)
        compiled = find(state)
        monkeypatch.setattr(aligned, "COMPILED", False)
        python = find(state)
        assert (compiled is None) == (python is None), state.snapshot()
        if compiled is not None and python is not None:
            assert compact(compiled) == compact(python)
            assert compiled == python
            found += 1
        if propagate(state, max_steps=1).stopped_by is None:
            break
    return found


@pytest.mark.parametrize("which", FINDERS)
def test_the_compiled_search_finds_the_python_search_s_steps(monkeypatch, which):
    found = sum(both_along_the_path(grid, monkeypatch, FINDERS[which]) for grid in puzzles(6))
    assert found > 0


def test_the_compiled_search_stands_on_the_pattern_of_the_se_tests(monkeypatch):
    # a state with an aligned triple exclusion (r9c2<>4,5,6 in test_human_se_patterns)
    from tests.solvers.human.test_human_se_patterns import ATE

    state = CandidateState.from_candidates(ATE[1])
    step = aligned.aligned_triple_exclusion(state)
    monkeypatch.setattr(aligned, "COMPILED", False)
    assert step is not None
    assert step == aligned.aligned_triple_exclusion(state.copy())
