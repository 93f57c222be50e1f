"""Finned and sashimi fish, multi-colouring and 3D Medusa (the group 'extended'): each
fires on a hand-made candidate grid with its exact eliminations, keeps quiet where it
does not apply, explains itself, and stays sound on generated puzzles of other sizes."""

from __future__ import annotations

import json

import pytest

from solvers.human import CandidateState, propagate
from solvers.human.table import BY_NAME, GROUPS
from solvers.human.trace import compact, record


def _cell(name: str) -> int:
    r, c = name[1:].split("c")
    return (int(r) - 1) * 9 + int(c) - 1


def digit_grid(places: str, digit: int = 1) -> str:
    """A 9x9 candidate grid where `digit` lies only in the named cells (space-separated)
    and every cell takes the other eight digits."""
    where = {_cell(name) for name in places.split()}
    others = "".join(str(d) for d in range(1, 10) if d != digit)
    return " ".join(others + (str(digit) if c in where else "") for c in range(81))


def transposed(grid: str) -> str:
    tokens = grid.split()
    return " ".join(tokens[c * 9 + r] for r in range(9) for c in range(9))


def step_of(name: str, grid: str):
    return BY_NAME[name].find(CandidateState.from_candidates(grid))


# the other rows hold 1 everywhere: too many places to be base lines
FULL_ROWS = {r: " ".join(f"r{r}c{c}" for c in range(1, 10)) for r in range(1, 10)}


def rows_grid(base: dict[int, str]) -> str:
    """Digit 1 in the given places of the base rows, and everywhere in the other rows."""
    return digit_grid(" ".join(base.get(r, FULL_ROWS[r]) for r in range(1, 10)))


# rows 1 and 5 cover columns 2 and 8 but for the fin r1c9 (box 3)
FINNED_X = rows_grid({1: "r1c2 r1c8 r1c9", 5: "r5c2 r5c8"})
# row 1 misses its corner r1c8: fins r1c7 and r1c9
SASHIMI_X = rows_grid({1: "r1c2 r1c7 r1c9", 5: "r5c2 r5c8"})
# the fin r1c5 lies in box 2, which no cover column crosses
FIN_ELSEWHERE = rows_grid({1: "r1c2 r1c5 r1c8", 5: "r5c2 r5c8"})
# rows 1, 4, 7 cover columns 1, 5, 9 but for the fin r7c8 (box 9)
FINNED_SWORD = rows_grid({1: "r1c1 r1c5", 4: "r4c5 r4c9", 7: "r7c1 r7c8 r7c9"})
SASHIMI_SWORD = rows_grid({1: "r1c1 r1c5", 4: "r4c5 r4c9", 7: "r7c1 r7c7 r7c8"})
# rows 1, 3, 5, 8 cover columns 1, 4, 7, 8 but for the fin r8c2 (box 7)
FINNED_JELLY = rows_grid({1: "r1c1 r1c4", 3: "r3c4 r3c7", 5: "r5c7 r5c8", 8: "r8c1 r8c2 r8c8"})
SASHIMI_JELLY = rows_grid({1: "r1c1 r1c4", 3: "r3c4 r3c7", 5: "r5c7 r5c8", 8: "r8c2 r8c3 r8c8"})

FISH = [
    ("finned_x_wing", FINNED_X, "r2c8<>1 r3c8<>1", "fin r1c9", "rows 1, 5 (columns 2, 8)"),
    ("sashimi_x_wing", SASHIMI_X, "r2c8<>1 r3c8<>1", "fins r1c7, r1c9", "rows 1, 5"),
    ("finned_swordfish", FINNED_SWORD, "r8c9<>1 r9c9<>1", "fin r7c8", "columns 1, 5, 9"),
    ("sashimi_swordfish", SASHIMI_SWORD, "r8c9<>1 r9c9<>1", "fins r7c7, r7c8", "rows 1, 4, 7"),
    ("finned_jellyfish", FINNED_JELLY, "r7c1<>1 r9c1<>1", "fin r8c2", "rows 1, 3, 5, 8"),
    ("sashimi_jellyfish", SASHIMI_JELLY, "r7c1<>1 r9c1<>1", "fins r8c2, r8c3", "rows 1, 3, 5, 8"),
]


@pytest.mark.parametrize(("name", "grid", "expected", "fins", "lines"), FISH)
def test_finned_fish_fires_with_exact_eliminations(name, grid, expected, fins, lines):
    step = step_of(name, grid)
    assert step is not None
    assert step.technique == name
    assert compact(step) == expected
    assert step.rating == BY_NAME[name].se
    assert fins in str(step)
    assert lines in str(step)


@pytest.mark.parametrize(("name", "grid", "expected", "fins", "lines"), FISH)
def test_finned_fish_with_columns_as_base(name, grid, expected, fins, lines):
    step = step_of(name, transposed(grid))
    assert step is not None
    swap = {c: (c % 9) * 9 + c // 9 for c in range(81)}
    original = step_of(name, grid)
    assert sorted((swap[c], d) for c, d in step.eliminations) == sorted(original.eliminations)
    assert "columns" in str(step).split(" with ")[0].split(" in ")[1]


def test_finned_and_sashimi_fish_keep_apart():
    assert step_of("finned_x_wing", SASHIMI_X) is None
    assert step_of("sashimi_x_wing", FINNED_X) is None
    assert step_of("finned_swordfish", SASHIMI_SWORD) is None
    assert step_of("sashimi_jellyfish", FINNED_JELLY) is None


def test_finned_fish_quiet_where_it_does_not_apply():
    # the fin's box holds no cover cell: nothing sees the fin and lies in a cover line
    assert step_of("finned_x_wing", FIN_ELSEWHERE) is None
    # a basic X-Wing, no fin
    assert step_of("finned_x_wing", rows_grid({1: "r1c2 r1c8", 5: "r5c2 r5c8"})) is None
    # two places outside the cover and outside one box
    assert step_of("finned_x_wing", rows_grid({1: "r1c2 r1c5 r1c8 r1c9", 5: "r5c2 r5c8"})) is None


def test_techniques_off_by_default_are_in_the_extended_group_only():
    names = [n for n in BY_NAME if n.startswith(("finned_", "sashimi_"))]
    names += ["multi_colouring", "medusa_3d"]
    assert len(names) == 8
    for name in names:
        assert not BY_NAME[name].enabled
        assert name in GROUPS["extended"]
        assert name not in GROUPS["all"]


def lines_grid(rows: dict[int, set[int]], cols: dict[int, set[int]]) -> str:
    """Digit 1 everywhere but where the given rows and columns restrict it (to columns and
    rows, respectively)."""
    places = [
        f"r{r}c{c}"
        for r in range(1, 10)
        for c in range(1, 10)
        if (r not in rows or c in rows[r]) and (c not in cols or r in cols[c])
    ]
    return digit_grid(" ".join(places))


# cluster r1c1=r1c5=r4c5 (colours {r1c1, r4c5} / {r1c5}) and cluster r2c6=r2c3=r8c3
# ({r2c3} / {r2c6, r8c3}); r1c1 sees r2c3 and r1c5 sees r2c6, so r1c5 or r2c6, and
# r1c1/r4c5 or r2c3, is true: r3c4 sees r1c5 and r2c6, r3c1 and r3c2 see r1c1 and r2c3
MULTI_TRAP = digit_grid(
    "r1c1 r1c5 r4c5 r2c3 r2c6 r8c3 r3c1 r3c2 r3c4 r3c7 r3c8 r3c9 r4c7 r4c8 r5c1 r5c2 r5c4 "
    "r5c6 r5c7 r5c8 r5c9 r6c1 r6c2 r6c4 r6c6 r6c7 r6c8 r6c9 r7c1 r7c2 r7c4 r7c6 r7c7 r7c8 "
    "r7c9 r8c1 r8c7 r8c8 r9c1 r9c2 r9c4 r9c6 r9c8 r9c9"
)
# cluster r1c1=r1c5=r4c5 and cluster r2c2=r2c7=r5c7=r5c4: r1c1 sees r2c2 and r4c5 sees
# r5c4, of the other cluster's two colours, so r1c1 and r4c5 are not 1
MULTI_WRAP = lines_grid({1: {1, 5}, 2: {2, 7}, 5: {4, 7}}, {5: {1, 4}, 7: {2, 5}})


def test_multi_colouring_trap():
    assert step_of("simple_colouring", MULTI_TRAP) is None
    step = step_of("multi_colouring", MULTI_TRAP)
    assert step is not None
    assert compact(step) == "r3c1<>1 r3c2<>1 r3c4<>1"
    assert step.rating == BY_NAME["multi_colouring"].se
    assert "Multi-colouring on 1 (colour trap" in str(step)


def test_multi_colouring_wrap():
    assert step_of("simple_colouring", MULTI_WRAP) is None
    step = step_of("multi_colouring", MULTI_WRAP)
    assert step is not None
    assert compact(step) == "r1c1<>1 r4c5<>1"
    assert "colour wrap" in str(step)


def test_multi_colouring_quiet_where_it_does_not_apply():
    # one cluster only (row 2 no longer a strong link): simple colouring's business
    assert step_of("multi_colouring", lines_grid({1: {1, 5}}, {5: {1, 4}})) is None
    # two clusters that never see each other
    assert step_of("multi_colouring", lines_grid({1: {1, 5}, 9: {4, 8}}, {5: {1, 4}})) is None


def medusa_grid(special: dict[str, str], digits: str = "12", extra: str = "") -> str:
    """Digits 4 to 9 everywhere; 1 off row 1 and column 9, 2 off column 1 (and off row 9
    when 3 is not in `digits`), 3 off row 9; `special` cells as given."""
    out = []
    for r in range(1, 10):
        for c in range(1, 10):
            name = f"r{r}c{c}"
            if name in special:
                out.append(special[name])
                continue
            token = "456789"
            if (r != 1 and c != 9) or name in extra.split():
                token += "1"
            if c != 1 and ("3" in digits or r != 9):
                token += "2"
            if "3" not in digits or r != 9:
                token += "3"
            out.append("".join(sorted(token)))
    return " ".join(out)


# r1c1 holds 1 or 2; 1 has two places in row 1 (r1c1, r1c9) and column 9 (r1c9, r9c9), 2 in
# column 1 (r1c1, r9c1) and row 9 (r9c1, r9c9): colour A (r1c1=1, r9c1=2, r9c9=1), colour B
# (r1c1=2, r1c9=1, r9c9=2); r9c9 holds both colours, so it holds 1 or 2
MEDUSA_SPECIAL = {"r1c1": "12", "r1c9": "178", "r9c1": "256", "r9c9": "1234"}
MEDUSA_TRAP = medusa_grid(MEDUSA_SPECIAL)
# 1 has a third place in column 9: r9c9=1 is no longer coloured
MEDUSA_QUIET = medusa_grid(MEDUSA_SPECIAL, extra="r5c9")
# r9c1 holds 2 or 3, and 3 has two places in row 9 (r9c1, r9c9): colour A holds r9c9=1 and
# r9c9=3, two digits in one cell, so it is false
MEDUSA_WRAP = medusa_grid(
    {"r1c1": "12", "r1c9": "1789", "r9c1": "23", "r9c9": "1345"}, digits="123"
)


def test_medusa_trap():
    step = step_of("medusa_3d", MEDUSA_TRAP)
    assert step is not None
    assert compact(step) == "r9c9<>3,4"
    assert step.rating == BY_NAME["medusa_3d"].se
    assert str(step).startswith(
        "3D Medusa: colour A (r1c1=1, r9c1=2, r9c9=1) against colour B (r1c1=2, r1c9=1, "
        "r9c9=2); one colour is true"
    )


def test_medusa_wrap():
    step = step_of("medusa_3d", MEDUSA_WRAP)
    assert step is not None
    assert compact(step) == "r1c1<>1 r9c1<>2 r9c9<>1,3"
    assert "colour A is false, as it would put two digits in r9c9" in str(step)


def test_medusa_quiet_where_it_does_not_apply():
    assert step_of("medusa_3d", MEDUSA_QUIET) is None


def test_steps_as_json_records():
    fish = record(step_of("finned_x_wing", FINNED_X))
    assert fish["technique"] == "finned_x_wing"
    assert fish["fins"] == ["r1c9"]
    assert fish["compact"] == "r2c8<>1 r3c8<>1"
    medusa = json.loads(json.dumps(record(step_of("medusa_3d", MEDUSA_TRAP))))
    assert medusa["colours"][0] == [["r1c1", 1], ["r9c1", 2], ["r9c9", 1]]
    assert medusa["eliminations"] == [["r9c9", 3], ["r9c9", 4]]


# a textbook empty rectangle: in box 5, 1 lies only in row 5 and column 5; 1 has two
# places in row 2 (r2c5, r2c8); were r5c8 1, box 5's 1 would be in column 5, and row 2's at
# r2c8, twice in column 8
EMPTY_RECTANGLE = digit_grid(
    " ".join(
        f"r{r}c{c}"
        for r in range(1, 10)
        for c in range(1, 10)
        if not (4 <= r <= 6 and 4 <= c <= 6 and (r, c) not in ((5, 4), (5, 6), (4, 5), (6, 5)))
        and not (r == 2 and c not in (5, 8))
    )
)


def test_grouped_turbot_fish_is_the_empty_rectangle():
    for name in ("turbot_fish", "skyscraper", "two_string_kite"):
        assert step_of(name, EMPTY_RECTANGLE) is None
    step = step_of("grouped_turbot_fish", EMPTY_RECTANGLE)
    assert step is not None
    assert compact(step) == "r5c8<>1"
    assert step.units == (22, 1)  # box 5 (the empty rectangle) and row 2


NEW = [
    n
    for n in GROUPS["extended"]
    if n.startswith(("finned_", "sashimi_")) or n in ("multi_colouring", "medusa_3d")
]


@pytest.mark.parametrize(("name", "limit"), [("gen6", 20), ("gen12", 20), ("gen16", 10)])
def test_sound_on_built_in_puzzles_of_other_sizes(name, limit):
    # few techniques besides them, so that they do much of the work
    import solvers
    from corpora import open_corpus

    config = "+".join(["singles", "locked_candidates", *NEW])
    used = 0
    for i, puzzle in enumerate(open_corpus(name).puzzles()):
        if i == limit:
            break
        solution = solvers.get("dlx").solve(puzzle.grid).solution
        result = propagate(CandidateState.from_grid(puzzle.grid), config, solution=solution)
        assert result.status in ("solved", "stuck"), puzzle.id
        used += sum(result.counts.get(n, 0) for n in NEW)
    if name != "gen6":  # 6x6 puzzles never need them
        assert used > 0
