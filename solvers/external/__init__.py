"""Any program as a solver: the ``external`` family.

A program speaks the line protocol (`solvers.external.protocol`): a puzzle
line in, an answer line out, one long-lived process per worker; or it runs
once per puzzle (``protocol=per-puzzle``).  Use it inline,
``external[cmd='./mysolver']``, or name it in a TOML file loaded with
`load_definitions` (``--solvers-file`` on the command line)::

    [[solver]]
    name = "mysolver"
    command = "./mysolver --count 2"
    complete = true
"""

from solvers.external.definitions import DefinitionError, load_definitions
from solvers.external.solver import External, ExternalSolver, Setup

__all__ = ["DefinitionError", "External", "ExternalSolver", "Setup", "load_definitions"]
