"""Dynamic forcing chains' end states: started from a branch they hold, and carried over
from the grid before (``Closure.end``, ``changed_mask``, ``carry.end_states``).

Each shortcut must give exactly what a plain `Closure.end` on the grid gives.  The grid is
the dynamic forcing chain case of ``test_human_forcing`` (gen9-extreme line 55, step 26).
"""

from __future__ import annotations

import pytest

from solvers.human import CandidateState
from solvers.human.techniques import carry
from solvers.human.techniques.branches import Context
from solvers.human.techniques.closure import Closure, changed_mask, since
from solvers.human.techniques.static_graph import static_graph

PENCILMARKS = (
    "239 6 157 3589 23578 358 4 157 128 2359 135 8 359 2357 4 6 157 12 245 45 57 1 2578 6 "
    "578 9 3 458 458 6 2 358 7 1 38 9 1 2 9 4 6 38 37 378 5 58 7 3 58 1 9 2 6 4 7 9 2 6 4 "
    "358 358 135 18 358 1358 15 7 9 2 358 4 6 6 358 4 358 358 1 9 2 7"
)
R1C5 = 4  # the cell of the case's step, r1c5<>5


def _state() -> CandidateState:
    return CandidateState.from_candidates(PENCILMARKS)


def _seeds(state: CandidateState) -> list[int]:
    """Every on and off node of the open cells with two candidates or more."""
    n = state.n
    off = state.shape.ncells * n
    out = []
    for cell, m in enumerate(state.cand):
        if m & (m - 1):
            for k in range(n):
                if m >> k & 1:
                    out += [cell * n + k, off + cell * n + k]
    return out


def _closure(state: CandidateState) -> Closure:
    return Closure(state.shape, state.cand, state.placed)


def _holds(facts: int, node: int, n: int, ncells: int) -> bool:
    """Whether a packed end state holds `node`."""
    off = ncells * n
    cell, k = divmod(node % off, n)
    i = k if node < off else n + k
    return bool(facts >> (i * ncells + cell) & 1)


def test_end_from_a_held_branch_is_the_plain_end():
    state = _state()
    closure = _closure(state)
    n, ncells = state.n, state.shape.ncells
    plain = {x: closure.end(x)[0] for x in _seeds(state)}
    tried = 0
    for x, facts in plain.items():
        if facts is None:
            continue
        for y, other in plain.items():
            # y's branch holds x: started from x's end state, it ends where it does alone
            if other is not None and y != x and _holds(other, x, n, ncells):
                assert closure.end(y, base=facts)[0] == other
                tried += 1
    assert tried


def test_end_from_a_held_branch_finds_the_contradiction():
    state = _state()
    closure = _closure(state)
    plain = {x: closure.end(x)[0] for x in _seeds(state)}
    reach = static_graph(state).reach
    found = 0
    for x, other in plain.items():
        if other is not None:
            continue
        for y, facts in plain.items():
            # x's branch ends in a contradiction and reaches y by static links
            if facts is not None and y != x and reach[x] >> y & 1:
                assert closure.end(x, base=facts)[0] is None
                found += 1
    assert found


def test_changed_mask_refuses_a_grid_with_more_candidates():
    state = _state()
    shape = state.shape
    old = state.cand[:]
    grown = old[:]
    grown[R1C5] |= 1 << 8  # r1c5 takes 9 too
    assert changed_mask(shape, old, state.placed, grown, state.placed) is None
    assert changed_mask(shape, old, state.placed, old, state.placed) == 0
    unit = next(u for u, digits in enumerate(state.placed) if digits)
    fewer = state.placed[:]
    fewer[unit] = 0  # a unit loses its placed digits
    assert changed_mask(shape, old, state.placed, old, fewer) is None


@pytest.mark.parametrize("change", ["eliminate", "place"])
def test_ends_untouched_by_a_change_carry_over(change):
    state = _state()
    before = _closure(state)
    ends = {x: before.end(x) for x in _seeds(state)}
    cand, placed = state.cand[:], state.placed[:]
    if change == "eliminate":
        state.eliminate(R1C5, 5)  # the case's step
    else:
        state.place(R1C5, 8)  # a digit r1c5 takes (its peers lose 8)
    assert not state.contradiction
    changed = changed_mask(state.shape, cand, placed, state.cand, state.placed)
    assert changed
    after = _closure(state)
    carried = stale = 0
    for x, (facts, held) in ends.items():
        cell, k = divmod(x % before.off, state.n)
        if not state.cand[cell] >> k & 1:
            assert held & changed  # the seed itself is gone
            continue
        if held & changed:
            stale += 1
            continue
        carried += 1
        assert after.end(x)[0] == facts
    assert carried
    assert stale


def test_end_states_carried_from_the_grid_before_are_fresh_ones():
    state = _state()
    assert carry.carried_ends(state, True) == ({}, 0, None)  # a new state's memo holds none
    carry.end_states(state, Context(state), True)
    assert carry.carried_ends(state, True)[0]  # the pass is kept in the state's memo
    state.eliminate(R1C5, 5)
    ctx = Context(state)
    end_state = carry.end_states(state, ctx, True)
    carried = {x: end_state(x) for x in _seeds(state)}
    fresh_state = _state()
    fresh_state.eliminate(R1C5, 5)
    assert carry.carried_ends(fresh_state, True) == ({}, 0, None)  # another puzzle's memo
    fresh = carry.end_states(fresh_state, Context(fresh_state), True)
    closure = _closure(state)
    for x, facts in carried.items():
        assert facts == fresh(x) == closure.end(x)[0]
    # branches that followed other rules (nishio's, without the cell rules) carry nothing over
    assert carry.carried_ends(fresh_state, True)[0]
    assert carry.carried_ends(fresh_state, False) == ({}, 0, None)
    # nor does a grid this one cannot have come from
    last_grid, _ = carry.last_pass(state)
    last_grid["grid"] = (True, [1] * 81, [0] * 27)
    assert carry.carried_ends(state, True) == ({}, 0, None)


def test_largest_end_state():
    ends = {3: (0b111, 0b111), 5: (0b1, 0b1), 7: (0b1111, 0b1111)}
    assert carry.largest_end(1 << 3 | 1 << 5, ends) == 0b111
    assert carry.largest_end(1 << 3 | 1 << 7, ends) == 0b1111
    assert carry.largest_end(0, ends) == 0


def _since(state: CandidateState, cand: list[int], placed: list[int]) -> tuple[int, list[int]]:
    found = since(state.shape, cand, placed, state.cand, state.placed, state.values)
    assert found is not None
    return found


def _after_steps(state: CandidateState, ends: dict, cand: list[int], placed: list[int]) -> set:
    """Every seed's `end_since` on `state` (no singles) is its plain `end`; returns which
    (ended in a contradiction before, ends in one now) pairs occurred."""
    assert carry.no_singles(state)
    clash, lost = _since(state, cand, placed)
    after = _closure(state)
    kinds = set()
    for x in _seeds(state):
        facts, held = after.end_since(ends[x], clash, lost)
        assert facts == after.end(x)[0]
        assert held == (-1 if facts is None else facts)
        kinds.add((ends[x] is None, facts is None))
    return kinds


def test_ends_after_steps_on_a_grid_without_singles():
    state = _state()
    before = _closure(state)
    ends = {x: before.end(x)[0] for x in _seeds(state)}
    cand, placed = state.cand[:], state.placed[:]
    state.eliminate(R1C5, 5)
    clash, lost = _since(state, cand, placed)
    assert lost[4] == 1 << R1C5
    assert clash == 1 << (4 * state.shape.ncells + R1C5)  # on(r1c5, 5) clashes
    kinds = _after_steps(state, ends, cand, placed)
    assert (False, False) in kinds  # an end state followed further
    assert (True, True) in kinds  # a contradiction kept


def test_a_removed_candidate_a_branch_held_on_is_a_contradiction():
    # (not a step the engine would take: any removal keeps the rules' monotony)
    start = _state()
    before = _closure(start)
    ends = {x: before.end(x)[0] for x in _seeds(start)}
    n = start.n
    for cell, m in enumerate(start.cand):
        for k in range(n):
            held = any(
                f is not None and f >> (k * start.shape.ncells + cell) & 1 for f in ends.values()
            )
            if m.bit_count() < 3 or not m >> k & 1 or not held:
                continue
            state = _state()
            state.eliminate(cell, k + 1)
            if carry.no_singles(state):
                assert (False, True) in _after_steps(state, ends, start.cand, start.placed)
                return
    raise AssertionError("no such candidate")


def test_a_placement_clashes_with_its_off_fact():
    state = _state()
    cand, placed = state.cand[:], state.placed[:]
    state.place(R1C5, 8)
    ncells = state.shape.ncells
    clash, lost = _since(state, cand, placed)
    assert clash >> ((9 + 7) * ncells + R1C5) & 1  # off(r1c5, 8)
    assert not clash >> (7 * ncells + R1C5) & 1  # on(r1c5, 8) holds
    assert clash >> (1 * ncells + R1C5) & 1  # on(r1c5, 2) cannot
    assert not lost[7] >> R1C5 & 1
    assert lost[1] >> R1C5 & 1


def test_since_refuses_what_steps_cannot_do():
    state = _state()
    cand, placed = state.cand[:], state.placed[:]
    shape, values = state.shape, state.values
    assert since(shape, cand, placed, cand, placed, values) == (0, [0] * 9)
    grown = cand[:]
    grown[R1C5] |= 1 << 8
    assert since(shape, cand, placed, grown, placed, values) is None  # a candidate added
    other = placed[:]
    other[0] |= 1 << 0  # row 1 gains a 1 no placement put there
    assert since(shape, cand, placed, cand, other, values) is None
    state.place(R1C5, 8)
    wrong = cand[:]
    wrong[R1C5] &= ~(1 << 7)  # r1c5 placed 8, not a candidate before
    assert since(shape, wrong, placed, state.cand, state.placed, values) is None
    assert since(shape, cand, placed, state.cand, state.placed, values) is not None


def test_singles_stop_the_steps_shortcut():
    state = _state()
    assert carry.no_singles(state)
    carry.last_pass(state)[0]["grid"] = (True, state.cand[:], state.placed[:])
    cell = next(c for c, m in enumerate(state.cand) if m.bit_count() == 2)
    state.eliminate(cell, state.cand[cell].bit_length())  # a naked single now
    assert not carry.no_singles(state)
    ends, changed, steps = carry.carried_ends(state, True)
    assert changed
    assert steps is None
