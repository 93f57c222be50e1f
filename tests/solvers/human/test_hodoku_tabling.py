"""HoDoKu's forcing chains and nets (Trebor's tables) and brute force in the HoDoKu pass.

The pinned scores and levels are HoDoKu's own (HoDoKu 2.2 through hodoku-py); the
two hard puzzles come from the enjoysudoku forum's list of hardest puzzles.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import corpora
import solvers
from solvers.grid import Grid, shape
from solvers.human import CandidateState, hodoku_tabling
from solvers.human.engine import check_step
from solvers.human.hodoku_path import BruteForce, hodoku_path, only_solution, pass_steps
from solvers.human.hodoku_tabling import (
    Tables,
    bits,
    compiled_conclusion,
    compiled_fits,
    forcing_chain,
    forcing_net,
    table_conclusion,
)

FORUM_NET = "1...5.7....7..9.3..8...7....4..1........6...29....51....4.....87..5..6...3.....2."
FORUM_GUESS = "12..5...9.57...2...9..2..1....8..9.47...6.1.......4............57..9.6....6..3..."
FORUM_CHAINS = "1.......2.2.....6...34..5.....8.5.....8.3.9.....9.4.....5..34...7.....1.6.......7"


def extreme(line: int) -> str:
    path = Path(corpora.__file__).parent / "data" / "gen9-extreme.txt"
    return path.read_text(encoding="utf-8").splitlines()[line - 1]


def solution_of(grid: Grid) -> Grid:
    result = solvers.get("dlx").solve(grid, limit=2)
    assert result.unique
    assert result.solution is not None
    return result.solution


# (puzzle, the HoDoKu steps its path shows, HoDoKu's score)
PINNED = [
    (extreme(55), {"Forcing Chain": 1}, 4520),
    (FORUM_NET, {"Forcing Net": 1, "Brute Force": 2}, 22638),
    (FORUM_GUESS, {"Brute Force": 1}, 11118),
]


@pytest.mark.parametrize(("text", "kinds", "score"), PINNED, ids=["extreme55", "net", "guess"])
def test_hodokus_score_with_forcing_steps_and_brute_force(text, kinds, score):
    grid = Grid.parse(text)
    path = hodoku_path(grid, solution=solution_of(grid))  # every step checked
    assert path.solved
    assert {k: path.counts.get(k, 0) for k in kinds} == kinds
    assert path.score == score
    assert path.levels >= {"Extreme"}


def test_the_pass_finds_the_solution_for_brute_force_itself():
    grid = Grid.parse(FORUM_GUESS)
    assert hodoku_path(grid).score == hodoku_path(grid, solution=solution_of(grid)).score


def stuck_state(text: str) -> tuple[CandidateState, Grid]:
    """The first state of the HoDoKu pass where no technique before the forcing chains
    finds a step and a forcing chain or net does (brute force taken where neither does)."""
    grid = Grid.parse(text)
    solution = solution_of(grid)
    state = CandidateState.from_grid(grid)
    finders = [find for kind, _, find in pass_steps(None) if kind.index < 8500]
    guess = BruteForce(solution)
    while True:
        step = next((s for f in finders if (s := f(state)) is not None), None)
        if step is None:
            if forcing_chain(state) or forcing_net(state):
                return state, solution
            step = guess.find(state)
            assert step is not None
        for cell, digit in step.placements:
            state.place(cell, digit)
        for cell, digit in step.eliminations:
            state.eliminate(cell, digit)


def test_forcing_chains_and_nets_are_sound_and_deterministic():
    state, solution = stuck_state(FORUM_CHAINS)
    assert not state.solved
    found = 0
    for find in (forcing_chain, forcing_net):
        step = find(state)
        if step is None:
            continue
        found += 1
        check_step(step, solution)
        assert find(state.copy()) == step
        assert len(step.placements) + len(step.eliminations) == 1
    assert found  # a net concludes at least what a chain does


def test_the_closure_is_every_literal_reachable():
    """Tarjan's closure against a plain search of the direct implications."""
    state, _ = stuck_state(FORUM_CHAINS)
    for nets in (False, True):
        tables = Tables(state, nets)
        reach = tables.closures()
        for literal in tables.literals[::7]:
            seen = 1 << literal
            frontier = [literal]
            while frontier:
                new = 0
                for v in frontier:
                    new |= tables.succ[v]
                new &= ~seen
                seen |= new
                frontier = list(bits(new))
            assert reach[literal] == seen


def test_a_chain_table_holds_the_direct_links():
    state = CandidateState.from_candidates("1 24 34 234  3 14 14 2  24 124 124 3  4 134 2 14")
    tables = Tables(state, False)
    N, OFF = tables.N, tables.off

    def on(cell: int, digit: int) -> int:
        return (digit - 1) * N + cell

    def off(cell: int, digit: int) -> int:
        return OFF + on(cell, digit)

    # cell 1 takes 2 or 4: 2 off puts 4 on; 2 on puts 4 off there and 2 off in cell 9
    assert tables.succ[off(1, 2)] >> on(1, 4) & 1
    assert tables.succ[on(1, 2)] >> off(1, 4) & 1
    assert tables.succ[on(1, 2)] >> off(9, 2) & 1
    assert not tables.succ[on(1, 2)] >> off(2, 3) & 1


def test_brute_force_places_the_solutions_digit_in_the_middle_open_cell():
    grid = Grid.parse(FORUM_GUESS)
    solution = solution_of(grid)
    state = CandidateState.from_grid(grid)
    step = BruteForce(solution).find(state)
    open_cells = [c for c, v in enumerate(state.values) if not v]
    middle = open_cells[len(open_cells) // 2]
    assert step is not None
    assert step.placements == ((middle, solution.cells[middle]),)


def pass_states(text: str, limit: int = 40) -> list[CandidateState]:
    """States along the HoDoKu pass of a puzzle, up to `limit` of them."""
    grid = Grid.parse(text)
    guess = BruteForce(solution_of(grid))
    finders = [find for kind, _, find in pass_steps(None) if kind.name != "Brute Force"]
    state = CandidateState.from_grid(grid)
    out = []
    while not state.solved and len(out) < limit:
        out.append(state.copy())
        step = next((s for f in finders if (s := f(state)) is not None), None) or guess.find(state)
        assert step is not None
        for cell, digit in step.placements:
            state.place(cell, digit)
        for cell, digit in step.eliminations:
            state.eliminate(cell, digit)
    return out


@pytest.mark.parametrize("text", [FORUM_CHAINS, FORUM_NET])
def test_the_compiled_tables_pick_as_the_python_ones(text):
    pytest.importorskip("numba")
    states = pass_states(text)
    assert states
    assert all(compiled_fits(s.shape) for s in states)
    for state in states:
        for nets in (False, True):
            assert compiled_conclusion(state, nets) == table_conclusion(state, nets)


def test_without_numba_the_tables_run_in_python(monkeypatch):
    state, _ = stuck_state(FORUM_CHAINS)
    compiled = forcing_chain(state), forcing_net(state)
    monkeypatch.setattr(hodoku_tabling, "COMPILED", False)
    assert not compiled_fits(state.shape)
    assert (forcing_chain(state), forcing_net(state)) == compiled


def test_grids_beyond_the_kernel_run_in_python():
    assert not compiled_fits(shape(4, 4))
    assert not compiled_fits(shape(2, 4))


def test_brute_force_takes_the_compiled_solution_only_when_it_is_the_only_one():
    pytest.importorskip("numba")
    grid = Grid.parse(FORUM_GUESS)
    assert only_solution(grid) == solution_of(grid)
    two = Grid.parse("." * 81)  # many solutions: brute force asks dlx for its first
    assert only_solution(two) is None
