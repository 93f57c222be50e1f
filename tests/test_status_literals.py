"""Statuses and verdicts are written as enum members, never as bare strings.

`solvers.Status` and `harness.records.Verdict` are string enums: a member equals its
text, so a stray ``status == "SOLVED"`` works today and silently stops matching the
day a value is renamed or a typo slips in.  Every string constant of the packages is
read with `ast`; one that spells a status or a verdict may only stand in the enum
definitions themselves, or in a backend's own vocabulary (`FOREIGN`: words of another
program that merely share a spelling).  Docstrings and ``__all__`` lists are prose
and names, not values, and are left out.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from harness.records import Verdict
from solvers.base import Status

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("solvers", "corpora", "harness")
WORDS = {member.value for member in (*Status, *Verdict)}
ENUMS = {("solvers/base.py", "Status"): Status, ("harness/records.py", "Verdict"): Verdict}
FOREIGN = {
    ("solvers/cp/cpmpy.py", "UNKNOWN"): "CPMpy's ExitStatus names",
    ("solvers/cp/cpmpy.py", "ERROR"): "CPMpy's ExitStatus names",
    ("solvers/cp/cpsat.py", "UNKNOWN"): "CP-SAT's CpSolverStatus names",
    ("solvers/cp/minizinc.py", "UNKNOWN"): "MiniZinc's result statuses",
    ("solvers/cp/minizinc.py", "ERROR"): "MiniZinc's result statuses",
    ("solvers/sat/dimacs.py", "UNKNOWN"): "SAT solvers' answer words",
}


class _Literals(ast.NodeVisitor):
    """Collects (line, word, enclosing class) for each string constant spelling a word."""

    def __init__(self, words: set[str]) -> None:
        self.words = words
        self.classes: list[str] = []
        self.found: list[tuple[int, str, str | None]] = []

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.classes.append(node.name)
        self.generic_visit(node)
        self.classes.pop()

    def visit_Expr(self, node: ast.Expr) -> None:
        if not (isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)):
            self.generic_visit(node)  # a docstring (or any bare string) is prose

    def visit_Assign(self, node: ast.Assign) -> None:
        if not any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        if isinstance(node.value, str) and node.value in self.words:
            where = self.classes[-1] if self.classes else None
            self.found.append((node.lineno, node.value, where))


def literals(source: str, words: set[str] = WORDS) -> list[tuple[int, str, str | None]]:
    """(line, word, enclosing class or None) for every string constant of `source` that
    spells one of `words`, in source order."""
    visitor = _Literals(words)
    visitor.visit(ast.parse(source))
    return sorted(visitor.found)


def scan() -> dict[str, list[tuple[int, str, str | None]]]:
    """The literals of every module of the packages, by path relative to the root."""
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            hits = literals(path.read_text(encoding="utf-8"))
            if hits:
                found[path.relative_to(ROOT).as_posix()] = hits
    return found


@pytest.fixture(scope="module")
def found() -> dict[str, list[tuple[int, str, str | None]]]:
    return scan()


def test_no_status_or_verdict_is_spelled_as_a_string(found):
    stray = [
        f"{path}:{line} {word!r}"
        for path, hits in found.items()
        for line, word, where in hits
        if (path, where) not in ENUMS and (path, word) not in FOREIGN
    ]
    assert stray == [], "use the Status or Verdict member"


def test_the_scan_finds_the_enum_definitions(found):
    # the check is only as good as its reading: it must see each member's own value
    for (path, name), enum in ENUMS.items():
        seen = [word for _, word, where in found.get(path, []) if where == name]
        assert seen == [member.value for member in enum], name


def test_every_foreign_vocabulary_is_still_there(found):
    present = {(path, word) for path, hits in found.items() for _, word, _ in hits}
    assert set(FOREIGN) <= present, "drop the entries of FOREIGN that no longer occur"


def test_the_scan_sees_a_planted_literal_and_skips_prose():
    planted = "\n".join(
        [
            '"""SOLVED"""',  # 1: a docstring
            '__all__ = ["STUCK"]',  # 2: names, not values
            'if r.status == "SOLVED" or r.verdict in ("WRONG",):',  # 3
            "    pass",
            "class Status:",
            '    TIMEOUT = "TIMEOUT"',  # 6: inside a class
            'counts = {"MEMOUT": 1, "solved": 2}',  # 7: a key; the lower case is not a word
        ]
    )
    assert literals(planted) == [
        (3, "SOLVED", None),
        (3, "WRONG", None),
        (6, "TIMEOUT", "Status"),
        (7, "MEMOUT", None),
    ]


def test_members_are_their_text():
    assert Status.SOLVED == "SOLVED"
    assert f"{Status.TIMEOUT}" == "TIMEOUT"
    assert Verdict.WRONG == "WRONG"
    assert str(Verdict.UNKNOWN) == "UNKNOWN"
    assert {member.value for member in Verdict} == {"CORRECT", "WRONG", "UNKNOWN"}
