"""The app's view logic stays importable without Textual (it is tested as plain objects)."""

from __future__ import annotations

import subprocess
import sys

PLAIN_MODULES = (
    "arena.app",
    "arena.app.browse_data",
    "arena.app.home_data",
    "arena.app.human",
    "arena.app.live",
    "arena.app.match_data",
    "arena.app.replay_data",
    "arena.app.safe",
    "arena.app.tournament_board",
    "arena.app.tournament_charts",
    "arena.app.tournament_job",
    "arena.app.tournament_data",
)


def test_screen_data_modules_do_not_import_textual() -> None:
    code = (
        f"import sys\nfor name in {PLAIN_MODULES!r}:\n    __import__(name)\nprint('textual' in sys.modules)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"
