"""Length-prefixed frames over a pipe, and how the store's writer process waits for them.

:mod:`arena.store.background_writer` sends each batch of writes to its child as one frame (a
4-byte little-endian length, then the frame) and reads replies the same way. A reader here
polls briefly after each frame and then sleeps: the parent on the pipe, the child in naps
it can be woken from (see :meth:`FrameReader._nap_until_rung` for why not on the pipe).
"""

from __future__ import annotations

import contextlib
import os
import select
import struct
import time
from collections.abc import Iterator

LENGTH = struct.Struct("<I")
"""A frame's length prefix."""
SPIN_SECONDS = 0.0002
"""How long a reader polls for the next frame before it sleeps (see :class:`_FrameReader`)."""
NAP_SECONDS = (0.001, 0.05)
"""First and longest nap of an idle child between looks at the pipe (see _nap_until_rung)."""


class FrameReader:
    """Reads length-prefixed frames from a pipe, polling briefly before it sleeps.

    After a frame the reader keeps polling for :data:`SPIN_SECONDS` (yielding its core):
    while scripted players play, the next step arrives within that time, so the sender's
    write finds the reader awake and costs it no wake-up, and a reply is picked up as soon
    as it is written. Then the parent's reader sleeps on the pipe; the child naps instead
    (see :meth:`_nap_until_rung`).
    """

    def __init__(self, fd: int, doorbell: int | None = None) -> None:
        os.set_blocking(fd, False)
        self._fd = fd
        self._doorbell = doorbell
        self._nap = NAP_SECONDS[0]
        self._buffer = bytearray()

    def __iter__(self) -> Iterator[bytes]:
        while (frame := self.next()) is not None:
            yield frame

    def next(self) -> bytes | None:
        """The next frame, or ``None`` once the other end has closed the pipe."""
        buffer = self._buffer
        while True:
            if len(buffer) >= LENGTH.size:
                (size,) = LENGTH.unpack_from(buffer)
                end = LENGTH.size + size
                if len(buffer) >= end:
                    frame = bytes(buffer[LENGTH.size : end])
                    del buffer[:end]
                    return frame
            chunk = self._read()
            if not chunk:
                return None  # end of input: the other side closed the pipe or died
            buffer += chunk

    def _read(self) -> bytes:
        spin_until = time.perf_counter() + SPIN_SECONDS
        while True:
            try:
                chunk = os.read(self._fd, 1 << 16)
                self._nap = NAP_SECONDS[0]
                return chunk
            except BlockingIOError:
                pass
            if time.perf_counter() < spin_until:
                os.sched_yield()  # anything else that wants this core gets it
            elif self._doorbell is None:
                select.select([self._fd], [], [])
            else:
                self._nap_until_rung(self._doorbell)

    def _nap_until_rung(self, doorbell: int) -> None:
        """Sleep a while, or until the parent rings because it waits for a reply.

        The child does not sleep on the pipe: a pipe wakes its reader with a "synchronous"
        hint, which Linux answers by running the reader on the writer's own core,
        pre-empting the playing process while the other core idles (0.5 ms per step of a
        model episode, measured). Naps grow from 1 ms to 50 ms while nothing comes, so an
        idle writer wakes about 20 times a second; what was sent waits in the pipe meanwhile.
        """
        select.select([doorbell], [], [], self._nap)
        with contextlib.suppress(BlockingIOError):
            os.eventfd_read(doorbell)
        self._nap = min(self._nap * 2, NAP_SECONDS[1])


def new_doorbell() -> int | None:
    """An eventfd the parent rings when it waits for a reply (Linux), or ``None``."""
    try:
        return os.eventfd(0, os.EFD_NONBLOCK | os.EFD_CLOEXEC)
    except (AttributeError, OSError):
        return None
