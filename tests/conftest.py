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

# Modules holding the suite's longest tests (10-50 s each: the offline model, the coverage
# simulations, whole app flows, a wheel built and type-checked), longest first. They run
# before the rest: `make test` hands each worker its next test as it frees up
# (`--dist load --maxschedchunk 1`), so the long tests start early and the run does not end
# with one of them alone on a core. A module missing from the list only loses its head start.
RUN_FIRST = (
    "tests/players/test_model_memory_context.py",
    "tests/players/test_model_matches.py",
    "tests/players/test_model_local.py",
    "tests/tournament/test_coverage.py",
    "tests/app/test_app_paperclip.py",
    "tests/app/test_app_bargain.py",
    "tests/app/test_app_responsive.py",
    "tests/contract/test_typed_package.py",
    "tests/app/test_app_tournament.py",
    "tests/app/test_app_match.py",
    "tests/golden/test_golden.py",
    "tests/tournament/test_tournament_run.py",
    "tests/app/test_app_keys.py",
    "tests/app/test_screens.py",
    "tests/players/test_model_wire.py",
    "tests/app/test_prerender.py",
    "tests/engine/test_import_hygiene.py",
    "tests/games/test_example_game.py",
    "tests/games/test_paperclip_game.py",
    "tests/app/test_app_replay.py",
    "tests/app/test_app_form.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Move the modules of :data:`RUN_FIRST` to the front, in its order (the rest keep theirs)."""
    rank = {path: index for index, path in enumerate(RUN_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(rank)))


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
