"""Prompt template versions: a short hash naming the texts a game's prompt is made from."""

from __future__ import annotations

import hashlib


def template_version(*parts: str) -> str:
    """A short, stable hash naming a prompt template (stored with every turn).

    The parts are remembered under the version, so a report can print the texts and the full
    SHA-256 this version is the start of (:func:`template_texts`).
    """
    digest = hashlib.sha256("\x1f".join(parts).encode()).hexdigest()
    _TEMPLATES[digest[:12]] = (digest, parts)
    return digest[:12]


_TEMPLATES: dict[str, tuple[str, tuple[str, ...]]] = {}


def template_texts(version: str) -> tuple[str, tuple[str, ...]] | None:
    """The full SHA-256 and the texts a :func:`template_version` ``version`` was made from, if made here.

    The full digest is of the parts joined by the unit separator (``\\x1f``), as the version is.
    """
    return _TEMPLATES.get(version)
