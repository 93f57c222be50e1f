"""Solver lookup by name: built-ins, `@register`, and third-party entry points.

Built-in solvers are listed in `BUILTIN` (name -> module) and imported only
when asked for, so a missing optional backend never breaks ``import solvers``.
Third-party packages add solvers through the entry-point group
``sudoku_bench.solvers`` (``name = "package.module:SolverClass"``).
"""

from __future__ import annotations

import importlib
import re
from importlib.metadata import entry_points
from typing import Any

from solvers.base import Solver, UnknownOption

ENTRY_POINT_GROUP = "sudoku_bench.solvers"

# The public names, in the order tables list them; each module registers its class.
BUILTIN: dict[str, str] = {
    "human": "solvers.human.solver",
    "odometer": "solvers.search.odometer",
    "magictouch": "solvers.search.magictouch",
    "assume": "solvers.search.assume",
    "mrv": "solvers.search.mrv",
    "positions": "solvers.search.positions",
    "dlx": "solvers.exact_cover.dlx",
    "cpsat": "solvers.cp.cpsat",
    "constraint": "solvers.cp.constraint",
    "sat": "solvers.sat.sat",
    "fast": "solvers.fast",
    "external": "solvers.external",
    "dimacs": "solvers.sat.dimacs",
    "minizinc": "solvers.cp.minizinc",
    "cpmpy": "solvers.cp.cpmpy",
}

_registered: dict[str, type[Solver]] = {}


class UnknownSolver(KeyError):
    """A solver name that is not registered; the message lists the valid ones."""

    def __str__(self) -> str:
        return str(self.args[0])


class SolverUnavailable(RuntimeError):
    """A registered solver whose backend library is not installed."""


def register(cls: type[Solver]) -> type[Solver]:
    """Class decorator: make a `Solver` subclass available under its ``name``."""
    for attr in ("name", "family", "complete", "summary", "source"):
        if not hasattr(cls, attr):
            raise TypeError(f"{cls.__qualname__} must define the class attribute {attr!r}")
    existing = _registered.get(cls.name)
    if existing is not None and existing.__qualname__ != cls.__qualname__:
        raise ValueError(f"solver name {cls.name!r} is taken by {existing.__qualname__}")
    _registered[cls.name] = cls
    return cls


def registered(name: str) -> type[Solver] | None:
    """The class registered under `name` so far, or None; unlike `solver_class` it imports
    nothing, so a definition can check that its name is still free."""
    return _registered.get(name)


def unregister(name: str) -> type[Solver] | None:
    """Forget the class registered under `name` (returned; None when there was none), so a
    solver registered for a while (a test, a notebook, a solvers file) does not leak into
    later tables and runs.  A built-in comes back on its next lookup."""
    return _registered.pop(name, None)


def _plugins() -> dict[str, Any]:
    return {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)}


def names(*, runtime: bool = True) -> list[str]:
    """Every solver name: built-ins in table order, then plug-ins and classes
    registered at run time (left out with ``runtime=False``: the installed set)."""
    extra = set(_plugins()) | (set(_registered) if runtime else set())
    return list(BUILTIN) + sorted(extra - set(BUILTIN))


def solver_class(name: str) -> type[Solver]:
    """The class registered under `name` (importing its module if needed)."""
    if name in _registered:
        return _registered[name]
    if name in BUILTIN:
        importlib.import_module(BUILTIN[name])
    elif name in (plugins := _plugins()):
        register(plugins[name].load())
    if name not in _registered:
        raise UnknownSolver(f"unknown solver {name!r}; choose one of: {', '.join(names())}")
    return _registered[name]


_SPEC = re.compile(r"^\s*([\w.-]+)\s*(?:\[(.*)\])?\s*$", re.S)


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``"cpsat[workers=1,model=boolean]"`` into a name and its options.

    A value in quotes (``'...'`` or ``"..."``) may hold commas, brackets and
    spaces: ``external[cmd='./mysolver --count 2',protocol=line]``.
    """
    match = _SPEC.match(spec)
    if not match:
        raise UnknownOption(f"cannot read solver {spec!r}: expected NAME or NAME[key=value,...]")
    name, inside = match.group(1), match.group(2)
    options: dict[str, str] = {}
    for part in _split_options(inside or "", spec):
        key, eq, value = part.partition("=")
        if not eq or not key.strip():
            raise UnknownOption(f"cannot read {part!r} in {spec!r}: expected key=value")
        if key.strip() in options:
            raise UnknownOption(f"{key.strip()} is given twice in {spec!r}: keep one value")
        options[key.strip()] = _unquote(value.strip(), spec)
    return name, options


def _split_options(inside: str, spec: str) -> list[str]:
    """The ``key=value`` parts between the brackets, split at commas outside quotes."""
    parts: list[str] = []
    current: list[str] = []
    quote = ""
    for char in inside:
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"" and _value_starts(current):
            quote = char
        elif char == ",":
            parts.append("".join(current))
            current = []
            continue
        current.append(char)
    if quote:
        raise UnknownOption(f"cannot read {spec!r}: a {quote} quote is not closed")
    parts.append("".join(current))
    return [p.strip() for p in parts if p.strip()]


def _value_starts(current: list[str]) -> bool:
    """True when the text so far is ``key=`` (a quote here opens a quoted value)."""
    key, eq, value = "".join(current).partition("=")
    return bool(eq) and not value.strip()


def _unquote(value: str, spec: str) -> str:
    if value[:1] in ("'", '"'):
        if len(value) < 2 or value[-1] != value[0]:
            raise UnknownOption(f"cannot read {value!r} in {spec!r}: text after a closing quote")
        return value[1:-1]
    return value


def get(spec: str, **options: Any) -> Solver:
    """A ready solver: ``get("dlx")``, ``get("cpsat", workers=1)`` or ``get("cpsat[workers=1]")``.

    Raises `UnknownSolver` (listing the valid names) for an unknown name and
    `SolverUnavailable` (with the install command) when its backend is missing.
    """
    name, spec_options = parse_spec(spec)
    cls = solver_class(name)
    if not cls.supported():
        hint = f": {cls.install_hint}" if cls.install_hint else ""
        raise SolverUnavailable(f"solver {name!r} needs a library that is not installed{hint}")
    return cls(**{**spec_options, **options})
