"""The environments tests run child processes in."""

from __future__ import annotations

import os

OUR_ENV = {**os.environ, "PYTHONUNBUFFERED": "1"}
"""The environment the suite itself runs in, with unbuffered output."""

MINIMAL_ENV = {
    key: value
    for key, value in os.environ.items()
    if key not in {"PYTHONUNBUFFERED", "TERM", "COLUMNS", "LINES"} and not key.startswith(("LC_", "LANG"))
}
"""How most users run: no PYTHONUNBUFFERED (stdout is block-buffered into a pipe), no TERM, no locale."""
