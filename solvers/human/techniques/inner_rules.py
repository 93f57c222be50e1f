"""The rules a forcing-chain branch uses besides singles and locked candidates.

Sudoku Explainer's dynamic forcing chains (+) and its nested levels let a branch,
once its singles run dry, apply "other rules" to the branch's candidates, in order,
stopping at the first rule that concludes anything: locked candidates (`Context`
applies them itself), then hidden pairs, naked pairs and X-Wings (this module).  A
rule's conclusions are off facts resting on its *rule parents*: the off facts of the
branch that the rule needed (a rule that holds without any was true before the branch,
and the engine applies it itself, so it is left out).

Every rule here reads the branch's candidates as they stand (`cand`, `pos`), finds all
its conclusions first, and only then turns them into facts, in the order Sudoku
Explainer finds them (so that a candidate two conclusions remove rests on the first):

- hidden pair: two digits with the same two places in a unit (boxes, columns, rows),
  the unit having more than four open cells;
- naked pair: two cells of a unit with the same two digits (the unit having four open
  cells or more);
- X-Wing: two columns (then two rows) whose places for a digit are the same two rows
  (columns), the digit placed at most ``n - 4`` times.

"Open" and "placed" are the real grid's (`CandidateState.values`), as in Sudoku
Explainer, whose branches never place a digit.
"""

from __future__ import annotations

from functools import cache
from itertools import compress
from operator import itemgetter, ne
from typing import TYPE_CHECKING

from solvers.grid import Shape
from solvers.human.techniques.common import bits

if TYPE_CHECKING:
    from solvers.human.techniques.branches import Context

Found = tuple[int, ...] | None | bool
"""What a rule returns: False when it added facts, None when it found nothing, or the
two clashing facts of a contradiction it met."""


@cache
def _unit_order(shape: Shape) -> tuple[int, ...]:
    """Units in Sudoku Explainer's order for subsets: boxes, columns, rows."""
    n = shape.size
    return (*range(2 * n, 3 * n), *range(n, 2 * n), *range(n))


@cache
def _pairs(n: int) -> tuple[tuple[int, int], ...]:
    """Pairs (i, j), i < j < n, in Sudoku Explainer's order (by j, then i)."""
    return tuple((i, j) for j in range(n) for i in range(j))


def other_rules(ctx: Context, cand: list[int], pos: list[int], parents: dict, off) -> Found:
    """Hidden pairs, naked pairs, then X-Wings on a branch (see the module's docstring):
    the first that concludes anything adds its facts (with `off`)."""
    known = ctx.state.derived("inner-rules", _new_cache)
    key = tuple(cand)
    found = known.get(key)
    if found is None:
        found = known[key] = _first_rule(ctx, cand, pos, parents)
    return _apply(ctx.n, ctx.off, found, off) if found else None


def _new_cache(_state) -> dict:
    return {}


def _first_rule(ctx: Context, cand, pos, parents) -> list:
    """What the first of the rules that concludes anything concludes (kept per search state
    by the branch's candidates: the searches of the levels meet the same grids, and what a
    rule concludes and rests on depends on that grid and the start grid alone)."""
    n = ctx.n
    # the places (unit * n + digit) and the cells the branch changed: a rule resting on
    # no fact of the branch is left out, so the rules look only where these are
    moved = list(compress(range(len(pos)), map(ne, pos, ctx.pos)))
    units = {i // n for i in moved}
    found = _hidden_pairs(ctx, cand, pos, parents, units)
    if found:
        return found
    cell_units = ctx.state.shape.cell_units
    units = set()
    for c in compress(range(len(cand)), map(ne, cand, ctx.cand)):
        units.update(cell_units[c])
    found = _naked_pairs(ctx, cand, pos, parents, units)
    if found:
        return found
    return _x_wings(ctx, cand, pos, parents, moved)


def _apply(n: int, off_base: int, found: list, off) -> Found:
    for cell, k, why in found:
        if conflict := off(cell, k, why):
            return conflict
    return False


def _open_counts(ctx: Context) -> list[int]:
    """Per unit, its open cells in the real grid (kept on the context)."""
    counts = ctx.__dict__.get("open_counts")
    if counts is None:
        values = ctx.state.values
        counts = [sum(1 for c in cells if not values[c]) for cells in ctx.unit_cells]
        ctx.__dict__["open_counts"] = counts
    return counts


def _placed_counts(ctx: Context) -> list[int]:
    """Per digit (by value, 0 for open cells), its cells in the real grid (kept on the
    context)."""
    counts = ctx.__dict__.get("placed_counts")
    if counts is None:
        counts = [0] * (ctx.n + 1)
        for v in ctx.state.values:
            counts[v] += 1
        ctx.__dict__["placed_counts"] = counts
    return counts


def _hidden_pairs(ctx: Context, cand, pos, parents, moved: set[int]) -> list:
    """Hidden pairs in the units whose places the branch changed (`moved`)."""
    n = ctx.n
    off_base = ctx.off
    start_cand = ctx.cand
    counts = _open_counts(ctx)
    is_two = _two_bits(n).__contains__
    found: list[tuple[int, int, tuple[int, ...]]] = []
    for u in _unit_order(ctx.state.shape):
        if u not in moved or counts[u] <= 4:
            continue  # (a pair resting on no fact of the branch is left out)
        at = u * n
        ps = pos[at : at + n]
        pairs = list(filter(is_two, ps))  # (no two-place mask repeated: no pair; C loops)
        if len(set(pairs)) == len(pairs):
            continue
        twos: dict[int, list[int]] = {}
        for k, p in enumerate(ps):
            if p.bit_count() == 2:
                twos.setdefault(p, []).append(k)
        if not any(len(ks) > 1 for ks in twos.values()):
            continue
        cells = ctx.unit_cells[u]
        hits = sorted((b, a, p) for p, ks in twos.items() for a, b in _pairs_of(ks) if len(ks) > 1)
        for b, a, p in hits:
            keep = 1 << a | 1 << b
            removable = [(cells[i], j) for i in bits(p) for j in bits(cand[cells[i]] & ~keep)]
            if not removable:
                continue
            why = tuple(
                x
                for i in bits(((1 << len(cells)) - 1) & ~p)
                for k in (a, b)
                if start_cand[cells[i]] >> k & 1 and (x := off_base + cells[i] * n + k) in parents
            )
            if why:
                found.extend((c, j, why) for c, j in removable)
    return found


@cache
def _two_bits(n: int) -> frozenset[int]:
    """The masks of two bits below bit n (a pair's places or digits)."""
    return frozenset(1 << i | 1 << j for j in range(n) for i in range(j))


@cache
def _unit_getters(shape: Shape) -> tuple[itemgetter, ...]:
    """Per unit, the getter of its cells' masks from a list over cells, in its order."""
    return tuple(itemgetter(*cells) for cells in shape.units)


def _pairs_of(ks: list[int]) -> list[tuple[int, int]]:
    return [(ks[i], ks[j]) for j in range(len(ks)) for i in range(j)]


def _naked_pairs(ctx: Context, cand, pos, parents, moved: set[int]) -> list:
    """Naked pairs in the units holding a cell whose candidates the branch changed
    (`moved`)."""
    n = ctx.n
    off_base = ctx.off
    start_cand = ctx.cand
    counts = _open_counts(ctx)
    getters = _unit_getters(ctx.state.shape)
    is_two = _two_bits(n).__contains__
    found: list[tuple[int, int, tuple[int, ...]]] = []
    for u in _unit_order(ctx.state.shape):
        if u not in moved or counts[u] < 4:
            continue  # (a pair resting on no fact of the branch is left out)
        ms = getters[u](cand)
        pairs = list(filter(is_two, ms))  # (as in `_hidden_pairs`)
        if len(set(pairs)) == len(pairs):
            continue
        cells = ctx.unit_cells[u]
        twos: dict[int, list[int]] = {}
        for i, m in enumerate(ms):
            if m.bit_count() == 2:
                twos.setdefault(m, []).append(i)
        if not any(len(ix) > 1 for ix in twos.values()):
            continue
        hits = sorted((j, i, m) for m, ix in twos.items() for i, j in _pairs_of(ix) if len(ix) > 1)
        for j, i, m in hits:
            removable = [
                (c, k) for x, c in enumerate(cells) if x != i and x != j for k in bits(cand[c] & m)
            ]
            if not removable:
                continue
            why = tuple(
                y
                for c in (cells[i], cells[j])
                for k in bits(start_cand[c] & ~m)
                if (y := off_base + c * n + k) in parents
            )
            if why:
                found.extend((c, k, why) for c, k in removable)
    return found


def _x_wings(ctx: Context, cand, pos, parents, moved: list[int]) -> list:
    """X-Wings on the digits whose places in lines the branch changed (`moved`: unit * n +
    digit, ascending)."""
    n = ctx.n
    off_base = ctx.off
    start_pos = ctx.pos
    placed_count = _placed_counts(ctx)
    unit_cells = ctx.unit_cells
    is_two = _two_bits(n).__contains__
    found: list[tuple[int, int, tuple[int, ...]]] = []
    for base, cover in ((n, 0), (0, n)):  # columns first, then rows
        hits = []
        lo, hi = base * n, (base + n) * n
        digits = {i % n for i in moved if lo <= i < hi}
        for k in range(n):
            if k not in digits or placed_count[k + 1] + 4 > n:
                continue
            ps = pos[lo + k : hi : n]
            pairs = list(filter(is_two, ps))  # (as in `_hidden_pairs`)
            if len(set(pairs)) == len(pairs):
                continue
            twos: dict[int, list[int]] = {}
            changed = False
            for line in range(n):
                at = (base + line) * n + k
                p = pos[at]
                if p.bit_count() == 2:
                    twos.setdefault(p, []).append(line)
                    changed = changed or p != start_pos[at]
            if not changed:
                continue  # (a fish resting on no fact of the branch is left out)
            for p, lines in twos.items():
                for a, b in _pairs_of(lines):
                    hits.append((b, a, k, p))
        hits.sort()  # by pair of lines, then digit
        for b, a, k, p in hits:
            removable = [
                (unit_cells[cover + r][x], k)
                for r in bits(p)
                for x in bits(pos[(cover + r) * n + k] & ~(1 << a | 1 << b))
            ]
            if not removable:
                continue
            why = tuple(
                y
                for line in (a, b)
                for i in bits(start_pos[(base + line) * n + k] & ~pos[(base + line) * n + k] & ~p)
                if (y := off_base + unit_cells[base + line][i] * n + k) in parents
            )
            if why:
                found.extend((c, j, why) for c, j in removable)
    return found
