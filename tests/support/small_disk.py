"""A small real disk for tests of what a full disk does: a tmpfs mounted for the test.

Mounting needs root (the suite runs as root in CI and ``make test``); elsewhere the tests that
need one are skipped with that reason. ``grow`` remounts it bigger (space freed), ``read_only``
remounts it read-only.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest


class SmallDisk:
    """A mounted tmpfs at :attr:`path`."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def remount(self, options: str) -> None:
        subprocess.run(["mount", "-o", f"remount,{options}", str(self.path)], check=True)

    def grow(self, size: str) -> None:
        """Give it ``size`` (e.g. ``"64m"``): as if space had been freed."""
        self.remount(f"size={size}")

    def fill(self) -> None:
        """Take its last free byte (a file that grows until the disk refuses)."""
        with (self.path / "filler").open("wb", buffering=0) as out, contextlib.suppress(OSError):
            while True:  # tmpfs hands out whole pages: the last write that fits leaves none
                out.write(b"\0" * 4096)


@contextlib.contextmanager
def small_disk(folder: Path, size: str) -> Iterator[SmallDisk]:
    """A tmpfs of ``size`` bytes (``"600k"``) mounted on ``folder`` (made), unmounted after."""
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs to fill needs root (make test and CI run as root)")
    folder.mkdir(parents=True, exist_ok=True)
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)], capture_output=True, text=True
    )
    if mounted.returncode != 0:
        pytest.skip(
            f"cannot mount a tmpfs here ({mounted.stderr.strip()}): a container without CAP_SYS_ADMIN"
        )
    try:
        yield SmallDisk(folder)
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)
