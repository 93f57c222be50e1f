"""`sudoku-bench solvers`: the table of registered solvers."""

from __future__ import annotations

import argparse
import json
import shutil
from collections.abc import Sequence

import solvers
from harness.commands import solvers_files
from harness.commands.fit import fitted_table


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = sub.add_parser(
        "solvers",
        help="list the registered solvers",
        description="List every registered solver: family, completeness, sizes, "
        "whether its backend is installed (with the command that installs it), "
        "its parameters, and a one-line summary.",
        epilog="examples:\n  sudoku-bench solvers\n  sudoku-bench solvers --json\n"
        "  sudoku-bench solvers --solvers-file my.toml   # with your own programs",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    solvers_files.add_argument(parser)
    parser.set_defaults(run=run)
    return parser


def describe(name: str) -> dict:
    """One solver's row, as plain data."""
    cls = solvers.solver_class(name)
    available = cls.supported()
    return {
        "name": name,
        "family": cls.family,
        "complete": cls.complete,
        "sizes": None if cls.sizes is None else list(cls.sizes),  # sides; None: any
        "constraints": sorted(cls.constraint_kinds),  # kinds beyond the classic rules
        "available": available,
        "install": "" if available else cls.install_hint,
        "parameters": {k: p.default for k, p in cls.parameters.items()},
        "summary": cls.summary,
        "source": cls.source,
    }


def sides_text(sizes: Sequence[int] | None) -> str:
    """Sides as short ranges: ``any``, ``9``, ``4, 9, 16``, ``2..25``."""
    if sizes is None:
        return "any"
    runs: list[list[int]] = []
    for side in sorted(sizes):
        if runs and side == runs[-1][-1] + 1:
            runs[-1].append(side)
        else:
            runs.append([side])
    return ", ".join(f"{r[0]}..{r[-1]}" if len(r) > 2 else ", ".join(map(str, r)) for r in runs)


def run(args: argparse.Namespace) -> int:
    solvers_files.load(args)
    rows = [describe(name) for name in solvers.names()]
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    table = [
        [
            r["name"],
            r["family"],
            "yes" if r["complete"] else "no",
            sides_text(r["sizes"]),
            "yes" if r["available"] else "no",
            r["summary"],
        ]
        for r in rows
    ]
    headers = ["name", "family", "complete", "sides", "available", "summary"]
    print(fitted_table(table, headers, shutil.get_terminal_size().columns, [None, None, None, 12]))
    for r in rows:  # whole lines, so the commands can be copied
        if not r["available"]:
            print(f"{r['name']} is not installed: {r['install']}")
    return 0
