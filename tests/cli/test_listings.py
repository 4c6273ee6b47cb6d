"""Every listing prints JSON on request, every flag explains itself, an empty filter says so."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from arena.cli.args import EPISODE_STATUSES, build_parser
from arena.cli.main import main
from arena.contract.records import EpisodeStatus

PLAY = ["play", "bargain", "--seat", "seller=baseline:honest", "--seat", "buyer=baseline:random", "--quiet"]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def listed(capsys: pytest.CaptureFixture[str], *argv: str) -> object:
    code, out, err = run(capsys, *argv, "--json")
    assert code == 0, err
    return json.loads(out)


def test_games_players_and_models_list_as_json(capsys: pytest.CaptureFixture[str], db_path: Path) -> None:
    games = listed(capsys, "games")
    assert isinstance(games, list)
    bargain = next(game for game in games if game["name"] == "bargain")
    assert bargain["seats"] == ["seller", "buyer"]
    rounds = next(option for option in bargain["options"] if option["name"] == "rounds")
    assert (rounds["default"], rounds["minimum"], rounds["maximum"]) == (8, 2, 40)
    players = listed(capsys, "players", "bargain")
    assert isinstance(players, list)
    assert {"spec": "human", "description": "you, at the keyboard"} in players
    assert any(row["spec"] == "baseline:bluffing" for row in players)
    models = listed(capsys, "models")
    assert isinstance(models, dict) and set(models) == {"models_file", "models"}


def test_episodes_and_tournaments_list_as_json(capsys: pytest.CaptureFixture[str], db_path: Path) -> None:
    assert listed(capsys, "--db", str(db_path), "tournaments") == []
    assert run(capsys, "--db", str(db_path), *PLAY)[0] == 0
    episodes = listed(capsys, "--db", str(db_path), "episodes")
    assert isinstance(episodes, list) and len(episodes) == 1
    assert episodes[0]["game"] == "bargain" and episodes[0]["status"] == "finished"
    assert "seller=baseline:honest" in episodes[0]["players"]
    assert listed(capsys, "--db", str(db_path), "episodes", "--game", "lemonade") == []


def test_a_filter_that_matches_nothing_says_so(capsys: pytest.CaptureFixture[str], db_path: Path) -> None:
    assert run(capsys, "--db", str(db_path), *PLAY)[0] == 0
    code, out, _ = run(capsys, "--db", str(db_path), "episodes", "--game", "lemonade", "--status", "running")
    assert code == 0
    assert (
        out.strip()
        == "no episodes match --game lemonade --status running (see: arena episodes, without filters)"
    )
    code, out, _ = run(capsys, "--db", str(db_path), "episodes", "--player", "\x1b[31mred")
    assert "\x1b" not in out and out.startswith("no episodes match --player")
    code, out, _ = run(capsys, "--db", str(db_path), "episodes", "--status", "finished")
    assert out.startswith("id\tgame")


def test_the_status_filter_offers_exactly_the_stored_statuses() -> None:
    stored = {value for name, value in vars(EpisodeStatus).items() if name.isupper()}
    assert set(EPISODE_STATUSES) == stored


def test_every_flag_and_argument_has_help() -> None:
    missing = []
    parsers = [("arena", build_parser())]
    while parsers:
        name, parser = parsers.pop()
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                parsers += [(f"{name} {sub}", choice) for sub, choice in action.choices.items()]
                continue
            if action.help is None:
                missing.append(f"{name} {'/'.join(action.option_strings) or action.dest}")
    assert missing == []


def test_every_listing_command_takes_json() -> None:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    listings = ("games", "players", "models", "episodes", "tournaments", "leaderboard")
    without = [name for name in listings if "--json" not in sub.choices[name]._option_string_actions]
    assert without == []
