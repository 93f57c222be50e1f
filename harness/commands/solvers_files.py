"""``--solvers-file FILE``: external solvers defined in TOML, for every command that takes solvers."""

from __future__ import annotations

import argparse

from harness.runner import load_solvers_files


def add_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--solvers-file",
        action="append",
        default=[],
        metavar="FILE",
        help="a TOML file naming external programs as solvers (repeatable; see the docs, "
        "'Your own program as a solver')",
    )


def load(args: argparse.Namespace) -> tuple[str, ...]:
    """Register the solvers the given files define; their absolute paths."""
    return load_solvers_files(args.solvers_file)
