"""Players as listings show them: short names, full ids only where two short ones would look alike.

:func:`arena.plugins.players.short_names` turns ``openai-compat:/models/gemma-3.gguf@http://...``
into ``gemma-3.gguf``; the tournament tables use it, and so do the episode listings through
:func:`seat_cells`. Machine outputs (``--json``, exports) keep the full ids.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence


def listing_names(names: Iterable[str]) -> dict[str, str]:
    """:func:`arena.plugins.players.short_names`, loading the player kinds only if a name has a base URL.

    Only a spec with ``@URL`` can be shortened; a listing of baselines and models-file names
    then starts without importing every player kind (``arena episodes`` reads with sqlite3 alone).
    """
    distinct = list(dict.fromkeys(names))
    if not any("@" in name for name in distinct):
        return {name: name for name in distinct}
    from arena.plugins.players import short_names

    return short_names(distinct)


def seat_cells(seats: Mapping[int, Sequence[tuple[str, str, str]]]) -> dict[int, str]:
    """Each episode's ``seat=player`` cell (``a=gemma b=baseline:weather``) from
    :meth:`arena.store.database.Store.seat_players`, with names shortened across the whole listing.

    A name standing for several configurations keeps its ``#abcd`` mark after the short name.
    The cells are untrusted text (player names): show them through ``plain_text``.
    """
    return {episode: " ".join(parts) for episode, parts in seat_parts(seats).items()}


def seat_parts(seats: Mapping[int, Sequence[tuple[str, str, str]]]) -> dict[int, list[str]]:
    """:func:`seat_cells` as each episode's ``seat=player`` parts, one per seat (for one a line)."""
    names = listing_names(player for rows in seats.values() for _, player, _ in rows)
    return {
        episode: [f"{seat}={names[player]}{mark}" for seat, player, mark in rows]
        for episode, rows in seats.items()
    }
