"""Waiting on child processes in tests."""

from __future__ import annotations

import os
import time
from pathlib import Path


def wait_until_gone(pid: int) -> None:
    """Wait for a process to exit: gone, or a zombie not yet reaped by its parent (a guard
    against hanging, not a speed limit)."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except FileNotFoundError:
            return
        if state == "Z":
            return
        time.sleep(0.02)
    raise AssertionError(f"process {pid} is still running")


OUR_ENV = {**os.environ, "PYTHONUNBUFFERED": "1"}
"""The environment the suite itself runs in, with unbuffered output."""

MINIMAL_ENV = {
    key: value
    for key, value in os.environ.items()
    if key not in {"PYTHONUNBUFFERED", "TERM", "COLUMNS", "LINES"} and not key.startswith(("LC_", "LANG"))
}
"""How most users run: no PYTHONUNBUFFERED (stdout is block-buffered into a pipe), no TERM, no locale."""
