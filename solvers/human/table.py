"""The one technique table: every technique with its family, ratings, level and order.

The engine tries techniques in table order and applies the first step found,
so the order is the engine's idea of "easiest first".  It follows the
Sudoku-Explainer-style ratings (``se``), with ties kept in the order listed.
``score`` and ``level`` are HoDoKu's, for the HoDoKu technique that finds the
same step (HoDoKu's own order, scores and levels are in
`solvers.human.hodoku_path`, which must agree; a technique HoDoKu lacks gets the
closest one's): the HoDoKu figures of a puzzle come from a second pass in
HoDoKu's order (see `solvers.human.rating`).

Where a rating scale has no entry for a technique (Sudoku Explainer has no
locked pair, W-Wing or simple colouring; HoDoKu rates chains by kind, not
length), the table gives the value of the closest technique it has, noted in
``note`` (`NOTES`).  The finders are in `solvers.human.techniques` (`FINDERS`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from solvers.human.techniques.finders import FINDERS, Finder, with_rating

LEVELS = ("Easy", "Medium", "Hard", "Unfair", "Extreme")
FLAGS = ("off", "unique")


@dataclass(frozen=True)
class Technique:
    """One row of the technique table."""

    name: str
    title: str
    family: str
    tier: int  # 1: the methods of the project's source write-ups; 2: the rest
    se: float  # Sudoku-Explainer-style rating (the lowest, for variable ones)
    score: int  # HoDoKu's score per step (of the HoDoKu technique finding the same steps)
    level: str  # HoDoKu's level
    find: Finder
    enabled: bool = True
    assumes_unique: bool = False  # sound only when the puzzle has one solution
    note: str = ""


TABLE = """
full_house                 singles       1 1.0   4 Easy    -          Full house
hidden_single              singles       1 1.2  14 Easy    -          Hidden single
direct_pointing            direct        1 1.7  64 Medium  -          Direct pointing
direct_claiming            direct        1 1.9  64 Medium  -          Direct claiming
direct_hidden_pair         direct        1 2.0  84 Medium  -          Direct hidden pair
naked_single               singles       1 2.3   4 Easy    -          Naked single
direct_hidden_triple       direct        1 2.5 114 Medium  -          Direct hidden triple
pointing                   intersections 1 2.6  50 Medium  -          Pointing
claiming                   intersections 1 2.8  50 Medium  -          Claiming
locked_pair                subsets       1 3.0  40 Medium  -          Locked pair
naked_pair                 subsets       1 3.0  60 Medium  -          Naked pair
x_wing                     fish          2 3.2 140 Hard    -          X-Wing
hidden_pair                subsets       1 3.4  70 Medium  -          Hidden pair
finned_x_wing              fish          2 3.5 130 Hard    off        Finned X-Wing
sashimi_x_wing             fish          2 3.6 150 Hard    off        Sashimi X-Wing
locked_triple              subsets       1 3.6  60 Medium  -          Locked triple
naked_triple               subsets       1 3.6  80 Medium  -          Naked triple
swordfish                  fish          2 3.8 150 Hard    -          Swordfish
hidden_triple              subsets       1 4.0 100 Medium  -          Hidden triple
skyscraper                 chains        2 4.0 130 Hard    -          Skyscraper
two_string_kite            chains        2 4.1 150 Hard    -          2-String Kite
turbot_fish                chains        2 4.1 120 Hard    -          Turbot fish
finned_swordfish           fish          2 4.1 200 Unfair  off        Finned Swordfish
sashimi_swordfish          fish          2 4.2 240 Unfair  off        Sashimi Swordfish
grouped_turbot_fish        chains        2 4.3 300 Unfair  -          Grouped turbot fish
xy_wing                    wings         2 4.2 160 Hard    -          XY-Wing
xyz_wing                   wings         2 4.4 180 Hard    -          XYZ-Wing
unique_rectangle           uniqueness    2 4.5 100 Hard    unique     Unique rectangle type 1
unique_rectangle_2         uniqueness    2 4.5 100 Hard    unique     Unique rectangle type 2
unique_rectangle_4         uniqueness    2 4.5 100 Hard    unique     Unique rectangle type 4
unique_rectangle_5         uniqueness    2 4.5 100 Hard    off,unique Unique rectangle type 5
unique_rectangle_6         uniqueness    2 4.5 100 Hard    off,unique Unique rectangle type 6
hidden_rectangle           uniqueness    2 4.5 100 Hard    off,unique Hidden rectangle
avoidable_rectangle_1      uniqueness    2 4.5 100 Hard    off,unique Avoidable rectangle type 1
avoidable_rectangle_2      uniqueness    2 4.5 100 Hard    off,unique Avoidable rectangle type 2
unique_rectangle_3         uniqueness    2 4.6 100 Hard    unique     Unique rectangle type 3
unique_loop                uniqueness    2 4.6 100 Hard    unique     Unique loop
naked_quad                 subsets       1 5.0 120 Hard    -          Naked quad
sue_de_coq                 als           2 5.0 250 Unfair  off        Sue de Coq
jellyfish                  fish          2 5.2 160 Hard    -          Jellyfish
hidden_quad                subsets       1 5.4 150 Hard    -          Hidden quad
three_strong_links         chains        2 5.4 260 Unfair  -          Three strong links
finned_jellyfish           fish          2 5.5 250 Unfair  off        Finned Jellyfish
sashimi_jellyfish          fish          2 5.6 260 Unfair  off        Sashimi Jellyfish
grouped_three_strong_links chains        2 5.7 300 Unfair  -          Grouped three strong links
wxyz_wing                  wings         2 5.5 300 Unfair  -          WXYZ-Wing
als_xz                     als           2 5.5 300 Unfair  off        ALS-XZ
bug_plus_one               uniqueness    2 5.6 100 Hard    unique     BUG+1
bug_type_2                 uniqueness    2 5.7 100 Hard    unique     BUG type 2
bug_type_4                 uniqueness    2 5.7 100 Hard    unique     BUG type 4
bug_plus_n                 uniqueness    2 5.7 100 Hard    off,unique BUG+n
bug_type_3                 uniqueness    2 5.8 100 Hard    unique     BUG type 3
vwxyz_wing                 wings         2 6.2 300 Unfair  -          VWXYZ-Wing
als_xy_wing                als           2 6.2 320 Unfair  off        ALS-XY-Wing
aligned_pair_exclusion     exclusion     2 6.2 300 Unfair  -          Aligned pair exclusion
uvwxyz_wing                wings         2 6.6 300 Unfair  -          UVWXYZ-Wing
als_chain                  als           2 6.6 340 Unfair  off        ALS chain
death_blossom              als           2 6.6 360 Unfair  off        Death Blossom
bidirectional_cycle        chains        2 6.5 280 Unfair  -          Bidirectional cycle
forcing_x_chain            chains        2 6.6 260 Unfair  -          Forcing X-chain
simple_colouring           colouring     2 6.5 150 Hard    -          Simple colouring
multi_colouring            colouring     2 6.6 200 Hard    off        Multi-colouring
medusa_3d                  colouring     2 7.0 280 Unfair  off        3D Medusa
x_chain                    chains        2 6.6 260 Unfair  -          X-chain
forcing_chain              forcing       2 6.6 280 Unfair  -          Forcing chain
w_wing                     wings         2 7.1 150 Hard    -          W-Wing
xy_chain                   chains        2 7.1 260 Unfair  -          XY-chain
aligned_triple_exclusion   exclusion     2 7.5 300 Unfair  -          Aligned triple exclusion
nishio                     forcing       2 7.5 500 Extreme -          Nishio forcing chain
cell_forcing_chain         forcing       2 8.0 500 Extreme -          Cell forcing chain
region_forcing_chain       forcing       2 8.0 500 Extreme -          Region forcing chain
dynamic_forcing_chain      forcing       2 8.5 700 Extreme -          Dynamic forcing chain
dynamic_forcing_chain_plus forcing       2 9.0 700 Extreme -          Dynamic forcing chain (+)
nested_forcing_chain       forcing       2 9.5 700 Extreme -          Nested forcing chain
nested_multiple_chain      forcing       2 10.0 700 Extreme -          Nested chain (+ multiple)
nested_dynamic_chain       forcing       2 10.5 700 Extreme -          Nested chain (+ dynamic)
"""
"""The techniques in engine order, one a line: name, family, tier, Sudoku-Explainer-style
rating, HoDoKu score and level, flags (``off``: off by default; ``unique``: sound
only when the puzzle has one solution; ``-``: none), title."""

NOTES: dict[str, str] = {
    "hidden_single": "1.2 in a box, 1.5 in a row or column",
    "direct_pointing": "HoDoKu: a pointing and a hidden single",
    "direct_claiming": "HoDoKu: a claiming and a hidden single",
    "direct_hidden_pair": "HoDoKu: a hidden pair and a hidden single",
    "direct_hidden_triple": "HoDoKu: a hidden triple and a hidden single",
    "locked_pair": "SE: rated as a naked pair",
    "finned_x_wing": (
        "Sudoku Explainer: none; the X-Wing's 3.2 plus 0.3 (Sukaku Explainer adds 0.3 for a "
        "grouped link; it finds these as a grouped turbot fish, 4.3)"
    ),
    "sashimi_x_wing": (
        "Sudoku Explainer: none; the X-Wing's 3.2 plus 0.4 (HoDoKu scores sashimi above finned; "
        "Sukaku Explainer finds these as a grouped turbot fish, 4.3)"
    ),
    "locked_triple": "SE: rated as a naked triple",
    "skyscraper": "Sukaku Explainer: 4.0 (Sudoku Explainer: a 6.6 turbot X-chain)",
    "two_string_kite": "Sukaku Explainer: 4.1 (Sudoku Explainer: a 6.6 turbot X-chain)",
    "turbot_fish": "Sukaku Explainer: 4.1 (Sudoku Explainer: a 6.6 turbot X-chain)",
    "finned_swordfish": (
        "Sudoku Explainer: none; the Swordfish's 3.8 plus 0.3 (Sukaku Explainer adds 0.3 for a "
        "grouped link)"
    ),
    "sashimi_swordfish": (
        "Sudoku Explainer: none; the Swordfish's 3.8 plus 0.4 (HoDoKu scores sashimi above finned)"
    ),
    "grouped_turbot_fish": (
        "Sukaku Explainer: 4.3 (grouped strong links); HoDoKu: a grouped nice loop, or, in the "
        "shape of an empty rectangle, an empty rectangle (120, Hard)"
    ),
    "unique_rectangle_5": "SE: no such technique, rated as a unique rectangle type 2",
    "unique_rectangle_6": "SE: no such technique, rated as a unique rectangle type 4",
    "hidden_rectangle": "SE: no such technique, rated as a unique rectangle type 4",
    "avoidable_rectangle_1": "SE: no such technique, rated as a unique rectangle type 1",
    "avoidable_rectangle_2": "SE: no such technique, rated as a unique rectangle type 2",
    "unique_rectangle_3": "SE: 4.5 plus 0.1 per digit of the naked subset beyond one",
    "unique_loop": "SE: 4.6 for six cells, 4.7 for eight, 5.0 for ten or more (types 1 and 2)",
    "sue_de_coq": (
        "SE: none (Sudoku Explainer lacks it), rated as a naked quad: two locked sets meeting at "
        "a box-line crossing"
    ),
    "three_strong_links": (
        "Sukaku Explainer: 5.4 in parallel lines, 5.6 mixing a box, a row and a column, else 5.5"
    ),
    "finned_jellyfish": (
        "Sudoku Explainer: none; the Jellyfish's 5.2 plus 0.3 (Sukaku Explainer adds 0.3 for a "
        "grouped link)"
    ),
    "sashimi_jellyfish": (
        "Sudoku Explainer: none; the Jellyfish's 5.2 plus 0.4 (HoDoKu scores sashimi above finned)"
    ),
    "grouped_three_strong_links": "Sukaku Explainer: 5.7; HoDoKu: a grouped nice loop",
    "wxyz_wing": (
        "Sukaku Explainer: 5.5, 5.6 when the largest ALS cell has three digits; HoDoKu: an ALS-XZ"
    ),
    "als_xz": (
        "SE: none (Sudoku Explainer lacks it), rated as Sukaku Explainer's WXYZ-Wing (its case "
        "with a bivalue cell)"
    ),
    "bug_type_2": "HoDoKu: rated as a BUG+1",
    "bug_type_4": "HoDoKu: rated as a BUG+1",
    "bug_plus_n": "SE: no such technique, rated as a BUG type 2; HoDoKu: rated as a BUG+1",
    "bug_type_3": (
        "SE: 5.7 plus 0.1 per digit of the naked subset beyond the first; HoDoKu: rated as a BUG+1"
    ),
    "vwxyz_wing": "Sukaku Explainer: 6.2-6.4 by the largest ALS cell; HoDoKu: an ALS-XZ",
    "als_xy_wing": (
        "SE: none (Sudoku Explainer lacks it), rated as Sukaku Explainer's VWXYZ-Wing (the next "
        "larger ALS wing)"
    ),
    "aligned_pair_exclusion": "HoDoKu: no such technique, rated as an ALS-XZ",
    "uvwxyz_wing": "Sukaku Explainer: 6.6; HoDoKu: an ALS-XZ",
    "als_chain": (
        "SE: none (Sudoku Explainer lacks it), rated as the shortest forcing X-chain, 6.6; "
        "HoDoKu: an ALS-XY-Chain"
    ),
    "death_blossom": (
        "SE: none (Sudoku Explainer lacks it; it would take a cell forcing chain, 8.0), rated as "
        "an ALS chain"
    ),
    "bidirectional_cycle": (
        "SE: an X-cycle or a Y-cycle, 6.5, or an XY-cycle, 7.0, plus the chain length bonus; "
        "HoDoKu: a continuous nice loop"
    ),
    "forcing_x_chain": (
        "SE: 6.6 plus the chain length bonus; HoDoKu: an X-chain or a discontinuous nice loop"
    ),
    "simple_colouring": "SE: rated as a short X-chain",
    "multi_colouring": "Sudoku Explainer: none; rated as a forcing X-chain, 6.6",
    "medusa_3d": (
        "Sudoku Explainer: none; rated as a forcing chain of cell and unit links, 7.0; HoDoKu: "
        "none, rated as a nice loop"
    ),
    "x_chain": "SE: a forcing X-chain, 6.6, or an X-cycle, 6.5, plus the chain length bonus",
    "forcing_chain": (
        "SE: 6.6 on one digit, else 7.0, plus the chain length bonus; HoDoKu: a nice loop or "
        "an AIC (a chain from a candidate to its own negation)"
    ),
    "w_wing": "SE: a forcing chain of eight candidates, 7.1",
    "xy_chain": "SE: a forcing chain, 7.0 plus the chain length bonus",
    "aligned_triple_exclusion": "HoDoKu: no such technique, rated as an ALS-XZ",
    "nishio": "SE: 7.5 plus the chain length bonus; HoDoKu: rated as a forcing chain",
    "cell_forcing_chain": "SE: 8.0 plus the chain length bonus; HoDoKu: rated as a forcing chain",
    "region_forcing_chain": "SE: 8.0 plus the chain length bonus; HoDoKu: rated as a forcing chain",
    "dynamic_forcing_chain": "SE: 8.5 plus the chain length bonus; HoDoKu: rated as a forcing net",
    "dynamic_forcing_chain_plus": (
        "SE: 9.0 plus the chain length bonus; HoDoKu: rated as a forcing net"
    ),
    "nested_forcing_chain": (
        "SE: Nested Forcing Chains (+ Forcing Chains), level 2: 9.5 plus the length bonus of "
        "the facts with those of the inner chains; HoDoKu: rated as a forcing net"
    ),
    "nested_multiple_chain": (
        "SE: Nested Forcing Chains (+ Multiple Forcing Chains), level 3: 10.0 plus the length "
        "bonus of the facts with those of the inner chains; HoDoKu: rated as a forcing net"
    ),
    "nested_dynamic_chain": (
        "SE: Nested Forcing Chains (+ Dynamic Forcing Chains), level 4: 10.5 plus the length "
        "bonus of the facts with those of the inner chains; HoDoKu: rated as a forcing net"
    ),
}


def parse_table(text: str) -> tuple[Technique, ...]:
    """The techniques of a table in the `TABLE` format, with their finders and notes;
    ValueError on a malformed line, a technique without a finder or one listed twice."""
    out: list[Technique] = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        fields = line.split(None, 7)
        if len(fields) != 8:
            raise ValueError(f"technique table line {number}: expected 8 fields: {line!r}")
        name, family, tier, se, score, level, flags, title = fields
        marks = () if flags == "-" else tuple(flags.split(","))
        if level not in LEVELS or not set(marks) <= set(FLAGS) or name not in FINDERS:
            raise ValueError(f"technique table line {number}: unknown level, flag or name {line!r}")
        if any(t.name == name for t in out):
            raise ValueError(f"technique table line {number}: {name} is listed twice")
        out.append(
            Technique(
                name,
                title,
                family,
                int(tier),
                float(se),
                int(score),
                level,
                with_rating(FINDERS[name], float(se)),
                enabled="off" not in marks,
                assumes_unique="unique" in marks,
                note=NOTES.get(name, ""),
            )
        )
    return tuple(out)


TECHNIQUES: tuple[Technique, ...] = parse_table(TABLE)

BY_NAME: dict[str, Technique] = {t.name: t for t in TECHNIQUES}

GROUPS: dict[str, tuple[str, ...]] = {
    # the default: the techniques a Sudoku Explainer rating can follow
    "all": tuple(t.name for t in TECHNIQUES if t.enabled),
    # also the techniques Sudoku Explainer lacks (off by default: where Sudoku Explainer needs
    # a chain they would make an easier step, and the ratings would no longer follow its own)
    "extended": tuple(t.name for t in TECHNIQUES),
    "tier1": tuple(t.name for t in TECHNIQUES if t.tier == 1 and t.enabled),
    "tier2": tuple(t.name for t in TECHNIQUES if t.tier == 2 and t.enabled),
    "singles": ("full_house", "hidden_single", "naked_single"),
    "locked_candidates": ("pointing", "claiming"),
    "subsets": tuple(t.name for t in TECHNIQUES if t.family == "subsets"),
    "fish": ("x_wing", "swordfish", "jellyfish"),
    "direct": tuple(t.name for t in TECHNIQUES if t.family == "direct"),
    "forcing": tuple(t.name for t in TECHNIQUES if t.family == "forcing"),
    "no_uniqueness": tuple(t.name for t in TECHNIQUES if t.enabled and not t.assumes_unique),
    # the set before Sudoku Explainer's direct techniques and forcing chains came in: what
    # the searches built on the engine (assume) use by default, and where logic can run out
    "classic": tuple(
        t.name for t in TECHNIQUES if t.enabled and t.family not in ("direct", "forcing")
    ),
}


def resolve(techniques: str | Iterable[str] | None) -> tuple[Technique, ...]:
    """The techniques a configuration names, in table order.

    Accepts None (every enabled technique), a group (``tier1``, ``all``,
    ``singles`` ...), technique names, or a string of them joined by ``+``
    or ``,``.  Unknown names raise ValueError listing the valid ones.

    >>> [t.name for t in resolve("naked_pair+hidden_single")]
    ['hidden_single', 'naked_pair']
    """
    if techniques is None:
        techniques = "all"
    if isinstance(techniques, str):
        techniques = techniques.replace(",", "+").split("+")
    return _resolve(tuple(n.strip() for n in techniques if n.strip()))


@cache
def _resolve(names: tuple[str, ...]) -> tuple[Technique, ...]:
    chosen: set[str] = set()
    for name in names:
        if name in GROUPS:
            chosen.update(GROUPS[name])
        elif name in BY_NAME:
            chosen.add(name)
        else:
            raise ValueError(
                f"unknown technique {name!r}; choose from the groups "
                f"{', '.join(GROUPS)} or the techniques {', '.join(BY_NAME)}"
            )
    if not chosen:
        raise ValueError("no technique chosen")
    return tuple(t for t in TECHNIQUES if t.name in chosen)


def config_name(techniques: tuple[Technique, ...]) -> str:
    """A short name for a configuration: a group name when it is one, else the names joined by +."""
    names = tuple(t.name for t in techniques)
    for group in ("all", "extended", "tier1", "no_uniqueness", "classic"):
        if names == GROUPS[group]:
            return group
    return "+".join(names)


_VARIABLE = ("forcing_x_chain", "x_chain", "xy_chain", "bidirectional_cycle", "bug_type_3")


def markdown_table() -> str:
    """The technique table in Markdown, in engine order (the docs show this); the
    techniques off by default say so."""
    lines = [
        "| order | technique | family | tier | SE rating | HoDoKu score | level |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for i, t in enumerate(TECHNIQUES, 1):
        se = f"{t.se:.1f}" + ("+" if t.name in _VARIABLE or t.family == "forcing" else "")
        if t.name == "hidden_single":
            se = "1.2 / 1.5"
        name = f"`{t.name}`" + (" (assumes uniqueness)" if t.assumes_unique else "")
        if not t.enabled:
            name += " (off by default)"
        lines.append(f"| {i} | {name} | {t.family} | {t.tier} | {se} | {t.score} | {t.level} |")
    return "\n".join(lines)
