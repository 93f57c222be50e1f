"""A private name stays in the module that defines it.

A name with a leading underscore (``_registered``, ``_search``) is free to change with
its module: another module that imports it or reaches it (``registry._registered``,
``solver._loaded``, ``getattr(module, "_x")``) breaks silently when it does, so every
such use has a public home instead (``solvers.unregister``, ``SatSolver.loaded``...).

Every source file of the packages and the tests is read with `ast`.  A private name is
one with a leading underscore that is not a dunder; a file may use one only if it
defines it itself (a function, class, variable or attribute it assigns), as an
attribute of ``self`` or ``cls``, or when it is in `PUBLIC`: names that are private
only in spelling.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("solvers", "corpora", "harness", "tests")
PUBLIC = {
    # named tuples' own methods, underscored so they never clash with a field
    "_replace": "namedtuple API",
    "_asdict": "namedtuple API",
    "_fields": "namedtuple API",
    "_make": "namedtuple API",
    "_exit": "os._exit, the documented way for a forked child to end without clean-up",
    "_SubParsersAction": "argparse's type for add_subparsers(), which has no public name",
}
REFLECTION = ("getattr", "setattr", "hasattr", "delattr")


def private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def defined(tree: ast.AST) -> set[str]:
    """The private names a module defines: functions, classes, variables, attributes it
    assigns (``self._x = ...``, ``obj._x = ...``) and class-level annotations."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
    return {name for name in names if private(name)}


def imported(tree: ast.AST) -> set[str]:
    """The names a module binds by importing (``import a.b`` binds ``a``): what they
    hold belongs to another module, whatever this one defines under the same name."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            names |= {a.asname or a.name.split(".")[0] for a in node.names}
    return names


def reaches(source: str) -> list[tuple[int, str]]:
    """(line, name) for each private name of another module that `source` imports or
    reaches: ``from m import _x``; ``m._x`` for any name ``m`` bound by an import;
    ``obj._x`` when `source` does not define ``_x`` itself (``self._x`` and ``cls._x``
    pass); and ``getattr(obj, "_x")``, ``monkeypatch.setattr(obj, "_x", ...)`` alike."""
    tree = ast.parse(source)
    own, modules = defined(tree), imported(tree)

    def foreign(owner: ast.expr, attr: str, line: int) -> list[tuple[int, str]]:
        """[(line, attr)] when ``owner.attr`` is another module's private name."""
        holder = owner.id if isinstance(owner, ast.Name) else None
        if private(attr) and (
            holder in modules or (attr not in own and holder not in ("self", "cls"))
        ):
            return [(line, attr)]
        return []

    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            found += [(node.lineno, a.name) for a in node.names if private(a.name)]
        elif isinstance(node, ast.Attribute):
            found += foreign(node.value, node.attr, node.lineno)
        elif isinstance(node, ast.Call) and len(node.args) >= 2:
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            key = node.args[1]
            if name in REFLECTION and isinstance(key, ast.Constant) and isinstance(key.value, str):
                found += foreign(node.args[0], key.value, node.lineno)
    return sorted((line, name) for line, name in found if name not in PUBLIC)


def sources() -> list[Path]:
    return sorted(p for folder in FOLDERS for p in (ROOT / folder).rglob("*.py"))


@pytest.mark.parametrize("folder", FOLDERS)
def test_no_module_uses_a_private_name_of_another(folder):
    found = [
        f"{path.relative_to(ROOT)}:{line} uses {name}"
        for path in sorted((ROOT / folder).rglob("*.py"))
        for line, name in reaches(path.read_text(encoding="utf-8"))
    ]
    assert found == []


def test_the_check_reads_every_source_file():
    assert len(sources()) > 200
    assert {p.parent.name for p in sources()} >= {"solvers", "human", "harness", "tests"}


def test_the_check_sees_each_way_of_reaching_a_private_name():
    planted = "\n".join(
        [
            "from solvers.registry import _registered",  # 1: imported
            "from solvers import registry",
            "registry._registered.pop('x')",  # 3: reached through the module
            "def f(solver, monkeypatch):",
            "    solver._loaded.clear()",  # 5: reached through an object
            "    monkeypatch.setattr(registry, '_registered', {})",  # 6: patched by name
            "    return getattr(solver, '_cache', None)",  # 7: looked up by name
            "_registered = {}",
            "registry._registered.clear()",  # 9: a module's, though this one has its own
        ]
    )
    assert reaches(planted) == [
        (1, "_registered"),
        (3, "_registered"),
        (5, "_loaded"),
        (6, "_registered"),
        (7, "_cache"),
        (9, "_registered"),
    ]


def test_a_module_may_use_its_own_private_names():
    own = "\n".join(
        [
            "_cache = {}",
            "class Box:",
            "    def __init__(self, other):",
            "        self._items = list(other._items)",  # defined here, on self
            "        self.__dict__.update(cls=type(self))",  # a dunder
            "    def _helper(self):",
            "        return _cache, self._helper, Box._helper, self._items",
            "def g(point, cls):",
            "    return point._replace(x=1), cls._other",  # namedtuple API; cls
        ]
    )
    assert reaches(own) == []
