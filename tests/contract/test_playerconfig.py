"""Player configurations: canonical hashing, public URLs, the configuration of every kind."""

from __future__ import annotations

from arena.contract.playerconfig import config_hash, public_url, seat_configuration
from arena.plugins.games import get_game
from tests.support.scripted import ScriptedPlayer


def test_the_hash_is_of_canonical_json() -> None:
    assert config_hash({"a": 1, "b": [1, 2]}) == config_hash({"b": [1, 2], "a": 1})
    assert config_hash({"a": 1}) != config_hash({"a": 1.5})
    assert len(config_hash({})) == 64


def test_public_urls_lose_credentials_and_secret_query_parameters() -> None:
    url = "https://user:sk-secret@gateway.example:8443/v1?api_key=sk-secret&api-version=2024&token=t"
    assert public_url(url) == "https://gateway.example:8443/v1?api-version=2024"
    assert public_url("http://127.0.0.1:8090/v2") == "http://127.0.0.1:8090/v2"
    assert public_url(None) is None


def test_humans_and_baselines_have_configurations_too() -> None:
    game = get_game("lemonade").create(1, {})
    human = ScriptedPlayer([], spec="human")
    human.kind = "human"
    assert seat_configuration(human, game) == {"kind": "human", "name": "human"}
    model = ScriptedPlayer([], spec="m")
    assert seat_configuration(model, game) == {
        "kind": "model",
        "name": "m",
        "prompt_version": game.definition.prompt_version,
    }
