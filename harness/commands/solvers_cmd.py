"""`sudoku-bench solvers`: the table of registered solvers."""

from __future__ import annotations

import argparse
import json

from tabulate import tabulate

import solvers
from harness.commands import solvers_files


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
        "sizes": "any" if cls.sizes is None else ",".join(map(str, cls.sizes)),
        "available": available,
        "install": "" if available else cls.install_hint,
        "parameters": {k: p.default for k, p in cls.parameters.items()},
        "summary": cls.summary,
        "source": cls.source,
    }


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
            r["sizes"],
            "yes" if r["available"] else f"no: {r['install']}",
            r["summary"],
        ]
        for r in rows
    ]
    print(
        tabulate(
            table,
            headers=["name", "family", "complete", "sizes", "available", "summary"],
            maxcolwidths=[None, None, None, None, 30, 60],
        )
    )
    return 0
