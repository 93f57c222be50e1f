"""A solver spec's every parameter, defaults included: what ran, not only what was changed.

A spec names only the parameters that differ from their defaults
(``dimacs`` is ``dimacs[binary=cadical]``), which keeps labels short but
hides, say, which SAT binary ran.  `parameters` fills the defaults back in
from the registry; reports list them and data frames get one column each.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Parameter:
    """One parameter of a solver spec: its value as text, and whether it is the default."""

    name: str
    value: str
    default: bool


def _text(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def base_spec(label: str) -> str:
    """A report label without its run suffix: ``"dlx (run 3)"`` -> ``"dlx"``."""
    return label.split(" (run ", 1)[0]


def parameters(spec: str) -> tuple[str, list[Parameter]]:
    """The solver name and every parameter of `spec`, in the solver's declared order, the
    given ones first where the solver is not registered (a plug-in not imported here)."""
    from solvers.registry import parse_spec, solver_class

    try:
        name, given = parse_spec(base_spec(spec))
    except ValueError:
        return spec, []
    try:
        declared = solver_class(name).parameters
    except Exception:  # unknown here, or its module fails to import: show what was given
        declared = {}
    found = [
        Parameter(key, given.get(key, _text(param.default)), key not in given)
        for key, param in declared.items()
    ]
    found += [Parameter(key, value, False) for key, value in given.items() if key not in declared]
    return name, found


def described(spec: str) -> str:
    """``"binary=cadical (default), encoding=minimal (default)"``; "" without parameters."""
    _, found = parameters(spec)
    return ", ".join(f"{p.name}={p.value}" + (" (default)" if p.default else "") for p in found)
