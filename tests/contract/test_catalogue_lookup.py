"""Game names with a catalogue prefix (``PREFIX:NAME``) are looked up in that catalogue."""

from __future__ import annotations

import pytest

from arena.plugins.games import UnknownGameError, get_game


def test_an_unknown_catalogue_prefix_is_one_clear_error() -> None:
    with pytest.raises(UnknownGameError, match=r"unknown game catalogue 'nosuch' \(known: "):
        get_game("nosuch:liars_dice")


def test_a_plain_unknown_game_still_names_the_known_games() -> None:
    with pytest.raises(UnknownGameError, match=r"unknown game 'nosuch'; Arena's games: .*lemonade"):
        get_game("nosuch")


def test_catalogues_list_in_entry_point_order_whichever_loaded_first() -> None:
    from arena.plugins import entry_points
    from arena.plugins.games import catalogue, catalogues, refresh

    prefixes = list(entry_points.plugin_points("arena.catalogues"))
    if len(prefixes) < 2:
        pytest.skip("needs two installed catalogues")
    refresh()
    try:
        catalogue(prefixes[-1])  # the last one loaded first
        assert [c.prefix for c in catalogues()] == prefixes
    finally:
        refresh()
