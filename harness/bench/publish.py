"""Refresh the figures of the benchmarks page by running the commands written in it.

A figure block on ``docs/benchmarks.md`` names its command in an opening
marker and holds that command's output::

    <!-- bench: python -m harness.bench.hodoku gen9-easy --sample 50 -->
    ...what the command printed...
    <!-- /bench -->

``python -m harness.bench.publish`` runs the command of every block (or of the
blocks whose command contains ``--only TEXT``) from the repository's root,
and puts its standard output back in the block with a line saying which
command printed it, at which commit, on which machine and at what load.  So
figures are never edited by hand, and every figure says where it came from.
Environment variables in a command are expanded (``$SUDOKU_BENCH_CORPORA``
names the folder of the public collections).  ``--dry-run`` lists the
blocks without running them.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from harness.environment import git_commit, load_average, machine

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "benchmarks.md"
BLOCK = re.compile(r"<!-- bench: (?P<command>.+?) -->\n(?P<body>.*?)<!-- /bench -->", re.S)


@dataclass(frozen=True)
class Block:
    """One figure block: its command and where its body sits in the page."""

    command: str
    start: int  # offset of the body
    end: int


def blocks(text: str) -> list[Block]:
    """The figure blocks of a page, in order."""
    return [Block(m["command"], m.start("body"), m.end("body")) for m in BLOCK.finditer(text)]


def provenance(command: str) -> str:
    """The line under a block's figures: command, commit, machine, load."""
    facts = machine()
    commit = git_commit(ROOT) or "unknown commit"
    load = load_average()
    where = f"{facts.get('cpu') or 'unknown CPU'}, {facts.get('cores')} cores"
    at_load = f", load average {load[0]:.1f}" if load else ""
    return f"Printed by `{command}` at commit {commit[:10]} on {where}{at_load}."


def refresh(text: str, outputs: dict[str, str]) -> str:
    """The page with each block whose command has an output replaced by that output."""
    pieces, last = [], 0
    for block in blocks(text):
        if block.command not in outputs:
            continue
        body = outputs[block.command].rstrip("\n")
        pieces += [text[last : block.start], f"{body}\n\n{provenance(block.command)}\n"]
        last = block.end
    return "".join(pieces) + text[last:]


def run(command: str) -> str:
    """Run one block's command from the repository's root and return what it printed."""
    done = subprocess.run(
        shlex.split(os.path.expandvars(command).replace("python ", f"{sys.executable} ", 1)),
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    if done.returncode != 0:
        raise RuntimeError(f"`{command}` failed ({done.returncode}): {done.stderr.strip()[-500:]}")
    return done.stdout


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m harness.bench.publish",
        description=__doc__.split("\n\n")[0],
        epilog="example: python -m harness.bench.publish --only harness.bench.hodoku",
    )
    parser.add_argument("--page", type=Path, default=PAGE, help="the page (default: %(default)s)")
    parser.add_argument("--only", default="", help="refresh blocks whose command contains TEXT")
    parser.add_argument("--dry-run", action="store_true", help="list the blocks, run nothing")
    args = parser.parse_args(argv)
    text = args.page.read_text(encoding="utf-8")
    chosen = [b.command for b in blocks(text) if args.only in b.command]
    if args.dry_run or not chosen:
        for command in chosen:
            print(command)
        if not chosen:
            print(f"no figure block in {args.page} matches {args.only!r}", file=sys.stderr)
        return 0 if chosen else 1
    outputs = {}
    for command in chosen:
        print(f"running {command}", file=sys.stderr)
        try:
            outputs[command] = run(command)
        except RuntimeError as exc:
            print(f"python -m harness.bench.publish: {exc}", file=sys.stderr)
            return 1
    # read again: the commands take minutes, and the page may have been edited meanwhile
    text = args.page.read_text(encoding="utf-8")
    args.page.write_text(refresh(text, outputs), encoding="utf-8")
    print(f"refreshed {len(outputs)} block(s) of {args.page}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
