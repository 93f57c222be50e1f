"""A database is data: what resuming a stored study would import or run, and the user's consent.

A run's settings name plug-in modules (imported), the folders they are
imported from, solver definition files (programs run per solve) and solver
specs whose parameters name a program (``external[cmd=...]``,
``dimacs[binary=...]``).  A database may come from someone else, or be
edited, so ``run --resume`` shows these and goes on only when the user
consents: ``--trust-stored``, or the same ``--plugin``, ``--solvers-file``
and ``--solver`` options given again.  A study that holds none of them
resumes as before.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from harness.errors import CommandError
from solvers.registry import BUILTIN, parse_spec, solver_class


@dataclass(frozen=True)
class StoredCode:
    """What a stored study would import or execute if it were resumed."""

    plugins: tuple[str, ...] = ()
    paths: tuple[str, ...] = ()
    solvers_files: tuple[str, ...] = ()
    programs: tuple[str, ...] = ()  # specs whose parameters name a program

    def __bool__(self) -> bool:
        return bool(self.plugins or self.solvers_files or self.programs)

    def describe(self) -> str:
        """What would run, in words: 'import plug-ins m (from /dir) and run ...'."""
        parts = []
        if self.plugins:
            where = f" (from {', '.join(self.paths)})" if self.paths else ""
            parts.append(f"import the plug-ins {', '.join(self.plugins)}{where}")
        if self.solvers_files:
            parts.append(f"run the programs defined in {', '.join(self.solvers_files)}")
        if self.programs:
            parts.append(f"run {', '.join(self.programs)}")
        return " and ".join(parts)


def stored_code(
    plugins: Sequence[str],
    paths: Sequence[str],
    solvers_files: Sequence[str],
    specs: Sequence[str],
) -> StoredCode:
    """The parts of a stored study that import modules or run programs."""
    return StoredCode(tuple(plugins), tuple(paths), tuple(solvers_files), program_specs(specs))


def program_specs(specs: Sequence[str]) -> tuple[str, ...]:
    """The built-in solver specs whose parameters name a program (plug-in and
    solvers-file solvers are covered by trusting their module or file)."""
    found = []
    for spec in specs:
        name, options = parse_spec(spec)
        if name in BUILTIN and set(options) & set(solver_class(name).program_options):
            found.append(spec)
    return tuple(dict.fromkeys(found))


def repeated(
    code: StoredCode,
    plugins: Sequence[str],
    solvers_files: Sequence[str],
    specs: Sequence[str],
    cwd: str | None = None,
) -> bool:
    """True when the options given again name exactly what the study stored.

    Plug-ins count as repeated only when they were imported from the current
    folder, where ``--plugin`` would import them now.
    """
    here = str(Path(cwd or os.getcwd()).resolve())
    if code.plugins and {str(Path(p).resolve()) for p in code.paths} != {here}:
        return False
    given_files = {str(Path(f).resolve()) for f in solvers_files}
    given_specs = {spec_key(s) for s in specs}
    return (
        set(code.plugins) == set(plugins)
        and set(code.solvers_files) == given_files
        and {spec_key(s) for s in code.programs} <= given_specs
    )


def spec_key(spec: str) -> tuple[str, tuple[tuple[str, str], ...]]:
    """A spec as a comparable value: its name and options, in any order and quoting."""
    name, options = parse_spec(spec)
    return name, tuple(sorted(options.items()))


def consent(
    code: StoredCode,
    *,
    trusted: bool,
    given: bool,
    what: str,
) -> str:
    """The note to show when the user consented; `CommandError` when they did not.

    `what` names the run ('run 3 of study.sqlite'); `given` says the options
    were given again, matching.
    """
    if not code:
        return ""
    if trusted or given:
        return f"{what} will {code.describe()}"
    raise CommandError(
        f"{what} would {code.describe()}; a database can come from anyone: if you trust "
        "these, resume with --trust-stored (or give the same --plugin, --solvers-file and "
        "--solver options again)"
    )
