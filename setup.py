"""Build hook: record the git commit a build comes from, for copies installed without git.

``pip install .`` installs a copy with no ``.git`` beside it, so a run could
not say which commit it measured.  Building the wheel or the sdist writes
``harness/_commit.txt`` (the commit, ``+dirty`` with local changes) into the
build; `harness.environment.git_commit` reads it when git has no answer.
An sdist carries the file, so a wheel built from it keeps the commit.
Everything else about the package is in pyproject.toml.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist

RECORD = Path("harness") / "_commit.txt"


def _git(*args: str) -> str | None:
    try:
        return subprocess.run(
            ["git", *args], capture_output=True, text=True, timeout=10, check=True
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None


def commit() -> str | None:
    """The source tree's commit (``+dirty`` with local changes), or the one an sdist recorded."""
    head = _git("rev-parse", "HEAD")
    if head:
        dirty = _git("status", "--porcelain", "--untracked-files=no")
        return f"{head}+dirty" if dirty else head
    return RECORD.read_text(encoding="utf-8").strip() if RECORD.is_file() else None


class BuildPy(build_py):
    def run(self) -> None:
        super().run()
        found = commit()
        if found:
            # (an editable install builds into an empty folder: the package folder is made)
            target = Path(self.build_lib) / RECORD
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(found + "\n", encoding="utf-8")


class Sdist(sdist):
    def make_release_tree(self, base_dir: str, files: list[str]) -> None:
        super().make_release_tree(base_dir, files)
        found = commit()
        if found:
            (Path(base_dir) / RECORD).write_text(found + "\n", encoding="utf-8")


setup(cmdclass={"build_py": BuildPy, "sdist": Sdist})
