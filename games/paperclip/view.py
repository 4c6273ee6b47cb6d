"""How front ends show the race: the boxes and each seat's answers, each answer in words, the
running mean grade, and the puzzles with their truth for ``arena export``. Light to import:
Rich loads only when a board is drawn."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import BaseModel

from arena.contract.game import GameView
from games.paperclip.answers import finals_of, format_report, is_abstention, reports_of

if TYPE_CHECKING:
    from games.paperclip.game import PaperclipState


class PaperclipView(GameView["PaperclipState", BaseModel]):
    """The paperclip board, answer texts, mean-grade chart and export of the puzzles."""

    score_series_title: ClassVar[str] = "mean grade so far"
    score_series_x: ClassVar[str] = "puzzles answered"
    score_series_first: ClassVar[int] = 1
    """The chart shows each seat's running mean grade."""

    def render(self, state: PaperclipState, viewer: str | None) -> Any:
        from games.paperclip.render import render_paperclip

        return render_paperclip(state, viewer)

    def describe_action(self, state: PaperclipState, seat: str, action: BaseModel) -> str:
        action = state.as_answer(seat, action)
        if is_abstention(action):
            return "no answer"
        total, colour = finals_of(action)
        final = f"final {total} / {colour}" if total is not None else ""
        if state.mode == "batch":
            return f"{len(reports_of(action))} steps reported, {final}"
        report = reports_of(action)[0]
        text = format_report(report) if report is not None else "no report"
        return f"{text}{'; ' + final if final else ''}"

    def progress(self, state: PaperclipState) -> tuple[int, int]:
        if state.mode == "batch":
            return (state.index, len(state.puzzles))
        done = sum(p.steps for p in state.puzzles[: state.index]) + (state.step - 1)
        return (done, sum(p.steps for p in state.puzzles))

    def score_series(self, state: PaperclipState) -> dict[str, list[float]]:
        """Each seat's running mean grade after every puzzle."""
        series = {}
        for seat, grades in state.grades.items():
            scores = [g.score for g in grades]
            series[seat] = [round(sum(scores[: i + 1]) / (i + 1), 4) for i in range(len(scores))]
        return series

    def report_charts(self, episodes: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Each player's accuracy by tier and by dimension."""
        return accuracy_chart(episodes)

    def export_extra(self, state: PaperclipState) -> dict[str, Any]:
        """Per puzzle: the puzzle with its truth, and every seat's reports and grade."""
        puzzles = []
        for i, puzzle in enumerate(state.puzzles):
            seats = {seat: grades[i].export() for seat, grades in state.grades.items() if i < len(grades)}
            puzzles.append({**puzzle.export(), "seats": seats})
        return {"puzzles": puzzles}


AXES = (("accuracy_by_tier", "tier"), ("accuracy_by_dimensions", "dimensions"))


def accuracy_chart(episodes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each player's accuracy by tier and by dimension: the mean over its episodes."""
    found: dict[tuple[str, str, str], list[float]] = {}
    for episode in episodes:
        for seat, metrics in episode["metrics"].items():
            player = episode["seating"].get(seat)
            for metric, axis in AXES:
                for group, value in (metrics.get(metric) or {}).items():
                    found.setdefault((axis, str(group), str(player)), []).append(float(value))
    if not found:
        return []
    rows = [
        {
            "axis": axis,
            "group": group,
            "player": player,
            "accuracy": round(sum(v) / len(v), 4),
            "episodes": len(v),
        }
        for (axis, group, player), v in sorted(found.items())
    ]
    spec = {
        "title": "Accuracy by tier and by dimension (mean over episodes)",
        "data": {"values": rows},
        "facet": {
            "column": {"field": "axis", "type": "nominal", "title": None, "sort": [a for _, a in AXES]}
        },
        "resolve": {"scale": {"x": "independent"}},
        "spec": {
            "width": 240,
            "height": 200,
            "mark": "bar",
            "encoding": {
                "x": {"field": "group", "type": "nominal", "title": None, "axis": {"labelAngle": 0}},
                "xOffset": {"field": "player", "type": "nominal"},
                "y": {"field": "accuracy", "type": "quantitative", "scale": {"domain": [0, 1]}},
                "color": {"field": "player", "type": "nominal", "legend": {"title": None}},
            },
        },
    }
    return [{"name": "accuracy", "title": "Accuracy by tier and by dimension, per player", "spec": spec}]
