"""The TextArena catalogue: lists from static data, loads a definition (and TextArena) on demand."""

from __future__ import annotations

import functools
import importlib.util
from typing import TYPE_CHECKING, ClassVar

from arena.contract.catalogue import Catalogue, CatalogueError
from games.textarena_catalogue.listing import LISTED, UNAVAILABLE

if TYPE_CHECKING:
    from arena.contract.game import GameDefinition


class TextArenaCatalogue(Catalogue):
    """TextArena's environments that run offline, as ``textarena:ID`` (``textarena:TicTacToe-v0``)."""

    prefix: ClassVar[str] = "textarena"
    title: ClassVar[str] = "TextArena"
    install_hint: ClassVar[str] = "pip install 'arena[textarena]'"

    def __init__(self) -> None:
        self._definitions: dict[str, GameDefinition] = {}

    def listed(self) -> tuple[str, ...]:
        """The curated environments' ids (static data: TextArena is not imported)."""
        return tuple(LISTED)

    def unavailable(self) -> dict[str, str]:
        """Known environments that cannot run here, with the reason (static data)."""
        return dict(UNAVAILABLE)

    def load(self, name: str) -> GameDefinition:
        """The definition of a listed environment; TextArena is imported here, the first time."""
        if name in self._definitions:
            return self._definitions[name]
        if name in UNAVAILABLE:
            raise CatalogueError(f"textarena:{name} is unavailable: {UNAVAILABLE[name]}")
        if name not in LISTED:
            listed = ", ".join(LISTED)
            raise CatalogueError(
                f"textarena:{name} is not in Arena's TextArena catalogue (it lists the environments it has"
                f" a legal-move generator for: {listed})"
            )
        if not _textarena_installed():
            raise CatalogueError(f"textarena:{name} needs TextArena: {self.install_hint}")
        from games.textarena_catalogue.definition import make_definition

        definition = make_definition(LISTED[name])
        self._definitions[name] = definition
        return definition


@functools.cache
def _textarena_installed() -> bool:
    return importlib.util.find_spec("textarena") is not None


CATALOGUE = TextArenaCatalogue()
"""The registered catalogue (``arena.catalogues``: ``textarena``)."""
