"""Rendering steps: plain English, compact notation, JSON records, candidate grids.

>>> from solvers.grid import shape
>>> s = Step("naked_pair", (), ((39, 2), (39, 5)), (36, 43), (4,), (2, 5), 3.0, shape(3, 3))
>>> english(s)
'Naked pair 2/5 in row 5 (r5c1, r5c8): removes 2 and 5 from r5c4'
>>> compact(s)
'r5c4<>2,5'
"""

from __future__ import annotations

from typing import Any

from solvers.grid import Shape
from solvers.human.state import digits
from solvers.human.step import Step


def _cells(shape: Shape, cells) -> str:
    return ", ".join(shape.cell_name(c) for c in cells)


def _and(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def effect(step: Step) -> str:
    """What a step does, in words: 'r4c6 = 7' or 'removes 2 and 5 from r4c6; 2 from r4c7'."""
    shape = step.shape
    parts = [f"{shape.cell_name(c)} = {d}" for c, d in step.placements]
    if step.eliminations:
        by_cell: dict[int, list[int]] = {}
        for c, d in step.eliminations:
            by_cell.setdefault(c, []).append(d)
        groups: dict[tuple[int, ...], list[int]] = {}
        for c, ds in by_cell.items():
            groups.setdefault(tuple(sorted(ds)), []).append(c)
        removes = [
            f"{_and([str(d) for d in ds])} from {_cells(shape, cells)}"
            for ds, cells in groups.items()
        ]
        parts.append("removes " + "; ".join(removes))
    return ", ".join(parts)


def _digits(ds) -> str:
    return "/".join(str(d) for d in ds)


def _chain_text(step: Step) -> str:
    """A chain in Eureka notation: strong links '=', weak links '-', each node its digit in
    brackets before its cell.

    X-chains: '(5)r1c1=(5)r1c5-(5)r3c5=(5)r3c9'; XY-chains: '(2=5)r1c1-(5=7)r1c6'.
    """
    shape = step.shape
    nodes = step.chain
    if step.technique == "xy_chain":
        return "-".join(
            f"({off}={on}){shape.cell_name(cell)}"
            for (cell, off), (_, on) in zip(nodes[::2], nodes[1::2], strict=True)
        )
    text = f"({nodes[0][1]}){shape.cell_name(nodes[0][0])}"
    for i, (cell, d) in enumerate(nodes[1:]):
        text += ("=" if i % 2 == 0 else "-") + f"({d}){shape.cell_name(cell)}"
    return text


VARIANT_TECHNIQUES = frozenset(
    ("non_consecutive", "cage_combinations", "house_pointing", "rule_of_45")
    + ("nishio_singles", "nishio_net")
)
"""The techniques only variant puzzles have (`solvers.human.variant.text` words them)."""


def english(step: Step) -> str:
    """One plain-English line saying what the step found and what it does."""
    shape = step.shape
    t = step.technique
    unit = shape.unit_name(step.units[0]) if step.units else ""
    ds = _digits(step.digits)
    what = effect(step)
    if t in VARIANT_TECHNIQUES:
        from solvers.human.variant.text import english_variant

        return english_variant(step, what)
    if t in _DEADLY_TITLES:
        return _deadly_text(step, what)
    if t == "full_house":
        return f"Full house in {unit}: {what}"
    if t == "hidden_single":
        return f"Hidden single: {ds} has one place in {unit}: {what}"
    if t == "naked_single":
        return f"Naked single: {what} (its only candidate)"
    if t in ("direct_pointing", "direct_claiming"):
        inner, outer, other = (shape.unit_name(u) for u in step.units)
        return (
            f"{t.replace('_', ' ').capitalize()}: in {inner}, {ds} lies only in {outer} "
            f"({_cells(shape, step.cells)}), so {ds} has one place left in {other}: {what}"
        )
    if t.startswith("direct_hidden_"):
        kind = t.removeprefix("direct_hidden_")
        placed = step.placements[0][1]
        return (
            f"Direct hidden {kind} {ds} in {unit} ({_cells(shape, step.cells)}): "
            f"{placed} has one place left in {unit}: {what}"
        )
    if t in ("pointing", "claiming"):
        inner, outer = (shape.unit_name(u) for u in step.units)
        return (
            f"{t.capitalize()}: in {inner}, {ds} lies only in {outer} "
            f"({_cells(shape, step.cells)}): {what}"
        )
    if t.startswith(("naked_", "hidden_")):
        title = t.replace("_", " ").capitalize()
        return f"{title} {ds} in {unit} ({_cells(shape, step.cells)}): {what}"
    if t.startswith("locked_"):
        title = t.replace("_", " ").capitalize()
        units = " and ".join(shape.unit_name(u) for u in step.units)
        return f"{title} {ds} in {units} ({_cells(shape, step.cells)}): {what}"
    if t in ("x_wing", "swordfish", "jellyfish"):
        title = {"x_wing": "X-Wing", "swordfish": "Swordfish", "jellyfish": "Jellyfish"}[t]
        base, cover = _fish_lines(step)
        return f"{title} on {ds} in {base} ({cover}): {what}"
    if t.startswith(("finned_", "sashimi_")):
        return _finned_text(step, what)
    if t == "multi_colouring":
        kind = "colour wrap" if step.chain else "colour trap"
        return f"Multi-colouring on {ds} ({kind}, two clusters {_cells(shape, step.cells)}): {what}"
    if t == "medusa_3d":
        return _medusa_text(step, what)
    if t in ("xy_wing", "xyz_wing"):
        title = "XY-Wing" if t == "xy_wing" else "XYZ-Wing"
        pivot, a, b = step.cells
        return (
            f"{title}: pivot {shape.cell_name(pivot)} with pincers {shape.cell_name(a)} "
            f"and {shape.cell_name(b)}, one of them is {ds}: {what}"
        )
    if t == "w_wing":
        a, p, q, b = step.cells
        x, y = step.digits
        return (
            f"W-Wing: {shape.cell_name(a)} and {shape.cell_name(b)} "
            f"hold {_digits(sorted((x, y)))}, "
            f"joined by the strong link on {x} in {unit} ({shape.cell_name(p)}, "
            f"{shape.cell_name(q)}), so one of them is {y}: {what}"
        )
    if t in ("skyscraper", "two_string_kite", "turbot_fish", "three_strong_links", "x_chain"):
        title = {
            "three_strong_links": "Three strong links",
            "skyscraper": "Skyscraper",
            "two_string_kite": "2-String Kite",
            "turbot_fish": "Turbot fish",
        }.get(t, "X-chain")
        return f"{title} on {ds}: {_chain_text(step)}, one end is {ds}: {what}"
    if t == "xy_chain":
        return f"XY-chain: {_chain_text(step)}, one end is {ds}: {what}"
    if t == "simple_colouring":
        kind = "colour wrap" if step.chain else "colour trap"
        return f"Simple colouring on {ds} ({kind}, cluster {_cells(shape, step.cells)}): {what}"
    if t == "unique_rectangle":
        return (
            f"Unique rectangle type 1 on {ds} ({_cells(shape, step.cells)}), "
            f"else two solutions: {what}"
        )
    if t == "bug_plus_one":
        return f"BUG+1: every other open cell has two candidates, {ds} has three places: {what}"
    if t == "aligned_triple_exclusion":
        names = [shape.cell_name(c) for c in step.cells]
        return (
            f"Aligned triple exclusion: every set of digits for {_and(names[:3])} that empties "
            f"one of the cells {', '.join(names[3:])} (or repeats a digit in a shared unit) "
            f"is impossible: {what}"
        )
    if t == "aligned_pair_exclusion":
        names = [shape.cell_name(c) for c in step.cells]
        return (
            f"Aligned pair exclusion: every pair of digits for {names[0]} and {names[1]} that "
            f"empties one of the bivalue cells {', '.join(names[2:])} (or repeats a digit in a "
            "shared unit) "
            f"is impossible: {what}"
        )
    if t == "bidirectional_cycle":
        return _cycle_text(step, what)
    if t in ("bug_type_2", "bug_type_3", "bug_type_4"):
        return _bug_text(step, what)
    if t in _ALS_TITLES:
        return _als_text(step, what)
    if step.detail:
        return _forcing_text(step, what)
    return _pattern_text(step, what)


def _pattern_text(step: Step, what: str) -> str:
    """The techniques without a sentence of their own: the usual name and the pattern."""
    shape = step.shape
    t = step.technique
    title = technique_title(t)
    ds = _digits(step.digits)
    if t in ("wxyz_wing", "vwxyz_wing", "uvwxyz_wing"):
        *als, pivot = step.cells
        return (
            f"{title}: the cells {_cells(shape, als)} are almost locked, and the bivalue cell "
            f"{shape.cell_name(pivot)} holds {ds}; whichever of the two it is not, the other "
            f"is locked in the set or the cell, so the cells that see them all lose it: {what}"
        )
    if t.startswith("unique_") or t == "unique_loop":
        return (
            f"{title} on {ds} ({_cells(shape, step.cells)}): any other way, the pattern "
            f"could swap its digits and the puzzle would have two solutions: {what}"
        )
    if t == "forcing_x_chain":
        # the chain's nodes are (cell, d) on and (cell, -d) off, each forcing the next
        chain = eureka(shape, [(c, abs(d), d > 0) for c, d in step.chain])
        (c, d), *_ = step.chain
        start = f"{shape.cell_name(c)}{'=' if d > 0 else '<>'}{abs(d)}"
        return f"{title} on {ds}: {chain}; assuming {start} forces its opposite, so: {what}"
    if step.cells:
        return f"{title} on {ds} ({_cells(shape, step.cells)}): {what}"
    return f"{title}: {what}"


def technique_title(name: str) -> str:
    """A technique's usual name, from the technique table ('uvwxyz_wing' -> 'UVWXYZ-Wing');
    a name the table lacks comes back as it is."""
    from solvers.human.table import BY_NAME  # the table imports every finder: import late

    found = BY_NAME.get(name)
    return found.title if found is not None else name


def _fish_lines(step: Step) -> tuple[str, str]:
    """A fish's base and cover lines in words: ('rows 1, 5', 'columns 2, 7')."""
    shape = step.shape
    k = len(step.units) // 2
    base, cover = step.units[:k], step.units[k:]
    kind = "rows" if base[0] < shape.size else "columns"
    other = "columns" if kind == "rows" else "rows"
    index = ", ".join(str(u % shape.size + 1) for u in base)
    cover_index = ", ".join(str(u % shape.size + 1) for u in cover)
    return f"{kind} {index}", f"{other} {cover_index}"


def _finned_text(step: Step, what: str) -> str:
    """A finned or sashimi fish: its base and cover lines and its fins."""
    kind, size = step.technique.split("_", 1)
    title = {"x_wing": "X-Wing", "swordfish": "Swordfish", "jellyfish": "Jellyfish"}[size]
    base, cover = _fish_lines(step)
    (fins,) = step.detail
    fin = "fin" if len(fins) == 1 else "fins"
    return (
        f"{kind.capitalize()} {title} on {_digits(step.digits)} in {base} ({cover}) with {fin} "
        f"{_cells(step.shape, fins)}: a fin holds it or the fish does, either way: {what}"
    )


def _medusa_text(step: Step, what: str) -> str:
    """3D Medusa: the two colours, and why one is false or what sees both."""
    shape = step.shape
    kind, false, reason, *colours = step.detail
    names = [", ".join(f"{shape.cell_name(c)}={d}" for c, d in nodes) for nodes in colours]
    text = f"3D Medusa: colour A ({names[0]}) against colour B ({names[1]})"
    if kind == "trap":
        return f"{text}; one colour is true, and either rules these out: {what}"
    why, cell, digit = reason
    where = shape.cell_name(cell)
    because = {
        "cell": f"it would put two digits in {where}",
        "unit": f"it would put {digit} twice in a unit ({where})",
        "empty": f"it would leave {where} without a candidate",
    }[why]
    return f"{text}; colour {'AB'[false]} is false, as {because}: {what}"


def eureka(shape: Shape, nodes, *, loop: bool = False) -> str:
    """Alternating implications in Eureka notation: ``nodes`` are ``(cell, digit, on)``
    facts, each forcing the next; on to off is a weak link '-', off to on a strong one '=',
    and two facts of one cell merge, '(3=9)r7c3'.  A loop comes back to its first fact.

    >>> from solvers.grid import shape
    >>> eureka(shape(3, 3), [(0, 3, True), (9, 3, False), (9, 9, True), (10, 9, False)])
    '(3)r1c1-(3=9)r2c1-(9)r2c2'
    """
    facts = list(nodes) + ([nodes[0]] if loop else [])
    text = ""
    i = 0
    while i < len(facts):
        cell, d, on = facts[i]
        if i:
            text += "=" if on else "-"
        nxt = facts[i + 1] if i + 1 < len(facts) else None
        if nxt is not None and nxt[0] == cell and not on and nxt[2]:
            text += f"({d}={nxt[1]}){shape.cell_name(cell)}"
            i += 2
            continue
        text += f"({d}){shape.cell_name(cell)}"
        i += 1
    return text


def _cycle_text(step: Step, what: str) -> str:
    """A bidirectional cycle: its kind and the loop in Eureka notation."""
    kind, states = step.detail
    title = {"x": "X-cycle", "y": "Y-cycle", "xy": "XY-cycle"}[kind]
    loop = eureka(
        step.shape,
        [(c, d, on) for (c, d), on in zip(step.chain, states, strict=True)],
        loop=True,
    )
    return (
        f"Bidirectional {title}: {loop}, a loop; read forwards or backwards, "
        f"one reading holds, and either way these candidates are false: {what}"
    )


def _bug_text(step: Step, what: str) -> str:
    """BUG types 2 to 4: the BUG cells, and why one of their extra digits is true."""
    shape = step.shape
    ds = _digits(step.digits)
    if step.technique == "bug_type_2":
        cells = _cells(shape, step.cells)
        return (
            f"BUG type 2: every open cell but {cells} has two candidates, and their extra "
            f"digit is {ds}; else two solutions, so one of them is {ds}: {what}"
        )
    unit = shape.unit_name(step.units[0])
    if step.technique == "bug_type_4":
        a, b = (shape.cell_name(c) for c in step.cells)
        return (
            f"BUG type 4: {a} and {b} are the only cells beyond a BUG, and {ds} has no other "
            f"place in {unit}: one is {ds}, the other takes its extra digit: {what}"
        )
    k = len(step.digits)
    bug_cells, naked = step.cells[: len(step.cells) - k + 1], step.cells[len(step.cells) - k + 1 :]
    return (
        f"BUG type 3: {_cells(shape, bug_cells)} hold the extra digits beyond a BUG; as one "
        f"cell they form a naked subset {ds} in {unit} with {_cells(shape, naked)}: {what}"
    )


_DEADLY_TITLES = {
    "unique_rectangle_5": "Unique rectangle type 5",
    "unique_rectangle_6": "Unique rectangle type 6",
    "hidden_rectangle": "Hidden rectangle",
    "avoidable_rectangle_1": "Avoidable rectangle type 1",
    "avoidable_rectangle_2": "Avoidable rectangle type 2",
    "bug_plus_n": "BUG+n",
}


def _deadly_text(step: Step, what: str) -> str:
    """The uniqueness techniques beyond Sudoku Explainer's: the pattern that would leave two
    solutions, and why avoiding it forces the step."""
    shape = step.shape
    t = step.technique
    title = _DEADLY_TITLES[t]
    if t == "bug_plus_n":
        extras = ", ".join(f"{d} in {shape.cell_name(c)}" for c, d in step.detail)
        return (
            f"BUG+{len(step.detail)}: without the extra candidates {extras} the grid is a BUG "
            f"(two solutions or none), so one of them is true; these candidates would make "
            f"them all false: {what}"
        )
    ds = _digits(step.digits)
    a, b = step.digits
    rect = f"{title} on {ds} ({_cells(shape, step.cells)})"
    if t == "unique_rectangle_5":
        x, roof = step.detail
        return (
            f"{rect}: {_and([shape.cell_name(c) for c in roof])} hold {ds} and {x} only; "
            f"unless one is {x} the rectangle could swap {a} and {b} (two solutions), "
            f"so one of them is {x}: {what}"
        )
    if t == "unique_rectangle_6":
        digit, floor, kind = step.detail
        lines = sorted({c // shape.size if kind == "rows" else c % shape.size for c in floor})
        roof = ", ".join(shape.cell_name(c) for c in step.cells if c not in floor)
        return (
            f"{rect}: {_and([shape.cell_name(c) for c in floor])} hold {ds} only and {digit} "
            f"lies in {kind} {' and '.join(str(i + 1) for i in lines)} only in the rectangle; "
            f"{digit} in either of {roof} would put {digit} in both and the other digit in "
            f"the other two corners, and the rectangle could swap (two solutions): {what}"
        )
    if t == "hidden_rectangle":
        digit, corner = step.detail
        (opposite, other), *_ = step.eliminations
        sides = _and([shape.cell_name(c) for c in step.cells if c not in (corner, opposite)])
        return (
            f"{rect}: {shape.cell_name(corner)} holds {ds} only and {digit} lies only in the "
            f"rectangle in the row and the column of {shape.cell_name(opposite)}; "
            f"{other} there would put {digit} in {sides} and {other} in "
            f"{shape.cell_name(corner)}, and the rectangle could swap (two solutions): {what}"
        )
    if t == "avoidable_rectangle_1":
        (open_,) = step.detail
        solved = [shape.cell_name(c) for c in step.cells if c != open_]
        return (
            f"{rect}: {_and(solved)} were solved, not given; completing the rectangle in "
            f"{shape.cell_name(open_)} would let {a} and {b} swap (two solutions): {what}"
        )
    x, facing = step.detail
    names = _and([shape.cell_name(c) for c in facing])
    return (
        f"{rect}: two corners were solved, not given, and {names} would complete the "
        f"rectangle (two solutions) unless one of them is {x}: {what}"
    )


_ALS_TITLES = {
    "als_xz": "ALS-XZ",
    "als_xy_wing": "ALS-XY-Wing",
    "als_chain": "ALS chain",
    "death_blossom": "Death Blossom",
    "sue_de_coq": "Sue de Coq",
}


def _als_set(shape: Shape, cells, ds) -> str:
    """An almost locked set: its cells and digits, 'r1c1,r1c2{1234}'."""
    return ",".join(shape.cell_name(c) for c in cells) + "{" + "".join(map(str, ds)) + "}"


def als_notation(step: Step) -> str:
    """A step on almost locked sets in Eureka-like notation: each set with the digit that
    leaves it and the one then locked in it, '(x=z)set', linked by '-' (the RCCs);
    a doubly linked ALS-XZ shows its two RCCs, a Death Blossom its stem and petals."""
    shape = step.shape
    sets, rccs, zs = step.detail
    z = _digits(zs)
    named = [_als_set(shape, cells, ds) for cells, ds in sets]
    if step.technique == "death_blossom":
        petals = "; ".join(f"{_digits(d)}: {p}" for d, p in zip(rccs, named[1:], strict=True))
        return f"stem {named[0]}, petals {petals}"
    if step.technique == "sue_de_coq":
        return f"{named[0]} + line {named[1]} + box {named[2]}"
    if len(rccs[0]) > 1:
        return f"{named[0]} ={_digits(rccs[0])}= {named[1]}"
    ins = [z] + [_digits(r) for r in rccs]
    outs = [_digits(r) for r in rccs] + [z]
    return " - ".join(f"({i}={o}){n}" for i, o, n in zip(ins, outs, named, strict=True))


def _als_text(step: Step, what: str) -> str:
    """A step on almost locked sets: the sets, how they are linked and why the digit goes."""
    shape = step.shape
    title = _ALS_TITLES[step.technique]
    sets, rccs, zs = step.detail
    z = _digits(zs)
    notation = als_notation(step)
    if step.technique == "sue_de_coq":
        line, box = (shape.unit_name(u) for u in step.units)
        return (
            f"Sue de Coq: {notation}: the cells where {box} meets {line}, with a set of "
            f"{line} and one of {box} sharing no digit, hold as many digits as cells, each "
            f"once: {what}"
        )
    if step.technique == "death_blossom":
        return (
            f"Death Blossom: {notation}; whichever digit the stem takes, its petal is "
            f"locked on the rest, so one of them holds {z}: {what}"
        )
    if step.technique == "als_xz" and len(rccs[0]) > 1:
        return (
            f"ALS-XZ (doubly linked): {notation}: {_and(list(map(str, rccs[0])))} are restricted "
            f"common to both sets, so both are locked: {what}"
        )
    links = _and([_digits(r) for r in rccs])
    ends = "one of the two sets" if len(sets) == 2 else "the first or the last set"
    return (
        f"{title}: {notation}: almost locked sets linked by restricted common {links} "
        f"(at most one set of a link holds it, so the other is locked); "
        f"{z} is in {ends}: {what}"
    )


def _forcing_text(step: Step, what: str) -> str:
    """A forcing chain: what was assumed, how the branches concluded, how many facts it took."""
    kind, sources, facts = step.detail
    title = technique_title(step.technique)
    size = f"{facts} facts"
    if kind == "contradiction":
        return f"{title}: assuming {sources[0]} leads to a contradiction ({size}): {what}"
    if kind == "both":
        return f"{title}: {sources[0]} true and {sources[1]} both force it ({size}): {what}"
    if kind == "cell":
        cell = step.shape.cell_name(step.cells[0])
        return (
            f"{title}: every candidate of {cell} ({', '.join(sources)}) forces it ({size}): {what}"
        )
    unit = step.shape.unit_name(step.units[0]) if step.units else "its unit"
    return (
        f"{title}: every place of {_digits(step.digits)} in {unit} ({', '.join(sources)}) "
        f"forces it ({size}): {what}"
    )


def compact(step: Step) -> str:
    """Compact notation: placements 'r1c1=5', eliminations 'r4c6<>2,5', space-separated."""
    shape = step.shape
    parts = [f"{shape.cell_name(c)}={d}" for c, d in step.placements]
    by_cell: dict[int, list[int]] = {}
    for c, d in step.eliminations:
        by_cell.setdefault(c, []).append(d)
    parts += [
        f"{shape.cell_name(c)}<>{','.join(str(d) for d in sorted(ds))}"
        for c, ds in sorted(by_cell.items())
    ]
    return " ".join(parts)


def record(step: Step, *, candidates: bool = False) -> dict[str, Any]:
    """A JSON-ready record of a step (the candidate grid before it, when asked and kept)."""
    shape = step.shape
    out: dict[str, Any] = {
        "technique": step.technique,
        "rating": step.rating,
        "placements": [[shape.cell_name(c), d] for c, d in step.placements],
        "eliminations": [[shape.cell_name(c), d] for c, d in step.eliminations],
        "cells": [shape.cell_name(c) for c in step.cells],
        "units": [shape.unit_name(u) for u in step.units],
        "digits": list(step.digits),
        "text": english(step),
        "compact": compact(step),
    }
    if step.chain:
        out["chain"] = [[shape.cell_name(c), d] for c, d in step.chain]
    if step.technique.startswith(("finned_", "sashimi_")):
        out["fins"] = [shape.cell_name(c) for c in step.detail[0]]
    if step.technique == "medusa_3d":
        out["colours"] = [[[shape.cell_name(c), d] for c, d in nodes] for nodes in step.detail[3:]]
    if step.technique in _ALS_TITLES:
        sets, rccs, _ = step.detail
        out["sets"] = [
            {"cells": [shape.cell_name(c) for c in cells], "digits": list(ds)} for cells, ds in sets
        ]
        out["links"] = [list(r) for r in rccs]
        out["notation"] = als_notation(step)
    if candidates and step.before is not None:
        out["candidates"] = pencilmarks(step.before)
    return out


_SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _token(v: int, wide: bool) -> str:
    if v < 0:
        return str(-v) if wide else _SYMBOLS[-v - 1]
    if wide:
        return ",".join(str(d) for d in digits(v)) or "!"
    return "".join(_SYMBOLS[d - 1] for d in digits(v)) or "!"


def pencilmarks(snapshot: tuple[int, ...] | list[int]) -> str:
    """A candidate grid on one line: one token per cell, placed cells as their digit
    (the format `CandidateState.from_candidates` reads; '!' marks a cell with none)."""
    wide = len(snapshot) > 35 * 35
    return " ".join(_token(v, wide) for v in snapshot)


def candidate_grid(snapshot: tuple[int, ...] | list[int], shape: Shape) -> str:
    """A candidate grid as a picture with boxes drawn; placed cells show their digit."""
    n = shape.size
    wide = n > 35
    tokens = [_token(v, wide) for v in snapshot]
    widths = [max(len(tokens[r * n + c]) for r in range(n)) for c in range(n)]
    lines = []
    rule = "-+-".join(
        "-" * (sum(widths[c : c + shape.box_cols]) + shape.box_cols - 1)
        for c in range(0, n, shape.box_cols)
    )
    for r in range(n):
        if r and r % shape.box_rows == 0:
            lines.append(rule)
        row = [tokens[r * n + c].ljust(widths[c]) for c in range(n)]
        lines.append(
            " | ".join(" ".join(row[c : c + shape.box_cols]) for c in range(0, n, shape.box_cols))
        )
    return "\n".join(lines)
