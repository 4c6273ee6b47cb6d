"""Fixtures for the app tests."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def app_db(tmp_path: Path) -> Path:
    """A fresh database file for one app."""
    return tmp_path / "app.db"
