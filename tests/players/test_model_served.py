"""What served a call: the model id (and fingerprint) each provider's reply names reaches the decision."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from arena.contract.player import Decision
from arena.plugins.players import parse_player_spec
from players.models import ModelPlayer, ModelsConfig, build_model_player
from players.models.config import ConfigError, parse_models_config
from tests.support.modelkit import GOOD, PROVIDERS, make_request
from tests.support.wire_server import WireServer, reply

ConfigFor = Callable[..., ModelsConfig]


def model_player(config: ModelsConfig, name: str = "m") -> ModelPlayer:
    built = build_model_player(parse_player_spec(name), seed=1, config=config)
    assert isinstance(built, ModelPlayer)
    return built


async def decide(config: ModelsConfig, wire: WireServer, **served: str) -> Decision:
    wire.script(reply(GOOD, **served))
    played = model_player(config)
    await played.prepare()
    try:
        decision = await played.decide(make_request())
    finally:
        await played.close()
    assert decision.error is None, decision.error_detail
    return decision


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_the_model_id_the_reply_names_is_what_served_it(
    provider: str, wire: WireServer, config_for: ConfigFor
) -> None:
    decision = await decide(config_for(provider), wire, served_model="snapshot-2026-01-01")
    assert decision.served == {"model": "snapshot-2026-01-01"}


@pytest.mark.parametrize("provider", ["openai-chat", "openai-compat"])
async def test_chat_completions_replies_also_give_their_system_fingerprint(
    provider: str, wire: WireServer, config_for: ConfigFor
) -> None:
    decision = await decide(config_for(provider), wire, system_fingerprint="fp_44709d6fcb")
    asked = config_for(provider).models["m"].model
    assert decision.served == {"model": asked, "system_fingerprint": "fp_44709d6fcb"}


def test_a_price_source_is_read_from_the_models_file_and_joins_the_configuration() -> None:
    table = {"provider": "openai", "model": "gpt-x", "price_input_per_mtok": 1.0}
    sourced = {**table, "price_source": {"source": "https://openai.com/api/pricing/", "date": "2026-11-30"}}
    config = parse_models_config({"models": {"plain": table, "sourced": sourced}})
    assert config.models["sourced"].price_source is not None
    assert config.models["sourced"].price_source.as_dict() == {
        "source": "https://openai.com/api/pricing/",
        "date": "2026-11-30",
    }
    described = {name: model_player(config, name).configuration() for name in ("plain", "sourced")}
    # Without one the configuration (and its hash) is what it was before price_source existed.
    assert "price_source" not in described["plain"]
    assert described["sourced"]["price_source"] == {
        "source": "https://openai.com/api/pricing/",
        "date": "2026-11-30",
    }


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ({"source": "https://x.test/pricing"}, "price_source.date"),
        ({"source": "", "date": "2026-11-30"}, "price_source.source"),
        ({"source": "x", "date": "last week"}, "price_source.date"),
        ({"source": "x", "date": "2026-11-30", "by": "me"}, "price_source.by"),
    ],
)
def test_a_price_source_needs_a_source_and_a_date(source: dict[str, str], message: str) -> None:
    table = {"provider": "openai", "model": "gpt-x", "price_source": source}
    with pytest.raises(ConfigError, match=message):
        parse_models_config({"models": {"m": table}})
