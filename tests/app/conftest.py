"""Fixtures for the app tests."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

import tests.support.app_driving  # noqa: F401 - Pilot's own wait gets the suite's guard, for every app test


@pytest.fixture
def app_db(tmp_path: Path) -> Path:
    """A fresh database file for one app."""
    return tmp_path / "app.db"


@pytest.fixture(autouse=True)
def table_threads_end_with_their_test() -> Iterator[None]:
    """Wait for the tables a test's app was still computing before the next test starts.

    The app leaves a computation nobody will read to finish in its daemon thread (quitting
    does not wait for it: :mod:`arena.app.table_worker`). In the suite such a thread would go
    on taking a core from the next tests on the same worker, and its work be counted there.
    """
    yield
    for thread in threading.enumerate():
        if thread.name == "arena-tables":
            thread.join(timeout=600)  # a guard against a hang, not a timing
