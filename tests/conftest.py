"""Shared fixtures: a real SQLite store in a temp file for every test that wants one."""

from __future__ import annotations

import os

# As arena.tournament does, before anything imports numpy: one BLAS thread per process,
# so two test workers on two cores do not oversubscribe them.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.store.database import Store


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
