"""The English sentences of the techniques only variant puzzles have (see `trace.english`).

>>> from solvers.human.step import Step
>>> from solvers.grid import shape
>>> s = Step("non_consecutive", (), ((1, 4), (1, 6), (9, 4)), (0,), (), (5,), 1.0, shape(3, 3))
>>> print(english_variant(s, "removes 4 and 6 from r1c2; 4 from r2c1"))
Non-consecutive: r1c1 holds 5, so its orthogonal neighbours cannot hold 4 or 6: removes ...
"""

from __future__ import annotations

from solvers.human.step import Step


def _or(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def english_variant(step: Step, what: str) -> str:
    """One line saying what a variant technique found and what it does (`what`)."""
    shape = step.shape
    t = step.technique
    cells = ", ".join(shape.cell_name(c) for c in step.cells)
    if t == "non_consecutive":
        v = step.digits[0]
        near = [str(d) for d in (v - 1, v + 1) if 1 <= d <= shape.size]
        return (
            f"Non-consecutive: {shape.cell_name(step.cells[0])} holds {v}, so its orthogonal "
            f"neighbours cannot hold {_or(near)}: {what}"
        )
    if t == "cage_combinations":
        total, sets = step.detail
        cage = shape.unit_name(step.units[0])
        options = _or(["+".join(map(str, s)) for s in sets])
        kind = "different digits" if total is None else "digits"
        held = ""
        if step.digits:
            ds = "/".join(map(str, step.digits))
            every = "its set holds" if len(sets) == 1 else "every set holds"
            held = f"; {every} {ds}, and a cell that sees all its places for one loses it"
        return f"Cage combinations: {cage} takes the {kind} {options}{held}: {what}"
    if t == "house_pointing":
        d = step.digits[0]
        return (
            f"House pointing: in {shape.unit_name(step.units[0])}, {d} lies only in {cells}, "
            f"and the cells that see all of them cannot hold it: {what}"
        )
    if t == "rule_of_45":
        side, value = step.detail
        houses = _and([shape.unit_name(u) for u in step.units])
        total = len(step.units) * shape.size * (shape.size + 1) // 2
        if side == "innies":
            how = f"the cages wholly inside leave the innies {cells}, which sum to {value}"
        else:
            how = f"the cages that meet them stick out by the outies {cells}, which sum to {value}"
        return f"Rule of 45: the cells of {houses} sum to {total}; {how}: {what}"
    title = "Nishio (singles)" if t == "nishio_singles" else "Nishio (net)"
    follow = (
        "singles, the non-consecutive rule and cage combinations"
        if t == "nishio_singles"
        else "singles, the non-consecutive rule, cage combinations and intersections"
    )
    failures = "; ".join(f"{shape.cell_name(c)}={d} ({reason})" for c, d, reason in step.detail)
    return f"{title}: following {follow}, each assumption fails: {failures}: {what}"
