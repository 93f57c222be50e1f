"""Findings gathered per solver and kind, so a hundred wrong answers read as a few groups.

A report with many findings usually has few causes: one solver that botches
a cell, another that claims no solution.  Each group is one solver and one
kind (wrong answer or disagreement), in the report's solver order; renderers
show a line per group and fold the rows under it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from harness.report.findings import Finding


@dataclass(frozen=True)
class FindingGroup:
    """The findings of one solver of one kind, in the report's puzzle order."""

    solver: str
    kind: str
    findings: list[Finding]

    @property
    def puzzles(self) -> int:
        """How many puzzles the group concerns (forms of one puzzle count once)."""
        return len({(f.corpus, f.puzzle_id) for f in self.findings})

    @property
    def title(self) -> str:
        what = "wrong answer" if self.kind == "wrong" else "disagreement"
        count = len(self.findings)
        text = f"{self.solver}: {count} {what}{'s' if count != 1 else ''}"
        if self.puzzles != count:
            text += f" on {self.puzzles} puzzle{'s' if self.puzzles != 1 else ''}"
        return text


def group_findings(findings: Sequence[Finding], solvers: Sequence[str] = ()) -> list[FindingGroup]:
    """The findings per (solver, kind): solvers in `solvers` order (others after, by name),
    wrong answers before disagreements; each group keeps the findings' order."""
    position = {label: i for i, label in enumerate(solvers)}
    groups: dict[tuple[str, str], list[Finding]] = {}
    for finding in findings:
        groups.setdefault((finding.solver, finding.kind), []).append(finding)
    keys = sorted(groups, key=lambda k: (position.get(k[0], len(position)), k[0], k[1] != "wrong"))
    return [FindingGroup(solver, kind, groups[solver, kind]) for solver, kind in keys]


def grid_rows(text: str) -> tuple[str, list[str]]:
    """An answer split into its status and the rows of its grid, for a square display:
    ``"SOLVED 1234..."`` -> ``("SOLVED", ["1234", ...])``; ``(text, [])`` when the last
    word is not a square grid (4x4 up to 25x25)."""
    head, _, last = text.rpartition(" ")
    side = math.isqrt(len(last))
    if side < 4 or side > 25 or side * side != len(last) or any(c.isspace() for c in last):
        return text, []
    return head, [last[i : i + side] for i in range(0, len(last), side)]
