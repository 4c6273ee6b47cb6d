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


class _Running:
    """The command's loop and main task while :func:`run_woken` runs it."""

    loop: asyncio.AbstractEventLoop | None = None
    task: asyncio.Task[Any] | None = None
    stopped = False


def run_woken(main: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(main)``, its loop woken by every signal the process receives.

    Raises ``KeyboardInterrupt`` when :func:`stop` ended it, as asyncio does for Ctrl-C.
    """
    _Running.stopped = False
    try:
        return asyncio.run(_woken(main))
    except asyncio.CancelledError:
        if _Running.stopped:
            raise KeyboardInterrupt from None
        raise
    finally:
        _Running.loop = _Running.task = None


def stop() -> None:
    """End the running command as Ctrl-C would (cancel its main task); safe in a signal handler.

    For a kill while Ctrl-C is ignored (a shell's background job), where asyncio has no
    Ctrl-C handler to call. Once the command's task is done, or outside :func:`run_woken`
    with no event loop running, it raises ``KeyboardInterrupt`` (plain code stops there).
    Another command's loop (the app's) is left alone, as the ignored Ctrl-C leaves it.
    """
    loop, task = _Running.loop, _Running.task
    if loop is not None and task is not None and not task.done():
        _Running.stopped = True
        loop.call_soon_threadsafe(task.cancel)
        return
    if _running_loop() is None:
        raise KeyboardInterrupt


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


async def _woken(main: Coroutine[Any, Any, T]) -> T:
    loop = asyncio.get_running_loop()
    _Running.loop, _Running.task = loop, asyncio.current_task()
    read, write = os.pipe()
    os.set_blocking(read, False)
    os.set_blocking(write, False)
    previous = signal.set_wakeup_fd(write, warn_on_full_buffer=False)
    loop.add_reader(read, _drain, read)
    try:
        return await main
    finally:
        _Running.loop = _Running.task = None  # from here on a kill stops plain code (see stop)
        loop.remove_reader(read)
        signal.set_wakeup_fd(previous)
        os.close(read)
        os.close(write)


def _drain(fd: int) -> None:
    """Empty the wakeup pipe (the bytes are signal numbers; the handlers already know)."""
    with contextlib.suppress(BlockingIOError):
        while os.read(fd, 512):
            pass
