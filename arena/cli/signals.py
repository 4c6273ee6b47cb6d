"""Running a command's coroutine so that a signal always reaches its event loop.

The kernel hands a process's signal (Ctrl-C, ``kill``) to any thread that does not
block it: often the thread waiting for a person's line, or one computing an offline
model's reply. Python runs its signal handlers in the main thread only, and that thread
sits in the event loop's ``epoll`` wait, which such a signal does not interrupt: with
nothing else to do, Ctrl-C then went unanswered. A wakeup file descriptor (written by
the interpreter for every signal, in whichever thread it lands) that the loop watches
wakes it, and asyncio's own Ctrl-C handling (cancel the main task) runs as before.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def run_woken(main: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(main)``, its loop woken by every signal the process receives."""
    return asyncio.run(_woken(main))


async def _woken(main: Coroutine[Any, Any, T]) -> T:
    loop = asyncio.get_running_loop()
    read, write = os.pipe()
    os.set_blocking(read, False)
    os.set_blocking(write, False)
    previous = signal.set_wakeup_fd(write, warn_on_full_buffer=False)
    loop.add_reader(read, _drain, read)
    try:
        return await main
    finally:
        loop.remove_reader(read)
        signal.set_wakeup_fd(previous)
        os.close(read)
        os.close(write)


def _drain(fd: int) -> None:
    """Empty the wakeup pipe (the bytes are signal numbers; the handlers already know)."""
    with contextlib.suppress(BlockingIOError):
        while os.read(fd, 512):
            pass
