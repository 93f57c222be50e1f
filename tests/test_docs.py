"""The documentation site builds, and every code example in it runs."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

from harness.cli import main
from solvers import registry
from solvers.testing import check_solver

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted((ROOT / "docs").rglob("*.md")) + [ROOT / "README.md"]
PLAIN_BLOCK = re.compile(r"```python\n(.+?)```", flags=re.S)


def plain_examples() -> list[tuple[str, str]]:
    """(page:index, code) for each Python block without ``>>>`` (doctests run elsewhere)."""
    found = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for i, code in enumerate(PLAIN_BLOCK.findall(text)):
            if ">>>" not in code and "--8<--" not in code:
                found.append((f"{page.relative_to(ROOT)}:{i}", code))
    return found


def test_the_site_builds_strictly(tmp_path):
    if importlib.util.find_spec("mkdocs") is None:
        pytest.skip("needs mkdocs: pip install -e '.[docs]'")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(tmp_path / "site")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        env={"NO_MKDOCS_2_WARNING": "1", **__import__("os").environ},
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert (tmp_path / "site" / "index.html").is_file()
    front = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "Quick start" in front, "the README is the front page"


def test_every_page_is_in_the_navigation():
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    pages = {p.relative_to(ROOT / "docs").as_posix() for p in (ROOT / "docs").rglob("*.md")}
    assert {page for page in pages if page not in nav} == set()


def test_docs_speak_of_the_product_not_of_its_history():
    pattern = re.compile(r"this round|the issue (asks|says)|\.\./shared", flags=re.I)
    hits = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in [*PAGES, *ROOT.glob("solvers/**/*.py"), *ROOT.glob("harness/**/*.py")]
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]
    assert hits == []


@pytest.fixture(scope="module")
def quick_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small real study, for the examples that read ./sudoku-bench.sqlite."""
    folder = tmp_path_factory.mktemp("docs")
    db = folder / "sudoku-bench.sqlite"
    common = ["--corpus", "gen4", "--executor", "serial", "--db", str(db), "--no-progress"]
    assert main(["run", *common, "--solver", "dlx", "--solver", "human", "--timeout", "5"]) == 0
    return folder


@pytest.mark.parametrize(("where", "code"), plain_examples(), ids=lambda v: v[:40])
def test_each_python_example_runs(where, code, quick_db, monkeypatch, capsys):
    needs = {"pandas": "data", "numba": "fast"}
    for module, extra in needs.items():
        if re.search(rf"\b{module}\b|load_results|solve_many", code) and (
            importlib.util.find_spec(module if module != "numba" else "numba") is None
        ):
            pytest.skip(f"needs {module}: pip install 'sudoku-bench[{extra}]'")
    monkeypatch.chdir(quick_db)
    exec(compile(code, where, "exec"), {"__name__": "docs_example"})
    assert capsys.readouterr().out.strip() != "" or "print(" not in code


def test_the_solver_template_passes_the_conformance_suite(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "docs" / "examples"))
    try:
        import my_solver  # noqa: F401

        for spec in ("template-backtracking", "template-backtracking[order=down]"):
            assert check_solver(spec) == {}, spec
    finally:
        registry.unregister("template-backtracking")
        sys.modules.pop("my_solver", None)
