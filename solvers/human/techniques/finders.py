"""Every technique's finder, by the technique's name.

A finder takes a `CandidateState` and returns the next `Step`, or None.  The
technique table (`solvers.human.table`) gives each technique its ratings and its
place in the engine's order; the finders of subsets and fish of size k (`Sized`)
and of a few variable techniques (`Rated`) take their rating from it
(`with_rating`), so it is written once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from solvers.human.state import CandidateState
from solvers.human.step import Step
from solvers.human.techniques import (
    aligned,
    als,
    als_wings,
    avoidable,
    bug,
    chains,
    colouring,
    cycle_choice,
    direct,
    finned_fish,
    fish,
    forcing,
    grouped_links,
    intersections,
    medusa,
    rectangles,
    rectangles_extra,
    se_ratings,
    singles,
    subsets,
    sue_de_coq,
    uniqueness,
    wings,
)

Finder = Callable[[CandidateState], "Step | None"]


@dataclass(frozen=True)
class Sized:
    """A finder for subsets or fish of size k; the table supplies its rating."""

    find: Callable[..., Step | None]
    k: int


@dataclass(frozen=True)
class Rated:
    """A finder whose steps take the table's rating."""

    find: Callable[..., Step | None]


def _finned(k: int, sashimi: bool) -> Sized:
    """The finder of finned (or sashimi) fish of size k."""
    return Sized(partial(finned_fish.finned_fish, sashimi=sashimi), k)


FINDERS: dict[str, Finder | Sized | Rated] = {
    "full_house": singles.full_house,
    "hidden_single": singles.hidden_single,
    "direct_pointing": direct.direct_pointing,
    "direct_claiming": direct.direct_claiming,
    "direct_hidden_pair": direct.direct_hidden_pair,
    "naked_single": singles.naked_single,
    "direct_hidden_triple": direct.direct_hidden_triple,
    "pointing": intersections.pointing,
    "claiming": intersections.claiming,
    "locked_pair": Sized(subsets.locked_subset, 2),
    "naked_pair": Sized(subsets.naked_subset, 2),
    "x_wing": Sized(fish.fish, 2),
    "hidden_pair": Sized(subsets.hidden_subset, 2),
    "finned_x_wing": _finned(2, False),
    "sashimi_x_wing": _finned(2, True),
    "locked_triple": Sized(subsets.locked_subset, 3),
    "naked_triple": Sized(subsets.naked_subset, 3),
    "swordfish": Sized(fish.fish, 3),
    "hidden_triple": Sized(subsets.hidden_subset, 3),
    "skyscraper": chains.skyscraper,
    "two_string_kite": chains.two_string_kite,
    "turbot_fish": se_ratings.turbot_fish,
    "finned_swordfish": _finned(3, False),
    "sashimi_swordfish": _finned(3, True),
    "grouped_turbot_fish": grouped_links.grouped_turbot_fish,
    "xy_wing": wings.xy_wing,
    "xyz_wing": wings.xyz_wing,
    "unique_rectangle": uniqueness.unique_rectangle,
    "unique_rectangle_2": rectangles.unique_rectangle_2,
    "unique_rectangle_4": rectangles.unique_rectangle_4,
    "unique_rectangle_5": rectangles_extra.unique_rectangle_5,
    "unique_rectangle_6": rectangles_extra.unique_rectangle_6,
    "hidden_rectangle": rectangles_extra.hidden_rectangle,
    "avoidable_rectangle_1": avoidable.avoidable_rectangle_1,
    "avoidable_rectangle_2": avoidable.avoidable_rectangle_2,
    "unique_rectangle_3": rectangles.unique_rectangle_3,
    "unique_loop": rectangles.unique_loop,
    "naked_quad": Sized(subsets.naked_subset, 4),
    "sue_de_coq": sue_de_coq.sue_de_coq,
    "jellyfish": Sized(fish.fish, 4),
    "hidden_quad": Sized(subsets.hidden_subset, 4),
    "three_strong_links": se_ratings.three_strong_links,
    "finned_jellyfish": _finned(4, False),
    "sashimi_jellyfish": _finned(4, True),
    "grouped_three_strong_links": grouped_links.grouped_three_strong_links,
    "wxyz_wing": als_wings.wxyz_wing,
    "als_xz": als.als_xz,
    "bug_plus_one": uniqueness.bug_plus_one,
    "bug_type_2": bug.bug_type_2,
    "bug_type_4": bug.bug_type_4,
    "bug_plus_n": bug.bug_plus_n,
    "bug_type_3": bug.bug_type_3,
    "vwxyz_wing": als_wings.vwxyz_wing,
    "als_xy_wing": als.als_xy_wing,
    "aligned_pair_exclusion": aligned.aligned_pair_exclusion,
    "uvwxyz_wing": als_wings.uvwxyz_wing,
    "als_chain": als.als_chain,
    "death_blossom": als.death_blossom,
    "bidirectional_cycle": cycle_choice.bidirectional_cycle,
    "forcing_x_chain": cycle_choice.forcing_x_chain,
    "simple_colouring": cycle_choice.simple_colouring,
    "multi_colouring": Rated(colouring.multi_colouring),
    "medusa_3d": Rated(medusa.medusa_3d),
    "x_chain": cycle_choice.x_chain,
    "forcing_chain": cycle_choice.forcing_chain,
    "w_wing": cycle_choice.w_wing,
    "xy_chain": cycle_choice.xy_chain,
    "aligned_triple_exclusion": aligned.aligned_triple_exclusion,
    "nishio": forcing.nishio,
    "cell_forcing_chain": forcing.cell_forcing_chain,
    "region_forcing_chain": forcing.region_forcing_chain,
    "dynamic_forcing_chain": forcing.dynamic_forcing_chain,
    "dynamic_forcing_chain_plus": forcing.dynamic_forcing_chain_plus,
    "nested_forcing_chain": forcing.nested_forcing_chain,
    "nested_multiple_chain": forcing.nested_multiple_chain,
    "nested_dynamic_chain": forcing.nested_dynamic_chain,
}
"""The finders of the table's techniques, in the table's order; the chain techniques a
bidirectional cycle competes with are those `cycle_choice` consults."""


def with_rating(finder: Finder | Sized | Rated, se: float) -> Finder:
    """A finder taking the state alone: `Sized` and `Rated` ones given the rating `se`
    (and their size)."""
    if isinstance(finder, Sized):
        return partial(finder.find, k=finder.k, rating=se)
    if isinstance(finder, Rated):
        return partial(finder.find, rating=se)
    return finder
