"""The README stays true: quick start matches CI, and the solver table matches the registry."""

from __future__ import annotations

import re
from pathlib import Path

import solvers

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _quick_start_commands() -> list[str]:
    section = README.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```bash\n(.+?)\n```", section)


def test_quick_start_is_exactly_two_commands():
    commands = _quick_start_commands()
    assert len(commands) == 2
    assert all("\n" not in c for c in commands)
    assert commands[0].startswith("pip install . && sudoku-bench run ")
    assert "sudoku-bench report" in commands[0]


def test_ci_runs_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    test_command = _quick_start_commands()[1]
    assert test_command.replace("pip install ", "pip install --quiet ") in ci


def test_solver_table_lists_every_builtin_solver():
    table = README.split("<!-- solver-table -->", 1)[1].split("<!-- /solver-table -->", 1)[0]
    listed = re.findall(r"^\| `([\w-]+)` \|", table, flags=re.M)
    assert listed == list(solvers.registry.BUILTIN), "add a row per solver to the README table"
