"""Players as listings show them: short names, full ids only where two short ones would look alike.

:func:`arena.plugins.players.short_names` turns ``openai-compat:/models/gemma-3.gguf@http://...``
into ``gemma-3.gguf``; the tournament tables use it, and so do the episode listings through
:func:`seat_cells`. Machine outputs (``--json``, exports) keep the full ids.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from arena.plugins.players import short_names


def seat_cells(seats: Mapping[int, Sequence[tuple[str, str, str]]]) -> dict[int, str]:
    """Each episode's ``seat=player`` cell (``a=gemma b=baseline:weather``) from
    :meth:`arena.store.database.Store.seat_players`, with names shortened across the whole listing.

    A name standing for several configurations keeps its ``#abcd`` mark after the short name.
    The cells are untrusted text (player names): show them through ``plain_text``.
    """
    names = short_names(player for rows in seats.values() for _, player, _ in rows)
    return {
        episode: " ".join(f"{seat}={names[player]}{mark}" for seat, player, mark in rows)
        for episode, rows in seats.items()
    }
