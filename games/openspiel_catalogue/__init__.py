"""OpenSpiel's games in Arena: the ``openspiel`` catalogue (``arena play openspiel:liars_dice``).

Importing this package does not import the library: listing stays fast, and a machine without
``open-spiel`` lists the curated games as unavailable with the install hint.
"""

from __future__ import annotations

from games.openspiel_catalogue.catalogue import CATALOGUE, OpenSpielCatalogue

__all__ = ["CATALOGUE", "OpenSpielCatalogue"]
