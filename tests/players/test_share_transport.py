"""A tournament's fresh model player borrows the connections of the one it prepared once.

``Player.share_transport`` is declared on the player base (nothing to share by default); model
players take a prepared player's SDK client only when it is of the same class and settings.
"""

from __future__ import annotations

import asyncio

from players.models.anthropic_player import AnthropicPlayer
from players.models.openai_player import OpenAIPlayer
from tests.support.modelkit import settings_for
from tests.support.scripted import ScriptedPlayer
from tests.support.wire_server import WireServer


def test_a_fresh_model_player_borrows_the_prepared_players_client(wire: WireServer, canary_key: str) -> None:
    settings = settings_for("openai-chat", wire)
    prepared = OpenAIPlayer("m", settings, seed=1)
    fresh = OpenAIPlayer("m", settings, seed=2)
    assert fresh.share_transport(prepared)
    assert fresh.client() is prepared.client()
    asyncio.run(fresh.close())  # the client stays the prepared player's to close
    assert not prepared.client().is_closed()
    asyncio.run(prepared.close())


def test_no_client_is_borrowed_across_settings_classes_or_kinds(wire: WireServer, canary_key: str) -> None:
    prepared = OpenAIPlayer("m", settings_for("openai-chat", wire), seed=1)
    warmer = OpenAIPlayer("m", settings_for("openai-chat", wire, temperature=0.1), seed=2)
    assert not warmer.share_transport(prepared)
    other_class = AnthropicPlayer("m", settings_for("anthropic", wire), seed=3)
    assert not other_class.share_transport(prepared)
    assert not prepared.share_transport(ScriptedPlayer([]))
    assert not ScriptedPlayer([]).share_transport(prepared)  # the base: nothing to share
