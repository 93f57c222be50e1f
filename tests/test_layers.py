"""The three layers import downwards only: `solvers` <- `corpora` <- `harness`.

Every import statement in the packages is read with `ast` (lazy imports
inside functions included), so a forbidden dependency fails here before it
becomes a cycle or drags the harness into a solver.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("solvers", "corpora", "harness")
FORBIDDEN = {layer: set(LAYERS[i + 1 :]) for i, layer in enumerate(LAYERS)}


def imported_packages(path: Path) -> list[tuple[int, str]]:
    """(line, top-level package) for every absolute import in a source file."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name.split(".")[0]) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module.split(".")[0]))
    return found


def violations(layer: str) -> list[str]:
    return [
        f"{path.relative_to(ROOT)}:{line} imports {package}"
        for path in sorted((ROOT / layer).rglob("*.py"))
        for line, package in imported_packages(path)
        if package in FORBIDDEN[layer]
    ]


@pytest.mark.parametrize("layer", LAYERS)
def test_a_layer_never_imports_a_higher_one(layer):
    assert violations(layer) == []


def test_the_checker_sees_a_forbidden_import(tmp_path):
    source = tmp_path / "bad.py"
    source.write_text("def f():\n    from harness.store import Store\n    import corpora.fill\n")
    assert imported_packages(source) == [(2, "harness"), (3, "corpora")]


def test_puzzle_code_lives_in_corpora_and_benchmarks_in_harness_bench():
    harness_modules = {p.stem for p in (ROOT / "harness").glob("*.py")}
    for module in ("corpus", "formats", "writers", "generate", "fetch", "builtin", "truth"):
        assert (ROOT / "corpora" / f"{module}.py").is_file()
        assert module not in harness_modules
    assert {p.stem for p in (ROOT / "harness" / "bench").glob("*.py")} >= {"timing", "cp", "fast"}
    assert not list((ROOT / "corpora").glob("*.txt")), "data files belong in corpora/data/"
