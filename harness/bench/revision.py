"""What the ``_ab`` benchmarks share: another revision's code, and a worker process on it.

Each ``_ab`` program times this checkout against a git revision by running its own
file as a worker (``--worker``) once with this checkout's code and once with the
revision's on ``PYTHONPATH``; the worker prints one JSON object per line.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def export(revision: str, into: Path) -> Path:
    """The tree of `revision` of this repository, unpacked under `into`."""
    archive = into / "tree.tar"
    with archive.open("wb") as out:
        subprocess.run(["git", "-C", str(ROOT), "archive", revision], stdout=out, check=True)
    tree = into / "tree"
    with tarfile.open(archive) as tar:
        tar.extractall(tree, filter="data")
    return tree


def worker_rows(script: Path, tree: Path, args: list[str], env: dict[str, str] | None = None):
    """Run `script` ``--worker`` with `args` on `tree`'s code (``PYTHONPATH``, plus `env`);
    the JSON objects it printed, one per line.  A failed worker ends the run with its
    error output."""
    full = {**os.environ, "PYTHONPATH": str(tree), **(env or {})}
    out = subprocess.run(
        [sys.executable, str(script), "--worker", *args], env=full, capture_output=True, text=True
    )
    if out.returncode:
        raise SystemExit(f"worker on {tree} failed:\n{out.stderr[-2000:]}")
    return [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]
