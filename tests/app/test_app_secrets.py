"""The app's home screen, which every ``arena serve`` tab sees, masks a base URL's password and token."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Static

from arena.app import create_app
from arena.app.screens.home import HomeScreen
from tests.players.test_model_secrets import PASSWORD, TOKEN, leaky_url, models_file
from tests.support.app_driving import render_plain, started, wait_until


async def test_the_home_screen_masks_a_base_url_s_secrets(
    app_db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    models_file(
        tmp_path,
        f'[models.leaky]\nprovider = "openai-compat"\nmodel = "m1"\nbase_url = "{leaky_url()}"\n',
        monkeypatch,
    )
    app = create_app(app_db)
    async with started(app, size=(200, 50)) as pilot:
        await wait_until(pilot, lambda: app.catalog.loaded, "the models file")
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen), "home")
        info = app.screen.query_one("#players-info", Static)
        await wait_until(pilot, lambda: "✗ leaky" in render_plain(info.content), "the model's line")
        text = render_plain(info.content)
        assert "connection refused at http://***@127.0.0.1" in text
        assert PASSWORD not in text and TOKEN not in text


def test_the_closing_line_shows_a_database_path_s_escape_codes_literally(tmp_path: Path) -> None:
    from arena.app import closing_line

    line = closing_line(tmp_path / "a\x1b]8;;http://evil.example\x07b\u202e.db")
    assert "\x1b" not in line and "\u202e" not in line
    assert line.endswith("a^[]8;;http:/evil.example^Gb<U+202E>.db")  # a path keeps one slash of two
