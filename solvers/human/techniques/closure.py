"""What a forcing-chain branch holds, computed on bitmasks without recording causes.

`branches.Context.branch` follows an assumption fact by fact and records what
forced each one, which the rating needs; but most branches a search follows
end without a conclusion.  The rules a branch applies only ever add facts, so
the facts it ends with do not depend on the order it found them in: this
module computes that end state directly, digit by digit on cell bitmasks, and
says whether it holds a contradiction.  The search then follows, fact by fact,
only the branches whose end states can give a conclusion.

End states are packed in one int (`Closure.pack`).  Since the rules only add
facts, an end state can start from another one the branch holds (`Closure.end`'s
`base`) or, on a grid without singles, from the branch's end state on the grid
the engine's steps came from (`Closure.end_since`); and a branch that held no
fact near the candidates the steps removed ends as it did (`changed_mask`).

Rules, as in `branches.Context.branch` (dynamic; nishio without the cell rules):

- on(c, d): off for c's other digits and for d in c's peers;
- a cell that lost a candidate, holds no on fact and has one candidate left:
  on for it (none left: a contradiction);
- a unit that lost a place for d and holds neither d nor an on fact for d, with
  one place left: on there (none left: a contradiction);
- a candidate both on and off: a contradiction.
"""

from __future__ import annotations

import sys
from array import array
from functools import cache

from solvers.grid import Shape


@cache
def tables(shape: Shape) -> tuple[tuple[int, ...], tuple[int, ...], tuple[tuple, ...]]:
    """Unit masks over cells, peer masks over cells, and each cell's units as
    (bit of the unit, its mask over cells) pairs."""
    units = tuple(sum(1 << c for c in cells) for cells in shape.units)
    peers = tuple(sum(1 << p for p in ps) for ps in shape.peers)
    cell_units = tuple(tuple((1 << u, units[u]) for u in us) for us in shape.cell_units)
    return units, peers, cell_units


@cache
def _reach_masks(shape: Shape) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per cell, packed (`Closure.pack`): every fact in the cell; and, for digit 1, on
    and off in the cell and its peers (shift by ``k * ncells`` for digit k + 1)."""
    n = shape.size
    ncells = shape.ncells
    _, peers, _ = tables(shape)
    column = tuple(sum(1 << (i * ncells + c) for i in range(2 * n)) for c in range(ncells))
    near = tuple((peers[c] | 1 << c) | (peers[c] | 1 << c) << (n * ncells) for c in range(ncells))
    return column, near


def changed_mask(
    shape: Shape, old_cand: list[int], old_placed: list[int], cand: list[int], placed: list[int]
) -> int | None:
    """The facts (packed, `Closure.pack`) a branch of the old grid must not hold for its
    `Closure.end` to be that of the new grid too; None when the new grid is not the old
    one with candidates removed (and digits placed).

    A branch reads only the candidates of the cells it holds facts in and, for each
    digit it holds facts of, that digit's candidates in their peers (and whether the
    units there have it placed).  So a removed candidate (c, d) changes nothing unless
    the branch holds a fact in c, or a fact of d in c or a peer of c."""
    n = shape.size
    ncells = shape.ncells
    column, near = _reach_masks(shape)
    out = 0
    for c, (was, now) in enumerate(zip(old_cand, cand, strict=True)):
        if now & ~was:
            return None
        gone = was & ~now
        if gone:
            out |= column[c]
            while gone:
                low = gone & -gone
                gone ^= low
                out |= near[c] << ((low.bit_length() - 1) * ncells)
    unit_masks = tables(shape)[0]
    for u, (was, now) in enumerate(zip(old_placed, placed, strict=True)):
        if was & ~now:
            return None
        gained = now & ~was
        while gained:
            low = gained & -gained
            gained ^= low
            m = unit_masks[u] | unit_masks[u] << (n * ncells)
            out |= m << ((low.bit_length() - 1) * ncells)
    return out


def since(
    shape: Shape,
    old_cand: list[int],
    old_placed: list[int],
    cand: list[int],
    placed: list[int],
    values: list[int],
) -> tuple[int, list[int]] | None:
    """How a grid came from an earlier one (`old_cand`, `old_placed`) by steps, for
    `Closure.end_since`: the facts (packed) the steps contradict (on for a removed
    candidate not placed, off for a placed one), and per digit the cells that lost it.
    None unless the new grid is the old one with candidates removed and candidates placed
    (`changed_mask` is not None, and every digit a unit gained was a candidate of the cell
    it is placed in)."""
    n = shape.size
    ncells = shape.ncells
    clash = 0
    lost = [0] * n
    gained = [0] * len(placed)  # the digits the units gained by the placements
    for c, (was, now) in enumerate(zip(old_cand, cand, strict=True)):
        if now & ~was:
            return None
        gone = was & ~now
        if not gone:
            continue
        b = 1 << c
        if not now and values[c]:
            k = values[c] - 1
            if not was >> k & 1:
                return None
            clash |= b << ((n + k) * ncells)  # placed: off clashes
            gone ^= 1 << k
            for u in shape.cell_units[c]:
                gained[u] |= 1 << k
        while gone:
            low = gone & -gone
            gone ^= low
            k = low.bit_length() - 1
            clash |= b << (k * ncells)
            lost[k] |= b
    for was, now, got in zip(old_placed, placed, gained, strict=True):
        if was & ~now or (now & ~was) != got:
            return None
    return clash, lost


_BIT_CHARS = tuple(bytes(0x31 if b >> k & 1 else 0x30 for b in range(256)) for k in range(8))
"""Per bit k of a byte, the byte translation giving '1' where a byte has it, else '0'."""

_LOW_FIRST = sys.byteorder == "little"


def digit_cells(cand: list[int], n: int) -> list[int]:
    """Per digit index, the cells taking it, as a bitmask.  (Up to 16 digits, as binary
    numerals read from the masks' bytes: no Python loop over the cells.)"""
    if n <= 16:
        raw = array("H", cand).tobytes()
        lows, highs = (raw[0::2], raw[1::2]) if _LOW_FIRST else (raw[1::2], raw[0::2])
        lows = lows[::-1]  # (cell 0 is the numeral's last digit)
        out = [int(lows.translate(_BIT_CHARS[k]), 2) for k in range(min(n, 8))]
        if n > 8:
            highs = highs[::-1]
            out.extend(int(highs.translate(_BIT_CHARS[k]), 2) for k in range(n - 8))
        return out
    start = [0] * n
    for cell, m in enumerate(cand):
        b = 1 << cell
        while m:
            low = m & -m
            m ^= low
            start[low.bit_length() - 1] |= b
    return start


def placed_units(placed: list[int], n: int) -> list[int]:
    """Per digit index, the units it is placed in, as a bitmask (`placed`: per unit, the
    digits placed there)."""
    out = [0] * n
    for u, p in enumerate(placed):
        while p:
            low = p & -p
            p ^= low
            out[low.bit_length() - 1] |= 1 << u
    return out


class Closure:
    """The start state of a search, per digit: the cells taking it and the units holding it."""

    def __init__(self, shape: Shape, cand: list[int], placed: list[int]) -> None:
        n = shape.size
        self.n = n
        self.off = shape.ncells * n
        self.ncells = shape.ncells
        self.unit_masks, self.peer_masks, self.cell_units = tables(shape)
        self.start = digit_cells(cand, n)
        self.open = sum(1 << c for c, m in enumerate(cand) if m)  # cells with candidates
        # per cell, its candidates' indices
        self.cell_digits = [[k for k in range(n) if m >> k & 1] for m in cand]
        self.placed = placed_units(placed, n)

    def facts(self, seed: int, links: bool = True) -> int | None:
        """The end state of the branch assuming `seed` (a node as in `branches.Context`),
        packed (`pack`): the facts it holds, on and off; None when the branch reaches a
        contradiction.  `links` False: nishio (no cell rules)."""
        return self.end(seed, links)[0]

    def end(self, seed: int, links: bool = True, base: int = 0) -> tuple[int | None, int]:
        """`facts`, and the facts the branch held when it stopped (packed, the seed
        included).  The branch looked only at the candidates of those facts' cells and at
        the candidates of their digits in the cells they see, so on a grid that differs
        from this one elsewhere alone (`changed_mask`) it ends the same way.

        `base` (packed, dynamic branches) is the end state of the branch of a fact this
        branch holds: the rules only ever add facts, so this branch holds all of those,
        and the rules start from them, looking only at what the seed adds."""
        n = self.n
        on = [0] * n
        left = self.start[:]  # cells still taking each digit
        fresh = [0] * n
        pending: list[tuple[int, int]] = []
        if base:
            failed = self._from(seed, links, base, on, left, fresh, pending)
        elif seed < self.off:
            pending.append(divmod(seed, n))
            failed = self._close(links, on, left, fresh, 0, 0, pending)
        else:
            cell, k = divmod(seed - self.off, n)
            left[k] &= ~(1 << cell)
            fresh[k] = 1 << cell
            failed = self._close(links, on, left, fresh, 1 << k, 1 << cell, pending)
        held = self.pack(on, left)
        if failed:
            if seed < self.off:
                cell, k = divmod(seed, n)
                held |= 1 << (k * self.ncells + cell)
            return None, held
        return held, held

    def end_since(
        self, facts: int | None, clash: int, lost: list[int], links: bool = True
    ) -> tuple[int | None, int]:
        """`end` of a seed on this grid from `facts`, its branch's end state (packed, None:
        a contradiction) on an earlier grid this one came from by true steps (`since`:
        `clash`, `lost`), when this grid has no singles: no open cell with one candidate,
        no unit with one place for a digit it lacks.  (The facts it held when it stopped
        are not one branch's here: -1 when it ends in a contradiction.)

        On such a grid the branch holds whatever it held on the earlier one: the
        earlier branch with the steps' facts added (off for the removed candidates, on
        for the placed digits) follows the rules of this grid, because a cell or unit
        left with one candidate or place must have lost one to the branch.  So the
        branch is in a contradiction when it was before or when it held a fact the steps
        contradict, and otherwise the rules start from what it held, looking again only
        at the cells and units that lost candidates."""
        if facts is None or facts & clash:
            return None, -1
        n = self.n
        ncells = self.ncells
        start = self.start
        on = [facts >> (k * ncells) & m for k, m in enumerate(start)]
        left = [m & ~(facts >> ((n + k) * ncells)) for k, m in enumerate(start)]
        fresh = lost[:]
        digits = touched = 0
        for k, m in enumerate(lost):
            if m:
                digits |= 1 << k
                touched |= m
        touched &= self.open
        if self._close(links, on, left, fresh, digits, touched, []):
            return None, -1
        held = self.pack(on, left)
        return held, held

    def _from(
        self,
        seed: int,
        links: bool,
        base: int,
        on: list[int],
        left: list[int],
        fresh: list[int],
        pending: list[tuple[int, int]],
    ) -> bool:
        """`_close` from the facts `base` holds (closed under the rules) and `seed`."""
        n = self.n
        ncells = self.ncells
        full = (1 << ncells) - 1
        for k in range(n):
            on[k] = base >> (k * ncells) & full
            left[k] &= ~(base >> ((n + k) * ncells))
        cell, k = divmod(seed % self.off, n)
        b = 1 << cell
        if seed < self.off:
            if on[k] & b:
                return False  # nothing new
            pending.append((cell, k))
            return self._close(links, on, left, fresh, 0, 0, pending)
        if on[k] & b:
            return True  # on and off
        if not left[k] & b:
            return False  # nothing new
        left[k] ^= b
        fresh[k] = b
        return self._close(links, on, left, fresh, 1 << k, b, pending)

    def pack(self, on: list[int], left: list[int]) -> int:
        """Facts as one int: bit ``i * ncells + cell`` for on(cell, digit i + 1) when
        i < n, for off(cell, digit i - n + 1) when i >= n (off: in the start state, not
        in `left`)."""
        ncells = self.ncells
        out = 0
        shift = 0
        for m in on:
            out |= m << shift
            shift += ncells
        for s, x in zip(self.start, left, strict=True):
            out |= (s & ~x) << shift
            shift += ncells
        return out

    def _close(
        self,
        links: bool,
        on: list[int],
        left: list[int],
        fresh: list[int],
        lost: int,
        touched: int,
        pending: list[tuple[int, int]],
    ) -> bool:
        """Apply the rules to `on` and `left` (changed in place) until nothing more
        follows: True when they reach a contradiction.  What they must look at: `fresh`,
        per digit the cells that lost it since the rules last looked; `lost`, the digits
        with fresh cells; `touched`, the cells that lost a digit to a peer since; and
        `pending`, the on facts to apply, as (cell, digit index)."""
        n = self.n
        peer_masks = self.peer_masks
        cell_units = self.cell_units
        placed = self.placed
        cell_digits = self.cell_digits
        on_any = 0
        for m in on:
            on_any |= m
        while True:
            while pending:
                cell, k = pending.pop()
                b = 1 << cell
                if on[k] & b:
                    continue
                if not left[k] & b:
                    return True  # on and off
                on[k] |= b
                on_any |= b
                if links:
                    for j in cell_digits[cell]:
                        if j != k and left[j] & b:
                            if on[j] & b:
                                return True
                            left[j] ^= b
                            fresh[j] |= b
                            lost |= 1 << j
                pm = peer_masks[cell] & left[k]
                if pm:
                    if on[k] & pm:
                        return True
                    left[k] ^= pm
                    fresh[k] |= pm
                    lost |= 1 << k
                    touched |= pm
            if links:
                # (a cell that lost a digit to an on fact in it holds that on fact)
                touched &= ~on_any
                if touched:
                    ones = twos = 0
                    for m in left:
                        m &= touched
                        twos |= ones & m
                        ones |= m
                    if touched & ~ones:
                        return True  # a cell without a candidate
                    single = ones & ~twos
                    if single:
                        for k in range(n):
                            m = left[k] & single
                            while m:
                                low = m & -m
                                m ^= low
                                pending.append((low.bit_length() - 1, k))
            touched = 0
            while lost:
                low = lost & -lost
                lost ^= low
                k = low.bit_length() - 1
                f = fresh[k]
                fresh[k] = 0
                seen = placed[k]
                lk = left[k]
                ok = on[k]
                while f:
                    low = f & -f
                    f ^= low
                    for ub, um in cell_units[low.bit_length() - 1]:
                        if seen & ub:
                            continue
                        seen |= ub
                        if ok & um:
                            continue
                        p = lk & um
                        if not p:
                            return True  # no place left for the digit
                        if not p & (p - 1):
                            pending.append((p.bit_length() - 1, k))
            if not pending:
                return False
