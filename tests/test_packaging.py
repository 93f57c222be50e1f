"""The source distribution: built for real, it carries the licence and what the tests need."""

from __future__ import annotations

import subprocess
import sys
import tarfile
from email.parser import Parser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def sdist(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, list[str]]:
    """(the PKG-INFO text, the member names without the top folder) of a freshly built sdist."""
    out = tmp_path_factory.mktemp("sdist")
    build = [sys.executable, "-m", "build", "--sdist", "--no-isolation", "--outdir", str(out)]
    done = subprocess.run([*build, str(ROOT)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    (archive,) = out.glob("*.tar.gz")
    with tarfile.open(archive) as tar:
        names = [m.name.split("/", 1)[1] for m in tar.getmembers() if "/" in m.name]
        top = tar.getmembers()[0].name.split("/")[0]
        info = tar.extractfile(f"{top}/PKG-INFO")
        assert info is not None
        return info.read().decode("utf-8"), names


@pytest.mark.slow
def test_the_sdist_ships_every_test_with_its_fixtures(sdist):
    _, names = sdist
    tests = {p.relative_to(ROOT).as_posix() for p in (ROOT / "tests").rglob("*.py")}
    assert {
        "tests/conftest.py",
        "tests/plugins/faulty_solvers.py",
        "tests/solvers/test_conformance.py",
    } <= tests
    assert tests <= set(names)
    # files the tests read beside the packages
    assert {".ci/run", "reports/README.md", "README.md", "pyproject.toml"} <= set(names)
    assert {"mkdocs.yml", "CHANGELOG.md", "docs/index.md", "docs/examples/my_solver.py"} <= set(
        names
    )
    assert not [n for n in names if "__pycache__" in n or n.endswith((".pyc", ".sqlite"))]


@pytest.mark.slow
def test_the_sdist_carries_the_licence_and_project_urls(sdist):
    pkg_info, names = sdist
    assert "LICENSE" in names
    meta = Parser().parsestr(pkg_info)
    assert meta["License-Expression"] == "MIT"
    assert "LICENSE" in meta.get_all("License-File", [])
    urls = dict(u.split(", ", 1) for u in meta.get_all("Project-URL", []))
    assert {"Homepage", "Documentation", "Issues"} <= set(urls)
    assert all(u.startswith("https://") for u in urls.values())


def test_the_licence_is_the_mit_licence_the_metadata_names():
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License")
    assert "Copyright (c) 2026 the sudoku-bench authors" in text
    assert 'license = "MIT"' in (ROOT / "pyproject.toml").read_text(encoding="utf-8")


@pytest.mark.slow
def test_a_wheel_records_the_commit_it_was_built_from(tmp_path):
    import zipfile

    build = [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(tmp_path)]
    done = subprocess.run([*build, str(ROOT)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    (wheel,) = tmp_path.glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        recorded = archive.read("harness/_commit.txt").decode("utf-8").strip()
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True,
                          text=True, check=True).stdout.strip()  # fmt: skip
    assert recorded.removesuffix("+dirty") == head


def test_an_installed_copy_without_git_reports_the_recorded_commit(tmp_path):
    from harness.environment import git_commit

    record = tmp_path / "_commit.txt"
    record.write_text("0123abc\n", encoding="utf-8")
    assert git_commit(tmp_path, record) == "0123abc"  # tmp_path is no git checkout
    assert git_commit(tmp_path, tmp_path / "missing.txt") is None
