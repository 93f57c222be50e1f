"""Study files: a whole `sudoku-bench run` written down in TOML, with parameter grids.

A study file holds the options ``run`` takes (``corpora``, ``timeout``,
``repeat``, ``metamorphic``, ``executor`` ...) and a ``[solvers]`` table whose
values are parameter grids: every list is one axis, and the variants are
their product, in the order written::

    corpora = ["gen9-easy", "gen9-extreme"]
    timeout = 2

    [solvers]
    dlx = {}
    cpsat = {workers = [1, 2], model = ["integer", "boolean"]}   # four variants

``solvers`` may also be a plain list of specs (``["dlx", "cpsat[workers=1]"]``).
Relative paths (corpora, the database, solver definition files) are read
from the study file's folder.  Options given on the command line win over
the file.  The text of the file is stored with the run, so ``--resume`` and
``report`` show exactly what was asked.

>>> expand_solvers({"dlx": {}, "cpsat": {"workers": [1, 2], "model": "boolean"}})
['dlx', 'cpsat[model=boolean,workers=1]', 'cpsat[model=boolean,workers=2]']
"""

from __future__ import annotations

import itertools
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.errors import CommandError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

# Keys a study file may set: the command-line option each stands for, and its type.
OPTIONS: dict[str, type | tuple[type, ...]] = {
    "timeout": (int, float),
    "memory": int,
    "repeat": int,
    "limit": int,
    "metamorphic": int,
    "seed": int,
    "timing": str,
    "jobs": int,
    "executor": str,
    "scheduler": str,
    "batch": int,
    "strict": bool,
    "pin": bool,
    "db": str,
}
LISTS = ("corpora", "plugins", "solvers_files")  # lists of strings
PATHS = ("db",)  # single values that are paths
KNOWN = {*OPTIONS, *LISTS, "solvers", "name", "description"}


@dataclass(frozen=True)
class StudyFile:
    """What a study file asks for, with paths made absolute."""

    path: Path
    text: str
    solvers: list[str] = field(default_factory=list)
    corpora: list[str] = field(default_factory=list)
    plugins: list[str] = field(default_factory=list)
    solvers_files: list[str] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)  # OPTIONS keys that were set
    name: str = ""

    def record(self) -> dict[str, str]:
        """What is stored with the run."""
        return {"path": str(self.path), "name": self.name, "text": self.text}


def load(path: str | Path) -> StudyFile:
    """Read and check a study file; errors name the file and the key."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CommandError(f"no study file {path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CommandError(f"cannot read study file {path}: {exc}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise CommandError(f"{path}: not valid TOML: {exc}") from None
    unknown = sorted(set(data) - KNOWN)
    if unknown:
        raise CommandError(
            f"{path}: unknown key {', '.join(map(repr, unknown))}; "
            f"a study file takes: {', '.join(sorted(KNOWN))}"
        )
    folder = path.resolve().parent
    options: dict[str, Any] = {}
    for key, kind in OPTIONS.items():
        if key in data:
            value = data[key]
            if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
                raise CommandError(f"{path}: {key} = {value!r} is not {_kind_name(kind)}")
            options[key] = str(folder / str(value)) if key in PATHS else value
    lists = {key: _strings(path, key, data.get(key, [])) for key in LISTS}
    return StudyFile(
        path=path,
        text=text,
        solvers=_solver_specs(path, data.get("solvers", [])),
        corpora=[_local(folder, c) for c in lists["corpora"]],
        plugins=lists["plugins"],
        solvers_files=[str(folder / f) for f in lists["solvers_files"]],
        options=options,
        name=str(data.get("name", "")),
    )


def _kind_name(kind: type | tuple[type, ...]) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    names = {int: "a whole number", float: "a number", str: "a string", bool: "true or false"}
    return " or ".join(names[k] for k in kinds)


def _strings(path: Path, key: str, value: Any) -> list[str]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise CommandError(f"{path}: {key} must be a list of strings, not {value!r}")
    return value


def _local(folder: Path, corpus: str) -> str:
    """A corpus named relative to the study file, if such a file exists; else as written."""
    candidate = folder / corpus
    return str(candidate) if candidate.is_file() else corpus


def _solver_specs(path: Path, value: Any) -> list[str]:
    if isinstance(value, list):
        return _strings(path, "solvers", value)
    if not isinstance(value, dict):
        raise CommandError(f"{path}: solvers must be a table or a list of specs, not {value!r}")
    for name, grid in value.items():
        if not isinstance(grid, dict):
            raise CommandError(
                f"{path}: solvers.{name} must be a table of parameters (e.g. {name} = {{}}), "
                f"not {grid!r}"
            )
    return expand_solvers(value)


def expand_solvers(table: dict[str, dict[str, Any]]) -> list[str]:
    """Solver specs from parameter grids: each list is an axis, the variants their product."""
    specs = []
    for name, grid in table.items():
        keys = sorted(grid)
        axes = [grid[k] if isinstance(grid[k], list) else [grid[k]] for k in keys]
        for values in itertools.product(*axes):
            if not keys:
                specs.append(name)
                continue
            inside = ",".join(f"{k}={_text(v)}" for k, v in zip(keys, values, strict=True))
            specs.append(f"{name}[{inside}]")
    return specs


def _text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)
