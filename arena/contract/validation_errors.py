"""Pydantic's ``ValidationError`` as the short lines Arena shows: one formatter for every caller.

Game options, a model's or a person's action, the tournament file and the models file are all
checked by pydantic; each caller says what the whole input is called (``options``, ``reply``)
and how many problems it shows, and gets ``where: message`` in the same words everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the caller has pydantic loaded already; importing this module needs none
    from pydantic import ValidationError

VALIDATOR_PREFIXES = ("Value error, ", "Assertion failed, ")
"""What pydantic puts before the words of a validator's own ``ValueError`` or ``assert``."""
PLAIN_WORDS = {
    "extra_forbidden": "not a known setting here (a typo?)",
}
"""Pydantic's messages a person could not act on, said in plain words, by error type.

A models-file typo (``temperatur = 0.2``) read "Extra inputs are not permitted"."""


@dataclass(frozen=True, slots=True)
class Problem:
    """One error of a ``ValidationError``: where, pydantic's error type and its message."""

    loc: tuple[str, ...]
    """The path to the bad value (field names, list indexes as text); empty for the whole input."""
    type: str
    """Pydantic's error type (``missing``, ``extra_forbidden``, ``greater_than_equal``...)."""
    message: str
    """Pydantic's message, without the prefix it puts before a validator's own words."""

    @property
    def where(self) -> str:
        """The dotted path (``options.days``), empty for the whole input."""
        return ".".join(self.loc)


def problems(exc: ValidationError, limit: int | None = None) -> list[Problem]:
    """The first ``limit`` errors of ``exc`` (all when ``None``), in pydantic's order."""
    found = []
    for error in exc.errors()[:limit]:
        message = str(error["msg"])
        for prefix in VALIDATOR_PREFIXES:
            message = message.removeprefix(prefix)
        message = PLAIN_WORDS.get(str(error["type"]), message)
        found.append(Problem(tuple(str(part) for part in error["loc"]), str(error["type"]), message))
    return found


def first_problem(exc: ValidationError) -> Problem:
    """The first error of ``exc`` (a ``ValidationError`` holds at least one)."""
    return problems(exc, 1)[0]


def one_line(exc: ValidationError, *, whole: str, limit: int = 1) -> str:
    """``where: message`` for the first ``limit`` errors joined by ``"; "``; ``whole`` names an
    error about the input as a whole (``options: ...``)."""
    return "; ".join(f"{problem.where or whole}: {problem.message}" for problem in problems(exc, limit))
