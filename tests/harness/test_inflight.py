"""The tracker of running puzzles blames a lost batch on the puzzle that was running."""

from __future__ import annotations

import multiprocessing
from typing import Any

from harness.inflight import Tracker, announce

TAG = 7


def _announce_then_die(channel: Any, go_on: Any) -> None:
    """A worker that starts puzzle 0, waits, then starts puzzle 1 and dies at once."""
    announce(channel, TAG, 0)
    go_on.wait(10)
    announce(channel, TAG, 1)


def test_a_worker_dying_right_after_an_announcement_is_blamed_on_that_puzzle() -> None:
    # The watcher reads the pipe, then checks the workers: a worker that announces its
    # next puzzle and dies between the two must not be blamed on the puzzle before.
    tracker = Tracker(watch=False)
    ctx = multiprocessing.get_context("fork")  # the test module is not importable in a child
    go_on = ctx.Event()
    try:
        tracker.expect(TAG, limit=60.0, on_lost=lambda: None)
        worker = ctx.Process(target=_announce_then_die, args=(tracker.channel, go_on))
        worker.start()
        tracker.read(30)  # puzzle 0 is announced and read
        go_on.set()
        worker.join(30)
        assert worker.exitcode == 0
        tracker.check()  # the worker is gone; its last announcement was not read yet
        lost = tracker.forget(TAG)
    finally:
        tracker.close()
    assert lost is not None
    assert lost.index == 1
    assert lost.vanished
