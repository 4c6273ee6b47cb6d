"""Where Arena keeps its database: one module so every front end agrees.

The default is one file per user, whatever the current folder: the platform's user data
folder (``$XDG_DATA_HOME/arena/arena.db``, by default ``~/.local/share/arena/arena.db``; on
macOS ``~/Library/Application Support/arena/arena.db``; on Windows ``%LOCALAPPDATA%\\arena``).
A path relative to the current folder gave ``arena play`` from another folder a new, empty
database there; a checkout's ``saves/`` would still depend on which checkout (or worktree,
or wheel) is running, and be lost with it. ``--db`` and ``$ARENA_DB`` choose another file.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

DATABASE_ENV = "ARENA_DB"
"""The environment variable that names the database (``--db`` wins over it)."""
FILE_NAME = "arena.db"
OLD_DEFAULT = Path("saves") / FILE_NAME
"""Where the default used to be, relative to the folder Arena was started in (before issue 24)."""


def user_data_dir() -> Path:
    """The platform's folder for this user's application data, with ``arena`` under it."""
    xdg = os.environ.get("XDG_DATA_HOME")
    if xdg and Path(xdg).is_absolute():  # the XDG spec: a relative value is invalid, ignore it
        return Path(xdg) / "arena"
    if sys.platform == "win32":
        local = os.environ.get("LOCALAPPDATA")
        if local:
            return Path(local) / "arena"
    home = Path.home()
    if sys.platform == "darwin":
        return home / "Library" / "Application Support" / "arena"
    return home / ".local" / "share" / "arena"


def default_database() -> Path:
    """The database used when neither ``--db`` nor ``$ARENA_DB`` names one (an absolute path)."""
    return user_data_dir() / FILE_NAME


def database_path(cli_value: str | None = None) -> Path:
    """``--db`` if given, else ``$ARENA_DB``, else :func:`default_database`."""
    if cli_value:
        return Path(cli_value).expanduser()
    env = os.environ.get(DATABASE_ENV)
    if env:
        return Path(env).expanduser()
    return default_database()


def chosen_by_default(cli_value: str | None = None) -> bool:
    """True if neither ``--db`` nor ``$ARENA_DB`` names the database."""
    return not cli_value and not os.environ.get(DATABASE_ENV)


def old_database_note(cli_value: str | None = None) -> str:
    """A line for a user whose episodes are in the old default, ``./saves/arena.db``, or ``""``.

    Said only while the new default does not exist yet (so once, before its first use creates
    it) and only when the old file is in the current folder: nothing is moved for the user.
    """
    if not chosen_by_default(cli_value):
        return ""
    new = default_database()
    if new.exists() or not OLD_DEFAULT.is_file():
        return ""
    return (
        f"the default database is now {new}; the episodes in {OLD_DEFAULT.resolve()} stay there"
        f" (open them with --db {OLD_DEFAULT}, or move that file to {new})"
    )
