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
