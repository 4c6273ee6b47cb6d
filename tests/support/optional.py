"""Skipping tests whose optional library is missing, without importing the library to find out.

``pytest.importorskip`` at a module's top imports the library while the suite is collected, and
every xdist worker collects every module: TextArena pulls in NLTK and SciPy, about 3 CPU s per
worker, even on the workers that run none of its tests. ``needs`` asks the import system
whether the library is there (``find_spec``, no import); the tests import it when they run.
"""

from __future__ import annotations

import importlib.util

import pytest


def needs(library: str) -> pytest.MarkDecorator:
    """A ``skipif`` mark for a missing ``library`` (as ``pytestmark = needs("textarena")``)."""
    missing = importlib.util.find_spec(library) is None
    return pytest.mark.skipif(missing, reason=f"{library} is not installed")
