"""Ratings: the defined results, the scales (ER/EP/ED, score and level, class), the config."""

from __future__ import annotations

import pytest

from solvers.grid import Grid
from solvers.human import ENGINE, VERSION, CandidateState, propagate, rate
from solvers.human.rating import level_for

# The puzzles come from the project's generated corpora (corpora/data/*.txt).
# corpora/data/gen9-easy.txt line 114
SIMPLE = "7.31...6.1....8..9.96....48......68..7....5....5.62.3.4..28....5.........175....."
# corpora/data/gen9-easy.txt line 4
EASY = "8....5.67.......4.......85..34..6...75...8...9......2..4.8..3.1...4...8.6.9.2.4.."
# corpora/data/gen9-medium.txt line 4
INTERMEDIATE = "...3.......5...16.7.2..8..9.3.2............4.....89.7.8..95...7.2....4......149.."
# corpora/data/gen9-minimal.txt line 60
EXPERT = "..7.6......812.6.4..39.....4......8...57.13..1.....2...6...7.3.........8.....27.5"
# corpora/data/gen9-extreme.txt line 50
STUCK = "5.....4.2..9.6785.......76....49..2.8....1.4.......3..2.8..5.3..94....7...5..4..6"


@pytest.mark.parametrize(
    ("puzzle", "category"),
    [(SIMPLE, "Simple"), (EASY, "Easy"), (INTERMEDIATE, "Intermediate"), (EXPERT, "Expert")],
)
def test_four_classes(puzzle, category):
    rating = rate(puzzle)
    assert rating.category == category
    assert rating.solved_by_logic
    assert rating.status == "solved"


def test_an_expert_puzzle_under_the_first_tier_is_stuck():
    rating = rate(EXPERT, "tier1")
    assert (rating.status, rating.solved_by_logic) == ("stuck", False)
    assert (rating.level, rating.category) == ("Extreme", "Expert")
    assert rating.open_cells > 0
    assert rating.config == "tier1"


def test_an_already_solved_grid():
    rating = rate("1234341221434321")
    assert (rating.status, rating.solved_by_logic) == ("solved", True)
    assert (rating.er, rating.ep, rating.ed, rating.score) == (0.0, 0.0, 0.0, 0)
    assert (rating.level, rating.category, rating.steps) == ("Easy", "Simple", 0)


def test_an_invalid_grid():
    rating = rate("11.. .... .... ....")
    assert (rating.status, rating.solved_by_logic) == ("invalid", False)
    assert (rating.level, rating.category) == (None, None)


def test_a_grid_without_solution():
    rating = rate(".12345678" + "9" + "." * 71)
    assert rating.status == "contradiction"
    assert (rating.level, rating.category, rating.solved_by_logic) == (None, None, False)


def test_stuck_puzzle_keeps_the_ratings_of_the_steps_taken():
    rating = rate(STUCK, "classic")
    assert rating.status == "stuck"
    assert rating.er == 5.5  # three strong links mixing rows and columns
    assert rating.hardest == "three_strong_links"
    assert rating.counts == {
        "hidden_single": 7,
        "pointing": 1,
        "claiming": 1,
        "hidden_pair": 1,
        "three_strong_links": 1,
    }


def test_er_ep_ed():
    rating = rate(EXPERT)
    assert rating.er == 3.2
    assert rating.hardest == "x_wing"
    assert rating.er >= rating.ep >= rating.ed
    assert rating.ed == 1.2  # the first step is a hidden single in a box


def test_ep_is_the_hardest_step_up_to_the_first_placement():
    # From a state where only eliminations come first.
    result = propagate(CandidateState.from_grid(Grid.parse(STUCK)), "classic")
    first_placement = next(i for i, s in enumerate(result.steps) if s.placements)
    expected = max(s.rating for s in result.steps[: first_placement + 1])
    assert rate(STUCK, "classic").ep == expected


def test_level_thresholds():
    assert level_for(800, "Easy") == "Easy"
    assert level_for(801, "Easy") == "Medium"
    assert level_for(1001, "Easy") == "Hard"
    assert level_for(1601, "Medium") == "Unfair"
    assert level_for(1801, "Easy") == "Extreme"
    assert level_for(100, "Hard") == "Hard"
    assert level_for(10**6, "Extreme") == "Extreme"


def test_engine_version_and_config_are_part_of_the_rating():
    rating = rate(EASY, "tier1")
    assert rating.engine == ENGINE
    assert VERSION in rating.engine
    assert rating.config == "tier1"
    data = rating.as_dict()
    assert data["class"] == rating.category
    assert "category" not in data
    assert (
        rate(EASY, "singles+naked_pair").config
        == "full_house+hidden_single+naked_single+naked_pair"
    )


def test_rate_accepts_text_or_grid():
    assert rate(EASY) == rate(Grid.parse(EASY))


def test_class_asks_whether_the_first_tier_alone_finishes():
    # With every technique the engine meets an X-Wing (ordered before the hidden
    # pair), but the first tier finishes the puzzle with the hidden pair.
    # corpora/data/gen9-hard.txt line 20
    puzzle = ".......963....7.8....4.5...8......2.5....6..3..9.....44.58.39.71..6...3..8.2....."
    rating = rate(puzzle)
    assert "x_wing" in rating.counts
    assert rating.category == "Intermediate"
    assert rate(puzzle, "tier1").category == "Intermediate"
