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


# Solver families: each folder of `solvers/` holds one family's modules.  A family may
# use the contract (the top-level modules) and the families named here, nothing else.
FAMILY_FOLDERS = ("human", "search", "exact_cover", "cp", "sat", "fast", "external")
# (the human engine's compiled kernels count bits with the fast family's numba intrinsics)
FAMILY_MAY_USE = {"search": {"human"}, "sat": {"external"}, "human": {"fast"}}
CONTRACT = ("base", "grid", "registry", "verify", "transforms", "testing", "oracle")
# Contract packages: part of the interface every family may use, like the modules above.
CONTRACT_PACKAGES = ("variants",)


def solver_imports(path: Path) -> set[str]:
    """The second-level `solvers` packages a source file imports (``solvers.cp`` -> ``cp``)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        found |= {n.split(".")[1] for n in names if n.startswith("solvers.") and "." in n}
    return found


def test_solvers_top_level_holds_only_the_contract():
    top = {p.stem for p in (ROOT / "solvers").glob("*.py")} - {"__init__"}
    assert top == set(CONTRACT), "solver modules belong in a family folder"
    folders = {p.name for p in (ROOT / "solvers").iterdir() if (p / "__init__.py").is_file()}
    assert folders == set(FAMILY_FOLDERS) | set(CONTRACT_PACKAGES)


@pytest.mark.parametrize("family", FAMILY_FOLDERS)
def test_a_family_uses_only_the_contract_and_its_named_neighbours(family):
    allowed = set(CONTRACT) | set(CONTRACT_PACKAGES) | {family} | FAMILY_MAY_USE.get(family, set())
    bad = [
        f"{path.relative_to(ROOT)} imports solvers.{used}"
        for path in sorted((ROOT / "solvers" / family).rglob("*.py"))
        for used in solver_imports(path) - allowed
    ]
    assert bad == []


@pytest.mark.parametrize("package", CONTRACT_PACKAGES)
def test_a_contract_package_uses_only_the_contract(package):
    allowed = set(CONTRACT) | set(CONTRACT_PACKAGES)
    bad = [
        f"{path.relative_to(ROOT)} imports solvers.{used}"
        for path in sorted((ROOT / "solvers" / package).rglob("*.py"))
        for used in solver_imports(path) - allowed
    ]
    assert bad == []


def test_contract_modules_import_no_family_at_module_level():
    for name in CONTRACT:
        path = ROOT / "solvers" / f"{name}.py"
        tree = ast.parse(path.read_text(encoding="utf-8"))
        top_level = [n for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)]
        used = {
            (n.module or "").split(".")[1]
            for n in top_level
            if isinstance(n, ast.ImportFrom) and (n.module or "").startswith("solvers.")
        }
        assert used <= set(CONTRACT) | set(CONTRACT_PACKAGES), (
            f"{path.name} imports a solver family: {used}"
        )


def test_builtin_solver_modules_are_named_after_their_solver():
    from solvers.registry import BUILTIN

    for name, module in BUILTIN.items():
        parts = module.split(".")
        assert parts[1] in FAMILY_FOLDERS, f"{name}: {module} is outside the family folders"
        # one rule: a module named after its solver, or a family package's own entry point
        assert parts[-1] == name or parts[1] == name, f"{name} lives in {module}"
