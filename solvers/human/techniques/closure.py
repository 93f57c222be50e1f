"""What a forcing-chain branch holds, computed on bitmasks without recording causes.

`forcing.Context.branch` follows an assumption fact by fact and records what
forced each one, which the rating needs; but most branches a search follows
end without a conclusion.  The rules a branch applies only ever add facts, so
the facts it ends with do not depend on the order it found them in: this
module computes that end state directly, digit by digit on cell bitmasks, and
says whether it holds a contradiction.  The search then follows, fact by fact,
only the branches whose end states can give a conclusion.

Rules, as in `forcing.Context.branch` (dynamic; nishio without the cell rules):

- on(c, d): off for c's other digits and for d in c's peers;
- a cell that lost a candidate, holds no on fact and has one candidate left:
  on for it (none left: a contradiction);
- a unit that lost a place for d and holds neither d nor an on fact for d, with
  one place left: on there (none left: a contradiction);
- a candidate both on and off: a contradiction.
"""

from __future__ import annotations

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


class Closure:
    """The start state of a search, per digit: the cells taking it and the units holding it."""

    def __init__(self, shape: Shape, cand: list[int], placed: list[int]) -> None:
        n = shape.size
        self.n = n
        self.off = shape.ncells * n
        self.unit_masks, self.peer_masks, self.cell_units = tables(shape)
        start = [0] * n
        for cell, m in enumerate(cand):
            b = 1 << cell
            while m:
                low = m & -m
                m ^= low
                start[low.bit_length() - 1] |= b
        self.start = start
        # per cell, its candidates' indices
        self.cell_digits = [[k for k in range(n) if m >> k & 1] for m in cand]
        self.placed = [sum(1 << u for u, p in enumerate(placed) if p >> k & 1) for k in range(n)]

    def facts(self, seed: int, links: bool = True) -> tuple[int, ...] | None:
        """The end state of the branch assuming `seed` (a node as in `forcing.Context`):
        per digit, the cells it is on in, then per digit the cells it is off in; None
        when the branch reaches a contradiction.  `links` False: nishio (no cell rules)."""
        n = self.n
        start = self.start
        peer_masks = self.peer_masks
        cell_units = self.cell_units
        placed = self.placed
        cell_digits = self.cell_digits
        left = start[:]  # cells still taking each digit
        on = [0] * n
        on_any = 0
        fresh = [0] * n  # cells that lost each digit since the rules last looked
        lost = 0  # the digits with fresh cells
        touched = 0  # the cells that lost a digit to a peer since the rules last looked
        pending: list[tuple[int, int]] = []
        if seed < self.off:
            pending.append(divmod(seed, n))
        else:
            cell, k = divmod(seed - self.off, n)
            left[k] &= ~(1 << cell)
            fresh[k] |= 1 << cell
            lost = 1 << k
            touched = 1 << cell
        while True:
            while pending:
                cell, k = pending.pop()
                b = 1 << cell
                if on[k] & b:
                    continue
                if not left[k] & b:
                    return None  # on and off
                on[k] |= b
                on_any |= b
                if links:
                    for j in cell_digits[cell]:
                        if j != k and left[j] & b:
                            if on[j] & b:
                                return None
                            left[j] ^= b
                            fresh[j] |= b
                            lost |= 1 << j
                pm = peer_masks[cell] & left[k]
                if pm:
                    if on[k] & pm:
                        return None
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
                        return None  # a cell without a candidate
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
                            return None  # no place left for the digit
                        if not p & (p - 1):
                            pending.append((p.bit_length() - 1, k))
            if not pending:
                return (*on, *[s & ~x for s, x in zip(start, left, strict=True)])

    def one_digit_conflict(self, cell: int, k: int) -> bool:
        """Whether the nishio branch of on(cell, k) (``facts(node, False)``, which stays on
        digit k) reaches a contradiction; faster than `facts` for that one question."""
        peer_masks = self.peer_masks
        cell_units = self.cell_units
        placed = self.placed[k]
        left = self.start[k]
        on = 0
        pending = [cell]
        while pending:
            fresh = 0
            for c in pending:
                b = 1 << c
                if on & b:
                    continue
                if not left & b:
                    return True  # on and off
                on |= b
                pm = peer_masks[c] & left
                if on & pm:
                    return True
                left ^= pm
                fresh |= pm
            pending = []
            seen = placed
            while fresh:
                low = fresh & -fresh
                fresh ^= low
                for ub, um in cell_units[low.bit_length() - 1]:
                    if seen & ub:
                        continue
                    seen |= ub
                    if on & um:
                        continue
                    p = left & um
                    if not p:
                        return True  # no place left for the digit
                    if not p & (p - 1):
                        pending.append(p.bit_length() - 1)
        return False
