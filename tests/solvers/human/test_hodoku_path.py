"""The HoDoKu figures: the second pass in HoDoKu's order, its singles queues and finders.

The pinned scores and levels are HoDoKu's own for these puzzles (HoDoKu 2.2 through
hodoku-py); each puzzle's path uses the HoDoKu step named beside it.  With hodoku-py
installed, one test also asks it directly.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import corpora
import solvers
from solvers.grid import Grid
from solvers.human import CandidateState, rate
from solvers.human.hodoku_finders import locked_subset, naked_subset, remote_pair
from solvers.human.hodoku_path import ORDER, Queues, hodoku_path, pass_steps
from solvers.human.table import BY_NAME

# (corpus, line, the HoDoKu step the path shows, HoDoKu's score, HoDoKu's level)
PINNED = [
    ("gen9-easy", 4, "Hidden Single", 384, "Easy"),
    ("gen9-hard", 5, "Locked Pair", 728, "Hard"),
    ("gen9-hard", 6, "Remote Pair", 656, "Hard"),
    ("gen9-hard", 11, "W-Wing", 748, "Hard"),
    ("gen9-hard", 19, "BUG+1", 1244, "Hard"),
    ("gen9-hard", 63, "Empty Rectangle", 1464, "Hard"),
    ("gen9-unfair", 6, "Finned X-Wing", 1068, "Hard"),
    ("gen9-unfair", 7, "XY-Chain", 1230, "Unfair"),
    ("gen9-unfair", 20, "X-Chain", 774, "Unfair"),
    ("gen9-unfair", 25, "Sue de Coq", 1138, "Unfair"),
    ("gen9-extreme", 10, "Nice Loop/AIC", 1486, "Unfair"),
    ("gen9-extreme", 11, "Nice Loop/AIC", 1540, "Unfair"),
]


def solve_grid(grid: Grid) -> Grid:
    result = solvers.get("dlx").solve(grid, limit=2)
    assert result.unique
    assert result.solution is not None
    return result.solution


def puzzle(corpus: str, line: int) -> str:
    path = Path(corpora.__file__).parent / "data" / f"{corpus}.txt"
    return path.read_text(encoding="utf-8").splitlines()[line - 1]


@pytest.mark.parametrize(
    ("corpus", "line", "kind", "score", "level"), PINNED, ids=[f"{p[0]}:{p[1]}" for p in PINNED]
)
def test_hodokus_score_and_level(corpus, line, kind, score, level):
    text = puzzle(corpus, line)
    grid = Grid.parse(text)
    path = hodoku_path(grid, solution=solve_grid(grid))  # every step checked, too
    assert path.solved
    assert kind in path.counts
    assert path.score == score
    rating = rate(text)
    assert (rating.score, rating.level) == (score, level)


def test_the_easy_puzzle_scores_its_singles_by_kind():
    path = hodoku_path(Grid.parse(puzzle("gen9-easy", 4)))
    assert set(path.counts) <= {"Full House", "Naked Single", "Hidden Single"}
    expected = 4 * path.counts.get("Full House", 0) + 4 * path.counts.get("Naked Single", 0)
    assert path.score == expected + 14 * path.counts["Hidden Single"]


def test_against_hodoku_itself():
    hodoku = pytest.importorskip("hodoku")
    for corpus, line, *_ in PINNED:
        text = puzzle(corpus, line)
        theirs = hodoku.Solver().solve(text)
        assert hodoku_path(Grid.parse(text)).score == theirs.score


def test_the_queues_keep_the_order_candidates_went_in():
    grid = Grid.parse(puzzle("gen9-easy", 4))
    queues = Queues(grid)
    state = CandidateState.from_grid(grid)
    # every queued naked single is one, and they come oldest first
    assert queues.naked
    for cell, digit in queues.naked:
        assert state.candidates(cell) == 1 << (digit - 1)
    first = queues.naked[0]
    assert queues.naked_single() == first
    assert first not in queues.naked
    # a hidden single's cell is the only place of its digit in one of its units
    cell, digit = queues.hidden_single() or (None, None)
    assert cell is not None
    assert any(state.positions(u, digit) == [cell] for u in grid.shape.cell_units[cell])


def test_a_pair_clearing_only_its_box_is_a_naked_pair_for_hodoku():
    # r6c7 and r6c9 hold the same two digits; only their box has something to clear.
    # The engine calls that a locked pair, HoDoKu a naked pair.
    text = "........7..2.9.8..8...2763..9....1.56........4319.6.....4.8..........74..1..7...6"
    state = CandidateState.from_grid(Grid.parse(text))
    engine = BY_NAME["locked_pair"].find(state)
    assert engine is not None
    assert engine.cells == (51, 53)
    assert locked_subset(state, 2) is None
    naked = naked_subset(state, 2)
    assert naked is not None
    assert naked.technique == "naked_pair"
    assert set(naked.eliminations) == set(engine.eliminations)


def test_a_remote_pair_needs_four_cells():
    # the corners r1c1, r1c9, r9c9, r9c1 hold 1 and 2 only and see each other around the
    # ring, so they alternate: every cell seeing two neighbouring corners loses 1 and 2
    corners = (0, 8, 80, 72)
    marks = ["123456789"] * 81
    for corner in corners:
        marks[corner] = "12"
    step = remote_pair(CandidateState.from_candidates(" ".join(marks)))
    assert step is not None
    assert step.cells == (0, 8, 72, 80)
    edge = {c for c in range(81) if c // 9 in (0, 8) or c % 9 in (0, 8)} - set(corners)
    assert set(step.eliminations) == {(c, d) for c in edge for d in (1, 2)}
    for corner in corners[:3]:
        marks[corner] = "123456789"
    marks[8] = "12"
    assert remote_pair(CandidateState.from_candidates(" ".join(marks))) is None  # 2 cells


def test_the_pass_follows_the_configuration():
    names = [name for _, name, _ in pass_steps("tier1")]
    assert "x_wing" not in names
    assert "remote_pair" not in names
    assert names[:3] == ["full_house", "naked_single", "hidden_single"]
    default = [name for _, name, _ in pass_steps(None)]
    assert "finned_x_wing" in default  # HoDoKu uses it by default, the engine does not
    assert "remote_pair" in default
    assert "direct_pointing" not in default
    order = [kind.index for kind, _, _ in pass_steps(None)]
    assert order == sorted(order)
    assert [s.index for s in ORDER] == sorted(s.index for s in ORDER)


def test_a_stuck_configuration_scores_what_its_pass_did():
    text = puzzle("gen9-unfair", 20)
    path = hodoku_path(Grid.parse(text), "singles")
    assert not path.solved
    assert set(path.counts) <= {"Full House", "Naked Single", "Hidden Single"}
    assert rate(text, "singles").score == path.score


def test_the_technique_table_gives_hodokus_score_and_level():
    # the table's HoDoKu columns are those of the HoDoKu step each technique stands for
    for step in ORDER:
        for name in step.finders:
            if name in BY_NAME:
                t = BY_NAME[name]
                assert (t.score, t.level) == (step.score, step.level), name
