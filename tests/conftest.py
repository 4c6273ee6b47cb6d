"""Shared fixtures: a real SQLite store in a temp file for every test that wants one.

The whole suite runs with its own user folders: before any test module is imported (the
child processes tests start copy this environment), ``$XDG_DATA_HOME`` and ``$XDG_CONFIG_HOME``
point into a temporary folder and a developer's own ``$ARENA_DB`` and ``$ARENA_MODELS`` are
dropped, so no test reads or writes the real default database or models file. The offline
model loads the binding's own llama.cpp libraries, never a checkout's ``make llama-native``
build (recorded replies and goldens come from the wheel's).
"""

from __future__ import annotations

import atexit
import gc
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

_USER_FOLDERS = tempfile.mkdtemp(prefix="arena-tests-user-")
atexit.register(shutil.rmtree, _USER_FOLDERS, ignore_errors=True)
os.environ["XDG_DATA_HOME"] = os.path.join(_USER_FOLDERS, "data")
os.environ["XDG_CONFIG_HOME"] = os.path.join(_USER_FOLDERS, "config")
os.environ.pop("ARENA_DB", None)
os.environ.pop("ARENA_MODELS", None)
os.environ["ARENA_LLAMA_NATIVE"] = "off"

# As arena.tournament does, before anything imports numpy: one BLAS thread per process,
# so two test workers on two cores do not oversubscribe them.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import pytest  # noqa: E402 - after the environment above, as arena.tournament sets it

from arena.store.database import Store  # noqa: E402

# The collector's young generation every 10,000 allocations instead of 700: an app test builds
# and drops tens of thousands of short-lived objects (widgets, strips, styles). With the freeze
# below, tests/app/test_app_narrow.py ran 9,755 collections at 700 and 530 at 10,000, and
# tests/app took 244 / 222 user CPU s at 700 against 218 / 194 s at 10,000 (-n 4, two runs each).
gc.set_threshold(10_000, 10, 10)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """After each test: free its cycles, then freeze what is left out of later full collections.

    What outlives a test (imported modules, games, caches) is long-lived, and a worker's
    full collections went over all of it again and again: its count grew from 115,000 to
    over 300,000 objects in one app module, and full passes took 20 s of the module's 83 s.
    The app does the same at start-up (``freeze_gc``). The collection first frees the test's
    own garbage, so only what is still referenced is frozen.
    """
    yield
    gc.collect()
    gc.freeze()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """Path of a fresh database file."""
    return tmp_path / "arena.db"


@pytest.fixture
def store(db_path: Path) -> Iterator[Store]:
    """A real store over a temp file."""
    opened = Store(db_path)
    yield opened
    opened.close()
