"""Seconds per technique, for `propagate(..., profile=...)`.

A technique can run inside another: the cycle check asks the chain techniques after
it what they would find (their answers are kept for when the engine reaches them).
Each search is charged to the technique that ran it, and an outer technique's
seconds leave out the searches nested in it, so the figures add up to the time spent
and the forcing-chain share counts the forcing chains searched for the cycle check.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextvars import ContextVar, Token
from typing import TypeVar

T = TypeVar("T")

Active = tuple[dict[str, float], list[float]]

_PROFILE: ContextVar[Active | None] = ContextVar("profile", default=None)
"""The profile being filled, and the nested seconds of each search running now."""


def profiling(profile: dict[str, float]) -> Token[Active | None]:
    """Start filling `profile`; returns the token to pass to `stop`."""
    return _PROFILE.set((profile, []))


def stop(token: Token[Active | None]) -> None:
    """Stop filling the profile `profiling` started."""
    _PROFILE.reset(token)


def charged(name: str, search: Callable[[], T]) -> T:
    """`search()`, its seconds (less those of searches nested in it) added to the
    profile's entry `name` when a profile is being filled."""
    active = _PROFILE.get()
    if active is None:
        return search()
    profile, nested = active
    nested.append(0.0)
    start = time.perf_counter()
    try:
        return search()
    finally:
        spent = time.perf_counter() - start
        inner = nested.pop()
        profile[name] = profile.get(name, 0.0) + spent - inner
        if nested:
            nested[-1] += spent
