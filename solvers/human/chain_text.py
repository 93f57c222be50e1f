"""A forcing chain's links in words: the implications from each assumption, nested ones indented.

Each branch reads as implication chains, 'r1c1=1 -> r1c5<>1 -> r2c6=1': a fact follows
the one before it when that fact alone forced it; a fact forced by several starts a line
naming them, 'r2c6<>1 + r2c8<>1 -> r2c9=1'.  A fact a nested chain gave reads
'r1c4<>9 + r1c6<>9 -> r4c4<>5 (r4c4=5 leads to a contradiction:)' (the outer facts the
nested chain needed, then the fact), with the nested chain below it, indented.

>>> from solvers.grid import shape
>>> links = (Link(0, ()), Link(90, (0,)), Link(99, (0,)), Link(10, (90,)), Link(19, (99,)),
...          Link(91, (19,)))  # r1c2 and r1c3 hold 1 and 2 only
>>> p = Proof("contradiction", (BranchProof(0, links, (10, 91), True),), 81, 9, 81, shape(3, 3))
>>> print("\\n".join(proof_lines(p)))
If r1c1=1:
  r1c1=1 -> r1c2<>1 -> r1c2=2
  r1c1=1 -> r1c3<>1 -> r1c3=2 -> r1c2<>2
  r1c2=2 and r1c2<>2 cannot both hold
so r1c1<>1
"""

from __future__ import annotations

from solvers.human.proof import BranchProof, Link, Proof

INDENT = "  "


def _branch_lines(proof: Proof, b: BranchProof, depth: int) -> list[str]:
    """The links of one branch, one implication chain a line, and how it ends: a line
    starts at the first fact not yet told (naming its causes) and follows, while there is
    one, a fact that the line's last fact alone forced."""
    pad = INDENT * depth
    lines: list[str] = []
    told: set[int] = set()
    sole: dict[int, list[Link]] = {}  # fact -> the facts it alone forced, in order found
    for link in b.links:
        if len(link.because) == 1 and not link.refuted:
            sole.setdefault(link.because[0], []).append(link)
    for link in b.links:
        if link.fact in told:
            continue
        told.add(link.fact)
        name = proof.name(link.fact)
        if link.refuted:
            causes = " + ".join(proof.name(x) for x in link.because)
            text = f"{causes} -> {name}" if causes else name
            if link.cases:  # an inner cell or unit chain: every case, each to the same end
                end = proof.name(link.cases[0].end[0])
                lines.append(f"{pad}{text} (every case below gives {end}:)")
                for case in link.cases:
                    lines.append(f"{pad}{INDENT}If {proof.name(case.seed)}:")
                    lines += _branch_lines(proof, case, depth + 2)
                continue
            why = "leads to a contradiction" + (":" if link.nested else "")
            lines.append(f"{pad}{text} ({proof.name(_negation(proof, link.fact))} {why})")
            if link.nested is not None:
                lines += _branch_lines(proof, link.nested, depth + 1)
            continue
        causes = " + ".join(proof.name(x) for x in link.because)
        text = f"{causes} -> {name}" if causes else name
        tail = link.fact
        while True:
            nxt = next((k for k in sole.get(tail, ()) if k.fact not in told), None)
            if nxt is None:
                break
            told.add(nxt.fact)
            text += f" -> {proof.name(nxt.fact)}"
            tail = nxt.fact
        lines.append(pad + text)
    if b.clash:
        on, off = b.end
        lines.append(f"{pad}{proof.name(on)} and {proof.name(off)} cannot both hold")
    return lines


def _negation(proof: Proof, node: int) -> int:
    return node + proof.off if node < proof.off else node - proof.off


def proof_lines(proof: Proof) -> list[str]:
    """Every branch of a forcing chain: the assumption, its implications, the ending,
    and the conclusion they give together."""
    lines: list[str] = []
    for b in proof.branches:
        lines.append(f"If {proof.name(b.seed)}:")
        lines += _branch_lines(proof, b, 1)
        if not b.clash:
            lines.append(f"{INDENT}so {proof.name(proof.target)}")
    if proof.kind == "contradiction":
        lines.append(f"so {proof.name(proof.target)}")
    else:
        lines.append(f"Every case gives {proof.name(proof.target)}")
    return lines


__all__ = ["BranchProof", "Link", "Proof", "proof_lines"]
