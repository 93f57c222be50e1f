"""Wings: XY-Wing, XYZ-Wing and W-Wing.

*XY-Wing*: a pivot with candidates xy sees two pincers xz and yz; whichever
digit the pivot takes, one pincer is z, so cells seeing both pincers lose z.
*XYZ-Wing*: the pivot is xyz; it, or one of the pincers, is z, so cells
seeing all three lose z.  *W-Wing*: two cells with the same pair xy that do
not see each other, joined by a strong link on x (a unit where x has two
places, one seeing each cell): one of them is y, so cells seeing both lose y.
"""

from __future__ import annotations

from solvers.human.state import CandidateState
from solvers.human.step import Step
from solvers.human.techniques.common import cells_with, eliminate_from, peer_masks

XY_RATING = 4.2
XYZ_RATING = 4.4
W_RATING = 7.1  # Sudoku Explainer: a forcing chain (7.0) of eight candidates (+0.1)


def _bivalue(state: CandidateState) -> list[int]:
    cand = state.cand
    return [c for c, m in enumerate(cand) if m and m.bit_count() == 2]


def xy_wing(state: CandidateState) -> Step | None:
    """Pivot xy, pincers xz and yz: cells seeing both pincers lose z."""
    cand = state.cand
    peers = peer_masks(state.shape)
    biv = _bivalue(state)
    for pivot in biv:
        pm = cand[pivot]
        wings = [c for c in biv if peers[pivot] >> c & 1 and (cand[c] & pm).bit_count() == 1]
        for i, a in enumerate(wings):
            for b in wings[i + 1 :]:
                ma, mb = cand[a], cand[b]
                if ma & mb & pm or ma == mb:
                    continue  # the pincers must share the pivot's two digits between them
                z = (ma & mb).bit_length()
                if not ma & mb:
                    continue
                targets = peers[a] & peers[b] & cells_with(state, z) & ~(1 << pivot)
                if targets:
                    return Step(
                        "xy_wing",
                        (),
                        eliminate_from(targets, z),
                        (pivot, a, b),
                        (),
                        (z,),
                        XY_RATING,
                        state.shape,
                    )
    return None


def xyz_wing(state: CandidateState) -> Step | None:
    """Pivot xyz, pincers xz and yz: cells seeing all three lose z."""
    cand = state.cand
    peers = peer_masks(state.shape)
    biv = _bivalue(state)
    for pivot, pm in enumerate(cand):
        if pm.bit_count() != 3:
            continue
        wings = [c for c in biv if peers[pivot] >> c & 1 and cand[c] & pm == cand[c]]
        for i, a in enumerate(wings):
            for b in wings[i + 1 :]:
                common = cand[a] & cand[b]
                if cand[a] == cand[b] or not common:
                    continue
                z = common.bit_length()
                targets = peers[pivot] & peers[a] & peers[b] & cells_with(state, z)
                if targets:
                    return Step(
                        "xyz_wing",
                        (),
                        eliminate_from(targets, z),
                        (pivot, a, b),
                        (),
                        (z,),
                        XYZ_RATING,
                        state.shape,
                    )
    return None


def strong_links(state: CandidateState, digit: int) -> list[tuple[int, int, int]]:
    """Units where `digit` has exactly two places: (unit, cell, cell); memoised."""
    return state.derived(f"links{digit}", lambda st: _strong_links(st, digit))


def _strong_links(state: CandidateState, digit: int) -> list[tuple[int, int, int]]:
    n = state.n
    pos = state.unit_positions()
    units = state.shape.units
    out = []
    k = digit - 1
    for u in range(3 * n):
        p = pos[u * n + k]
        if p.bit_count() == 2:
            low = p & -p
            out.append((u, units[u][low.bit_length() - 1], units[u][(p ^ low).bit_length() - 1]))
    return out


def w_wing(state: CandidateState) -> Step | None:
    """Equal pairs xy at A and B joined by a strong link on x: cells seeing A and B lose y."""
    cand = state.cand
    n = state.n
    peers = peer_masks(state.shape)
    biv = _bivalue(state)
    links = {}
    for i, a in enumerate(biv):
        for b in biv[i + 1 :]:
            if cand[a] != cand[b] or peers[a] >> b & 1:
                continue
            x_digits = [d for d in range(1, n + 1) if cand[a] >> (d - 1) & 1]
            for x in x_digits:
                y = x_digits[0] if x == x_digits[1] else x_digits[1]
                targets = peers[a] & peers[b] & cells_with(state, y)
                if not targets:
                    continue
                if x not in links:
                    links[x] = strong_links(state, x)
                for u, p, q in links[x]:
                    if a in (p, q) or b in (p, q):
                        continue
                    for end_a, end_b in ((p, q), (q, p)):
                        if peers[a] >> end_a & 1 and peers[b] >> end_b & 1:
                            return Step(
                                "w_wing",
                                (),
                                eliminate_from(targets, y),
                                (a, end_a, end_b, b),
                                (u,),
                                (x, y),
                                W_RATING,
                                state.shape,
                            )
    return None
