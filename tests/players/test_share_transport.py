"""A tournament's fresh model player borrows the connections of the one it prepared once.

``Player.share_transport`` is declared on the player base (nothing to share by default); model
players take a prepared player's SDK client only when it is of the same class and settings.
"""

from __future__ import annotations

import asyncio

from players.models.factory import player_for
from tests.support.modelkit import settings_for
from tests.support.scripted import ScriptedPlayer
from tests.support.wire_server import WireServer


def test_a_fresh_model_player_borrows_the_prepared_players_client(wire: WireServer, canary_key: str) -> None:
    settings = settings_for("openai-chat", wire)
    prepared = player_for("m", settings, seed=1)
    fresh = player_for("m", settings, seed=2)
    assert fresh.share_transport(prepared)
    client = prepared.client()
    assert client is not None and fresh.client() is client
    asyncio.run(fresh.close())  # the client stays the prepared player's to close
    assert prepared.client() is client
    asyncio.run(prepared.close())


def test_no_client_is_borrowed_across_settings_classes_or_kinds(wire: WireServer, canary_key: str) -> None:
    prepared = player_for("m", settings_for("openai-chat", wire), seed=1)
    warmer = player_for("m", settings_for("openai-chat", wire, temperature=0.1), seed=2)
    assert not warmer.share_transport(prepared)
    other_class = player_for("m", settings_for("anthropic", wire), seed=3)
    assert not other_class.share_transport(prepared)
    assert not prepared.share_transport(ScriptedPlayer([]))
    assert not ScriptedPlayer([]).share_transport(prepared)  # the base: nothing to share
