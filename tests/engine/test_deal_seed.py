"""A person's deal is secret: with a human seat and no seed given, the engine draws one no one chose."""

from __future__ import annotations

import pytest

from arena.contract.player import Player
from arena.engine.builtin_players import HUMAN
from arena.engine.deal_seed import DEFAULT_SEED, HUMAN_SPEC, episode_seed, has_human_seat
from arena.engine.match import MatchConfig, prepare_runner
from arena.engine.user_input import INT64_MAX
from arena.plugins.players import SpecError, parse_player_spec
from players.console_human import ConsoleDesk, ConsoleHuman

PERSON = {"seller": "human", "buyer": "baseline:honest"}
MACHINES = {"seller": "baseline:bluffing", "buyer": "baseline:honest"}


def test_a_human_seat_is_told_apart_from_baselines_and_models() -> None:
    assert has_human_seat(PERSON) and has_human_seat({"a": " human "})
    assert not has_human_seat(MACHINES)
    assert not has_human_seat({"a": "openai:gpt-4.1-mini", "b": "no such kind:x"})


def test_the_human_spec_is_the_only_spelling_of_the_human_kind() -> None:
    assert parse_player_spec(HUMAN_SPEC).kind == HUMAN.name
    with pytest.raises(SpecError):
        parse_player_spec("human:me")
    assert parse_player_spec("Human").kind != HUMAN.name, "another case is a models-file name, not a person"


def test_without_a_seed_a_person_plays_a_fresh_secret_seed_and_machines_play_the_default() -> None:
    drawn = {episode_seed(None, PERSON) for _ in range(20)}
    assert len(drawn) == 20, "63 random bits: twenty draws never repeat"
    assert all(0 <= seed <= INT64_MAX for seed in drawn)
    assert episode_seed(None, MACHINES) == DEFAULT_SEED


def test_a_given_seed_is_played_as_given_with_or_without_a_person() -> None:
    assert episode_seed(7, PERSON) == 7
    assert episode_seed(0, PERSON) == 0
    assert episode_seed(7, MACHINES) == 7


def test_the_runner_plays_the_secret_seed_and_a_rematch_of_the_same_config_draws_another() -> None:
    config = MatchConfig("bargain", PERSON)
    first = prepare_runner(config, None, [], human_factory=_no_person, prepare_players=False)
    again = prepare_runner(config, None, [], human_factory=_no_person, prepare_players=False)
    assert first.game.seed != again.game.seed
    assert first.game.seed != DEFAULT_SEED
    machines = prepare_runner(MatchConfig("bargain", MACHINES), None, [], prepare_players=False)
    assert machines.game.seed == DEFAULT_SEED


def _no_person(seat: str) -> Player:
    return ConsoleHuman(desk=ConsoleDesk())  # the runner is only built here, never played
