"""The lines a newcomer meets first: an unknown game's suggestions, ``--help``'s data folder."""

from __future__ import annotations

import pytest

from arena.cli.main import main


def test_an_unknown_game_suggests_the_nearest_names_and_the_catalogues(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["play", "lemonad", "--seat", "a=human"]) != 0
    err = capsys.readouterr().err
    assert "did you mean lemonade?" in err and err.count("\n") == 1
    assert main(["play", "tictactoe", "--seat", "a=human"]) != 0
    err = capsys.readouterr().err
    assert "openspiel:tic_tac_toe" in err and "catalogues: openspiel, textarena" in err


def test_help_names_the_data_folder_this_environment_uses(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: object
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", "/srv/peopledata")
    with pytest.raises(SystemExit):
        main(["--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "/srv/peopledata/arena/arena.db" in out and ".local/share" not in out, out[out.find("--db DB") :][
        :200
    ]
