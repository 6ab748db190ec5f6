"""A hard stop for ``--time-limit``: the work that has no checkpoint of its own (building a CP-SAT
model, one state's legal actions on a board grown to 999 spots: two million of them, a minute)
is interrupted at the deadline.

The exhaustive search checks its clock at every state and CP-SAT honours its own time limit; what
runs between those checks (the rules engine on a huge puzzle, the model's construction) is covered
by :func:`guard`: an interval timer (``SIGALRM``) raises :class:`OutOfTime` in the main thread
when the deadline passes, and the caller reports what it has (the best plan so far: FEASIBLE;
none: UNKNOWN, saying where the time went). Outside the main thread (a worker thread of the site
build) or on a platform without ``setitimer``, the guard does nothing and only the cooperative
checks hold.
"""
from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType


class OutOfTime(Exception):
    """The time limit ran out (raised by the exhaustive search's clock or by :func:`guard`)."""


def _can_alarm() -> bool:
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


@contextmanager
def guard(deadline: float | None) -> Iterator[None]:
    """Raise :class:`OutOfTime` inside the block once ``time.monotonic()`` passes ``deadline``
    (None: no limit). An outer timer (a test runner's) is restored afterwards, its remaining time
    shortened by the time spent here."""
    if deadline is None or not _can_alarm():
        yield
        return
    left = deadline - time.monotonic()
    if left <= 0:
        raise OutOfTime

    def ring(signum: int, frame: FrameType | None) -> None:
        raise OutOfTime

    start = time.monotonic()
    old_handler = signal.signal(signal.SIGALRM, ring)
    old_delay, old_interval = signal.setitimer(signal.ITIMER_REAL, left)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old_handler)
        if old_delay > 0:   # someone else's timer was running: give it back what is left of it
            signal.setitimer(signal.ITIMER_REAL, max(0.001, old_delay - (time.monotonic() - start)), old_interval)
