"""The `sudoku-bench` command: one sub-command per module in `harness.commands`.

Each command module defines ``add_parser(subparsers)``, which returns its
parser with ``set_defaults(run=...)``; ``run(args) -> int`` does the work and
returns the exit status.  Expected failures (bad input, unknown solver,
corrupt database) raise `CommandError` or a `ValueError` subclass and are
printed as one line on stderr with exit status 2 — never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from harness.errors import CommandError, friendly_errors

# The commands, in the order `--help` lists them.
COMMANDS = [
    "harness.commands.solvers_cmd",
    "harness.commands.solve",
    "harness.commands.run",
    "harness.commands.verify",
    "harness.commands.bench",
    "harness.commands.report",
    "harness.commands.rate",
    "harness.commands.explain",
    "harness.commands.generate",
    "harness.commands.export",
    "harness.commands.corpora_cmd",
]

EPILOG = """examples:
  sudoku-bench solvers
  sudoku-bench solve "1...3..2...3..2." --solver dlx --limit 2
  sudoku-bench solve puzzles.txt --json
  sudoku-bench bench --solver dlx puzzles.txt

Run 'sudoku-bench COMMAND --help' for a command's options and examples."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sudoku-bench",
        description="Compare Sudoku solving methods: solve, benchmark, cross-check and report.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    from harness import __version__

    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in COMMANDS:
        importlib.import_module(module).add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return 2
    with friendly_errors() as outcome:
        outcome.status = args.run(args)
        sys.stdout.flush()  # a reader gone (`| head`) shows here, not at interpreter exit
    return outcome.status


if __name__ == "__main__":
    sys.exit(main())

__all__ = ["CommandError", "build_parser", "main"]
