"""The technique table as data: its lines, its finders, and the chain techniques the
bidirectional cycle competes with."""

from __future__ import annotations

import pytest

from solvers.human.table import BY_NAME, TABLE, TECHNIQUES, parse_table
from solvers.human.techniques import cycle_choice
from solvers.human.techniques.finders import FINDERS

LINE = "naked_pair subsets 1 3.0 60 Medium - Naked pair"


def test_a_line_gives_a_technique_with_its_finder_and_rating():
    (t,) = parse_table(LINE.replace("- Naked", "off,unique Naked"))
    assert (t.name, t.title, t.family, t.tier, t.se, t.score, t.level) == (
        "naked_pair",
        "Naked pair",
        "subsets",
        1,
        3.0,
        60,
        "Medium",
    )
    assert not t.enabled
    assert t.assumes_unique
    assert t.find.keywords == {"k": 2, "rating": 3.0}  # a `Sized` finder, given the rating


@pytest.mark.parametrize(
    "line",
    [
        "naked_pair subsets 1 3.0 60 Medium -",  # no title
        "naked_pair subsets 1 3.0 60 Trivial - Naked pair",  # no such level
        "naked_pair subsets 1 3.0 60 Medium on Naked pair",  # no such flag
        "naked_twin subsets 1 3.0 60 Medium - Naked twin",  # no finder
        f"{LINE}\n{LINE}",  # twice
    ],
)
def test_a_bad_line_is_refused(line):
    with pytest.raises(ValueError, match="technique table line"):
        parse_table(line)


def test_every_finder_has_its_line_in_the_same_order():
    assert [t.name for t in TECHNIQUES] == list(FINDERS)
    assert len(TECHNIQUES) == len([line for line in TABLE.splitlines() if line.strip()])


def test_the_cycle_rivals_are_the_tables_techniques():
    # the cycle finder skips a rival whose steps cannot rate below the best so far, and
    # asks the others through the finders the engine then asks again (remembered)
    for name, se, find in cycle_choice.RIVALS:
        assert BY_NAME[name].se == se
        assert BY_NAME[name].find is find
    assert BY_NAME["forcing_chain"].find is cycle_choice.forcing_chain
    order = list(BY_NAME)
    for name, _, _ in cycle_choice.RIVALS:
        assert order.index(name) > order.index("bidirectional_cycle")
