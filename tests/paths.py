"""Where the tests find the project and their own files, wherever a test module sits."""

from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
DATA = TESTS / "data"
PLUGINS = TESTS / "plugins"  # the faulty test solvers, on a path of their own
