"""Writing the files a user asked for: whole or not at all, and only where they meant.

- :func:`write_atomically` writes beside the target and renames into place, so a full disk or
  a crash leaves the old file or none, never half of one (a report cut off mid-write was an
  invalid ``report.json``).
- :func:`file_in_folder` turns a file name typed into a dialog into a path inside the chosen
  folder, refusing names that climb out of it (``../``, an absolute path, a link leading out).
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


class OutsideFolder(ValueError):
    """A file name that would write outside the chosen folder."""


def partial_path(target: Path) -> Path:
    """The temporary name a file is written under before it is renamed to ``target``."""
    return target.with_name(f".{target.name}.partial-{os.getpid()}")


def write_atomically(target: Path, data: str | bytes) -> None:
    """Write ``data`` (text as UTF-8) to ``target`` through a temporary file and a rename."""
    partial = partial_path(target)
    try:
        with partial.open("wb") as out:
            out.write(data.encode("utf-8") if isinstance(data, str) else data)
            out.flush()
            os.fsync(out.fileno())
        partial.replace(target)
    except BaseException:
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)
        raise


def file_in_folder(folder: Path, name: str) -> Path:
    """``folder / name`` if it stays inside ``folder``; :class:`OutsideFolder` if not.

    ``name`` is one file name: no folder part, no ``..``, not absolute, not hidden, and not an
    existing link that leads elsewhere."""
    name = name.strip()
    if not name:
        raise OutsideFolder("give a file name")
    if name in (".", "..") or "/" in name or "\\" in name or name.startswith(("~", ".")) or "\x00" in name:
        raise OutsideFolder(f"{name!r} is not a plain file name: the file goes in the folder above")
    root = folder.expanduser().resolve()
    target = root / name
    if target.resolve().parent != root:  # a link named like the file, pointing out of the folder
        raise OutsideFolder(f"{name!r} leads outside {root}")
    return target
