"""Where Arena keeps its files: one module so every front end agrees."""

from __future__ import annotations

import os
from pathlib import Path

DEFAULT_DB = Path("saves") / "arena.db"


def database_path(cli_value: str | None = None) -> Path:
    """``--db`` if given, else ``$ARENA_DB``, else ``saves/arena.db``."""
    if cli_value:
        return Path(cli_value).expanduser()
    env = os.environ.get("ARENA_DB")
    if env:
        return Path(env).expanduser()
    return DEFAULT_DB
