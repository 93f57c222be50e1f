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

# The puzzles come from the project's generated corpora (corpora/data/*.txt, line given).
# gen9-easy.txt line 53: hidden singles (and full houses) alone solve it.
EASY = "...8.15...2....89.45.....3.7..6.8.............4...5...1...7..58.7.3149..6.....7.."
# gen9-minimal.txt line 60: one X-Wing; the first tier alone gets stuck.
X_WING = "..7.6......812.6.4..39.....4......8...57.13..1.....2...6...7.3.........8.....27.5"
# gen9-extreme.txt line 50: every technique but the forcing chains gets stuck.
HARD = "5.....4.2..9.6785.......76....49..2.8....1.4.......3..2.8..5.3..94....7...5..4..6"
# gen9-extreme.txt line 13: the path uses a unique rectangle.
UNIQUE_RECTANGLE = (
    ".8...1.......3..2.......15.42....9..3..5.......9.68...1.3.9.....6.4....9.4....2.."
)
NO_SOLUTION = ".12345678" + "9" + "." * 71  # r1c1 sees every digit


def _run(text: str, techniques=None, **kwargs):
    return propagate(CandidateState.from_grid(Grid.parse(text)), techniques, **kwargs)


def test_solved_stuck_and_contradiction():
    solved = _run(EASY)
    assert solved.status == "solved"
    assert solved.state.solved
    assert solved.state.to_grid().format().startswith("967831524")
    stuck = _run(HARD, "classic")
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
    result = _run(UNIQUE_RECTANGLE)
    assert result.counts.get("unique_rectangle")
    assert result.uniqueness_used
    assert not _run(X_WING).uniqueness_used


def test_propagating_a_contradictory_state_returns_at_once():
    state = CandidateState.from_grid(Grid.parse("11.. .... .... ...."))
    result = propagate(state)
    assert result.status == "contradiction"
    assert result.steps == []


def test_profile_charges_nested_searches_to_their_technique(monkeypatch):
    from solvers.human import profiling

    clock = iter(range(100))
    monkeypatch.setattr(profiling.time, "perf_counter", lambda: next(clock))
    profile: dict[str, float] = {}
    token = profiling.profiling(profile)
    try:
        # outer starts at 0, inner runs 1..2, outer ends at 3
        profiling.charged("outer", lambda: profiling.charged("inner", lambda: None))
    finally:
        profiling.stop(token)
    assert profile == {"outer": 2, "inner": 1}
    assert profiling.charged("outer", lambda: 7) == 7  # no profile: just the search
    assert profile == {"outer": 2, "inner": 1}
