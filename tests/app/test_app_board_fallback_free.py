"""The tournament board and ``arena tournament table`` show each player's fallback share beside its
rating, and a player that made no model call as ``free`` (issue 42.2 in the app).

A model seat on the wire server (real SDK, real SQLite, no price) answers illegally twice on one
day: one of its four decisions is the game's fallback (25%, over a tenth: its rating is marked
'!'); the baseline it plays made no model call and its dollars read ``free``, never ``0.0000``.
The app's board must carry both at 80, 100, 140 and 160 columns without scrolling sideways.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.app import create_app
from arena.cli.main import main
from arena.store.database import Store
from arena.tournament.config import build_config
from arena.tournament.run import TournamentRun, create_tournament
from arena.tournament.standings import tournament_table
from players.models import ModelsConfig
from tests.support.app_driving import line_with, open_tournament_board, screen_text, started
from tests.support.modelkit import settings_for
from tests.support.wire_server import WireServer, reply

MODEL = "judge-model"
BASELINE = "baseline:weather"
GOOD = reply({"price": 3.0, "produce": 20, "promotion": "none", "reason": "steady"})
ILLEGAL = reply({"price": 3.0, "produce": 400, "promotion": "none", "reason": "go big"})
SIZES = ((80, 24), (100, 30), (140, 40), (160, 48))


@pytest.fixture
async def tournament(db_path: Path) -> int:
    """Lemonade over 2 days, the model against the baseline in both seatings, one deal seed."""
    store = Store(db_path)
    try:
        with WireServer() as wire:
            wire.script(GOOD, ILLEGAL, ILLEGAL)  # day 2 of its first episode: the fallback plays
            wire.responder = lambda body: GOOD
            config = build_config(
                game="lemonade", players=(MODEL, BASELINE), seeds=1, concurrency=1, options={"days": 2}
            )
            tournament_id = create_tournament(store, config)
            models = ModelsConfig(models={MODEL: settings_for("openai-compat", wire)})
            progress = await TournamentRun(store, tournament_id, models_config=models).run()
    finally:
        store.close()
    assert progress.status == "finished", progress.message
    return tournament_id


def row_line(player: str, text: str) -> str:
    """The one line of ``text`` that opens ``player``'s row: its rank, then its name."""
    lines = []
    for line in text.splitlines():
        words = line.replace("│", " ").split()
        if words[:1] and words[0].isdigit() and words[1:2] == [player]:
            lines.append(line)
    assert len(lines) == 1, f"{player!r} opens {len(lines)} rows of:\n{text}"
    return lines[0]


def test_the_table_says_free_for_the_baseline_and_the_models_fallback_share(
    db_path: Path, tournament: int, capsys: pytest.CaptureFixture[str]
) -> None:
    store = Store(db_path)
    try:
        table = tournament_table(store, tournament, resamples=50)
    finally:
        store.close()
    rows = {row["player"]: row for row in table["players"]}
    assert rows[BASELINE]["free"] and not rows[MODEL]["free"]
    assert rows[MODEL]["fallback_share"] == 0.25 and rows[MODEL]["unpriced"]
    capsys.readouterr()
    assert main(["--db", str(db_path), "tournament", "table", str(tournament)]) == 0
    out = capsys.readouterr().out
    assert "0.0000" not in out, "no player reads $0"
    baseline = row_line(BASELINE, out)
    assert "free" in baseline and "0%" in baseline
    model = row_line(MODEL, out)
    assert "unpriced" in model and "25%" in model and "!" in model


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
async def test_the_board_shows_the_fallback_share_and_free_at_every_width(
    db_path: Path, tournament: int, size: tuple[int, int]
) -> None:
    app = create_app(db_path, load_models=False)
    async with started(app, size=size) as pilot:
        screen, board = await open_tournament_board(pilot, app, tournament, rows=2)
        assert board.max_scroll_x == 0, f"{board.virtual_size.width} columns of board in {board.size.width}"
        shown = screen_text(app)
        assert "fallback" in line_with("#  player", shown)
        model, baseline = row_line(MODEL, shown), row_line(BASELINE, shown)
        assert "25%" in model and "unpriced" in model, model
        assert "0%" in baseline and "free" in baseline and "0.0000" not in shown, baseline
        assert screen.board is not None
        marked = next(row for row in screen.board.rows if row.player == MODEL)
        assert marked.rating_label.endswith(" !"), "more than a tenth of its decisions were fallbacks"
        if size[0] >= 140:  # room for the interval drawn as a bar too
            assert "▶" in shown or "◀" in shown or "●" in shown
