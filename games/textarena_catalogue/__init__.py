"""TextArena's text games as Arena games (``textarena:TicTacToe-v0``), registered under ``arena.catalogues``.

Listing reads static tables (:mod:`.listing`); TextArena itself is imported only when a game
is loaded. Modules: ``listing`` (what is offered), ``catalogue`` (the entry point),
``definition`` (one definition per environment), ``episode`` (driving one environment,
isolated), ``state`` (the Arena state), ``moves`` (legal moves per environment),
``baselines``, ``view``, ``isolation`` (each episode's own global RNG states).
"""

from __future__ import annotations

from games.textarena_catalogue.catalogue import CATALOGUE, TextArenaCatalogue

__all__ = ["CATALOGUE", "TextArenaCatalogue"]
