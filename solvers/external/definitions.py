"""Named external solvers from a TOML file: one ``[[solver]]`` table per program.

::

    [[solver]]
    name = "mysolver"                  # the name in specs, tables and reports
    command = "./mysolver --count 2"   # relative paths: from this file's folder
    protocol = "line"                  # or "per-puzzle" ({file}: the puzzle's file)
    complete = true                    # can prove 0 / 1 / 2+ solutions
    sizes = [9]                        # sides it takes; "any" (the default)
    reports_time = true                # answers carry time_us
    version = "./mysolver --version"   # default: the command followed by --version
    family = "search"                  # default "external"
    summary = "my backtracking solver in C"
    format = "auto"                    # or "numbers": the integer form for every size

`load_definitions` registers a `Solver` class per table, so ``mysolver``
works wherever a solver name does (``mysolver[args='--fast']`` appends
arguments).  The program runs in the file's folder.  A bad file raises
`DefinitionError` naming the file, the line of the table and the key.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from solvers.base import FAMILIES, Param, UnknownOption
from solvers.external.protocol import FORMATS
from solvers.external.solver import PROTOCOLS, ExternalSolver, Setup, split_command
from solvers.registry import BUILTIN, register, registered

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

# key -> (expected TOML type(s), what it must be)
KEYS: dict[str, tuple[tuple[type, ...], str]] = {
    "name": ((str,), "a name"),
    "command": ((str,), "a command line"),
    "protocol": ((str,), " or ".join(PROTOCOLS)),
    "complete": ((bool,), "true or false"),
    "sizes": ((list, str), 'a list of sides such as [4, 9, 16], or "any"'),
    "reports_time": ((bool,), "true or false"),
    "version": ((str,), "a command that prints the version"),
    "family": ((str,), " | ".join(FAMILIES)),
    "summary": ((str,), "one line of text"),
    "format": ((str,), " or ".join(FORMATS)),
}
REQUIRED = ("name", "command")
_NAME = re.compile(r"^[A-Za-z][\w.-]*$")
_HEADER = re.compile(r"^\s*\[\[\s*solver\s*\]\]")


class DefinitionError(ValueError):
    """A solvers file that cannot be used; the message names the file, line and key."""


@dataclass(frozen=True)
class Definition:
    """One program, as a TOML table describes it (paths resolved)."""

    name: str
    argv: tuple[str, ...]
    folder: str
    file: str
    protocol: str = "line"
    complete: bool = False
    sizes: tuple[int, ...] | None = None
    reports_time: bool = False
    version_argv: tuple[str, ...] | None = None
    family: str = "external"
    summary: str = ""
    form: str = "auto"


class DefinedSolver(ExternalSolver):
    """A program named in a solvers file (the class attributes come from its definition)."""

    definition: Definition
    parameters = {"args": Param("", "arguments appended to the definition's command")}

    def make_setup(self) -> Setup:
        d = self.definition
        return Setup(
            d.argv + split_command(self.options["args"]),
            d.folder,
            d.protocol,
            d.form,
            d.version_argv,
        )


def load_definitions(path: str | Path) -> list[str]:
    """Register the solvers a TOML file defines; returns their names.

    Loading the same definitions again is harmless; a name that is taken by
    another solver or another definition is refused.
    """
    path = Path(path).resolve()
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise DefinitionError(f"{path}: cannot read the solvers file: {exc.strerror}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DefinitionError(f"{path}: not valid TOML: {exc}") from None
    extra = set(data) - {"solver"}
    if extra:
        raise DefinitionError(
            f"{path}: unknown table {sorted(extra)[0]!r}: define each program in a [[solver]] table"
        )
    tables = data.get("solver", [])
    if not isinstance(tables, list) or not tables:
        raise DefinitionError(f"{path}: no [[solver]] table")
    lines = [n for n, line in enumerate(text.splitlines(), 1) if _HEADER.match(line)]
    definitions = [
        _definition(table, path, f"{path}:{lines[i] if i < len(lines) else 1}")
        for i, table in enumerate(tables)
    ]
    names = [d.name for d in definitions]
    if len(set(names)) != len(names):
        twice = next(n for n in names if names.count(n) > 1)
        raise DefinitionError(f"{path}: solver {twice!r} is defined twice")
    return [_register(d).name for d in definitions]


def _definition(table: Any, path: Path, where: str) -> Definition:
    if not isinstance(table, dict):
        raise DefinitionError(f"{where}: a [[solver]] entry must be a table")
    for key, value in table.items():
        if key not in KEYS:
            raise DefinitionError(f"{where}: unknown key {key!r} (keys: {', '.join(KEYS)})")
        types, expected = KEYS[key]
        if not isinstance(value, types):
            raise DefinitionError(f"{where}: {key} = {value!r}: expected {expected}")
    for key in REQUIRED:
        if not str(table.get(key, "")).strip():
            raise DefinitionError(f"{where}: missing key {key!r} ({KEYS[key][1]})")
    name = table["name"]
    where = f"{where}: solver {name!r}"
    if not _NAME.match(name):
        raise DefinitionError(f"{where}: a name is a letter, then letters, digits, '_', '-' or '.'")
    for key, choices in (("protocol", PROTOCOLS), ("family", FAMILIES), ("format", FORMATS)):
        if key in table and table[key] not in choices:
            raise DefinitionError(f"{where}: {key} = {table[key]!r}: expected {KEYS[key][1]}")
    folder = path.parent
    try:
        argv = _resolve(split_command(table["command"]), folder)
        version = table.get("version")
        version_argv = _resolve(split_command(version), folder) if version else None
    except UnknownOption as exc:
        raise DefinitionError(f"{where}: {exc}") from None
    definition = Definition(
        name=name,
        argv=argv,
        folder=str(folder),
        file=str(path),
        protocol=table.get("protocol", "line"),
        complete=table.get("complete", False),
        sizes=_sizes(table.get("sizes", "any"), where),
        reports_time=table.get("reports_time", False),
        version_argv=version_argv,
        family=table.get("family", "external"),
        summary=" ".join(table.get("summary", "").split()),
        form=table.get("format", "auto"),
    )
    try:
        Setup(definition.argv, definition.folder, definition.protocol, definition.form)
    except UnknownOption as exc:
        raise DefinitionError(f"{where}: {exc}") from None
    return definition


def _resolve(argv: tuple[str, ...], folder: Path) -> tuple[str, ...]:
    """The program's path made absolute when it is a relative path (it holds a '/')."""
    if not argv:
        raise UnknownOption("the command is empty")
    program = argv[0]
    if "/" in program and not Path(program).is_absolute():
        program = str((folder / program).resolve())
    return (program, *argv[1:])


def _sizes(value: Any, where: str) -> tuple[int, ...] | None:
    if value == "any":
        return None
    if (
        isinstance(value, list)
        and value
        and all(isinstance(v, int) and not isinstance(v, bool) and v >= 1 for v in value)
    ):
        return tuple(value)
    raise DefinitionError(f"{where}: sizes = {value!r}: expected {KEYS['sizes'][1]}")


def _register(definition: Definition) -> type[ExternalSolver]:
    if definition.name in BUILTIN:
        raise DefinitionError(
            f"{definition.file}: solver name {definition.name!r} is a built-in solver's"
        )
    existing = registered(definition.name)
    if existing is not None:
        if getattr(existing, "definition", None) == definition:
            return existing  # type: ignore[return-value]
        other = getattr(existing, "definition", None)
        by = f"the solvers file {other.file}" if other else f"the solver {existing.__qualname__}"
        raise DefinitionError(
            f"{definition.file}: solver name {definition.name!r} is taken by {by}"
        )
    attrs = {
        "name": definition.name,
        "family": definition.family,
        "complete": definition.complete,
        "sizes": definition.sizes,
        "summary": definition.summary or f"external program: {' '.join(definition.argv)}",
        "source": f"{' '.join(definition.argv)} (defined in {definition.file})",
        "reports_time": definition.reports_time,
        "definition": definition,
        "__module__": __name__,
        "__qualname__": f"DefinedSolver[{definition.name}]",
    }
    cls = type(f"DefinedSolver_{definition.name}", (DefinedSolver,), attrs)
    register(cls)
    return cls
