"""A function that waits for the test's word before it runs: a computation kept in flight, no clock."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class Held(Generic[T]):
    """``function``, called from another thread, held until :meth:`release` (it starts held).

    The app is given it where it takes a real function (e.g. a
    :class:`~arena.app.table_worker.TableWorker`'s table functions); the test decides when
    the computation may go on, and reads how many began and ended.
    """

    def __init__(self, function: Callable[..., T]) -> None:
        self.function = function
        self.gate = threading.Event()
        self.started = 0
        self.finished = 0
        self.threads: list[threading.Thread] = []
        """The threads that called it, in order."""

    def __call__(self, *args: Any) -> T:
        self.threads.append(threading.current_thread())
        self.started += 1
        self.gate.wait()
        try:
            return self.function(*args)
        finally:
            self.finished += 1

    def release(self) -> None:
        """Let every call, waiting or to come, run."""
        self.gate.set()

    @contextmanager
    def holding(self) -> Iterator[None]:
        """Calls stay held until the block ends, however it ends (no thread is left waiting)."""
        try:
            yield
        finally:
            self.release()
