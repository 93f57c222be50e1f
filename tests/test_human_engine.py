"""The engine loop: statuses, limits, traces, determinism and technique configurations."""

from __future__ import annotations

import pytest

from solvers.base import Limits, Status
from solvers.grid import Grid
from solvers.human import (
    GROUPS,
    TECHNIQUES,
    CandidateState,
    propagate,
    resolve,
)
from solvers.human.table import config_name

EASY = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
X_WING = ".43.8.25.6.............1.949....4.7....6.8....1.2....382.5.............5.34.9.71."
HARD = "6.2.5.........3.4..........43...8....1....2........7..5..27...........81...6....."
NO_SOLUTION = ".12345678" + "9" + "." * 71  # r1c1 sees every digit


def _run(text: str, techniques=None, **kwargs):
    return propagate(CandidateState.from_grid(Grid.parse(text)), techniques, **kwargs)


def test_solved_stuck_and_contradiction():
    solved = _run(EASY)
    assert solved.status == "solved"
    assert solved.state.solved
    assert solved.state.to_grid().format().startswith("483921657")
    stuck = _run(HARD)
    assert stuck.status == "stuck"
    assert stuck.state.empty > 0
    assert not stuck.state.contradiction
    broken = _run(NO_SOLUTION)
    assert broken.status == "contradiction"
    assert broken.reason == "no candidate left in r1c1"


def test_counts_add_up_to_the_steps():
    result = _run(X_WING)
    assert sum(result.counts.values()) == len(result.steps)
    assert result.counts["x_wing"] == 1


def test_first_tier_alone_cannot_use_second_tier_techniques():
    result = _run(X_WING, "tier1")
    assert result.status == "stuck"
    assert not set(result.counts) - set(GROUPS["tier1"])


def test_same_puzzle_same_path():
    first = _run(X_WING)
    second = _run(X_WING)
    assert first.steps == second.steps


def test_the_state_changes_in_place():
    state = CandidateState.from_grid(Grid.parse(EASY))
    result = propagate(state)
    assert result.state is state
    assert state.solved


def test_max_steps_stops():
    result = _run(EASY, max_steps=5)
    assert result.status == "stopped"
    assert result.stopped_by == "max_steps"
    assert len(result.steps) == 5


def test_budget_counts_steps():
    result = _run(EASY, limits=Limits(budget=7))
    assert (result.status, result.stopped_by, len(result.steps)) == ("stopped", Status.BUDGET, 7)


def test_time_limit():
    limits = Limits(time_limit=1e-9)
    result = _run(EASY, limits=limits)
    assert result.stopped_by is Status.TIMEOUT


def test_trace_keeps_the_candidates_before_each_step():
    result = _run(X_WING, trace=True)
    assert all(step.before is not None for step in result.steps)
    first, second = result.steps[0], result.steps[1]
    ((cell, digit),) = first.placements
    assert first.before[cell] > 0  # open before the step
    assert second.before[cell] == -digit  # placed after it
    assert _run(X_WING).steps[0].before is None


def test_technique_configurations():
    assert [t.name for t in resolve(None)] == [t.name for t in TECHNIQUES if t.enabled]
    assert [t.name for t in resolve("naked_pair+hidden_single")] == [
        "hidden_single",
        "naked_pair",
    ]
    assert resolve(["singles"]) == resolve("full_house,hidden_single,naked_single")
    assert config_name(resolve("tier1")) == "tier1"
    assert config_name(resolve("naked_pair+hidden_single")) == "hidden_single+naked_pair"


@pytest.mark.parametrize("bad", ["nope", "naked_single+nope", ""])
def test_unknown_techniques_are_refused_with_the_valid_names(bad):
    with pytest.raises(ValueError, match="technique"):
        resolve(bad)


def test_magictouch_propagation_uses_its_three_rules_only():
    result = _run(EASY, ["naked_single", "hidden_single", "naked_pair"])
    assert result.solved
    assert set(result.counts) <= {"naked_single", "hidden_single", "naked_pair"}


def test_uniqueness_use_is_recorded():
    result = _run(
        "..5...987.4..5...1..7......2...48....9.1.....6..2.....3..6..2.......9.7.......5.."
    )
    assert result.counts.get("unique_rectangle")
    assert result.uniqueness_used
    assert not _run(X_WING).uniqueness_used


def test_propagating_a_contradictory_state_returns_at_once():
    state = CandidateState.from_grid(Grid.parse("11.. .... .... ...."))
    result = propagate(state)
    assert result.status == "contradiction"
    assert result.steps == []
