"""Fixtures shared by the test modules."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from solvers import registry

TESTS = str(Path(__file__).resolve().parent)


@pytest.fixture
def faulty() -> Iterator[None]:
    """Let the faulty test solvers (tests/faulty_solvers.py) be registered for one test, then
    forget them, so they never leak into the conformance suite."""
    yield
    for name in ("faulty", "faulty9"):
        registry._registered.pop(name, None)
    sys.modules.pop("faulty_solvers", None)
    if TESTS in sys.path:
        sys.path.remove(TESTS)
