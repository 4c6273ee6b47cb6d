"""A catalogue: a family of games another library holds, played through one adapter.

A catalogue registers under the ``arena.catalogues`` entry point group by its prefix
(``openspiel = "games.openspiel_catalogue:CATALOGUE"``). Its games are named
``PREFIX:NAME`` (``openspiel:liars_dice``) everywhere a game name goes: ``arena play``, the
models of a tournament, the store, replay. A catalogue lists the games it curates (those that
play well as text), says which it cannot offer here and why, and loads any game by name,
curated or not. Lists read :meth:`Catalogue.listed` and :meth:`Catalogue.unavailable`, so both
must stay cheap: a library that is slow to import is imported by :meth:`Catalogue.load` only.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from arena.contract.game import GameDefinition

PREFIX_SEPARATOR = ":"
"""Between a catalogue's prefix and a game's own name (``openspiel:chess``)."""


class CatalogueError(LookupError):
    """A catalogue cannot offer a game: unknown, unavailable here, or its library missing.

    The message is one line a person can act on (no traceback).
    """


class Catalogue(ABC):
    """A family of games from one library, adapted to Arena's contract."""

    prefix: ClassVar[str]
    """The registered prefix: games are named ``PREFIX:NAME``."""
    title: ClassVar[str]
    """The library as people know it (``OpenSpiel``), for lists and disclosure."""
    install_hint: ClassVar[str]
    """How to get the library when it is missing (``pip install 'arena[openspiel]'``)."""

    @abstractmethod
    def listed(self) -> tuple[str, ...]:
        """The curated games' own names (without the prefix), cheap: no slow import."""

    def unavailable(self) -> dict[str, str]:
        """Games this catalogue knows but cannot offer here, each with the reason (cheap)."""
        return {}

    @abstractmethod
    def load(self, name: str) -> GameDefinition:
        """The definition of game ``name`` (its own name, no prefix), named ``PREFIX:NAME``.

        Raises :class:`CatalogueError` with one line for a name the library does not know, a
        game that cannot run here, or the library not installed.
        """

    def qualified(self, name: str) -> str:
        """``PREFIX:NAME`` for one of this catalogue's games."""
        return f"{self.prefix}{PREFIX_SEPARATOR}{name}"


__all__ = ["PREFIX_SEPARATOR", "Catalogue", "CatalogueError"]
