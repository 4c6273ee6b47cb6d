"""How front ends show the stands: the board, each decision in words, cash by day and the day's
outcome. Light to import: Rich loads only when a board is drawn."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, ClassVar

from arena.contract.game import GameView
from games.lemonade.rules import STARTING_CASH, LemonadeDecision

if TYPE_CHECKING:
    from games.lemonade.game import LemonadeState


class LemonadeView(GameView["LemonadeState", LemonadeDecision]):
    """The stands' board (the full view adds the reason audit), decision texts and cash chart."""

    progress_unit = "days"

    score_series_title: ClassVar[str] = "cash by day"
    score_series_x: ClassVar[str] = "day (0: the starting cash)"
    """The chart shows each stand's cash by day."""

    def render(self, state: LemonadeState, viewer: str | None) -> Any:
        from games.lemonade.render import render_stands

        if viewer is None:
            return render_stands(state, state.seats, audit=True)
        return render_stands(state, (viewer,))

    def describe_action(self, state: LemonadeState, seat: str, action: LemonadeDecision) -> str:
        return _action_text(action.price, action.produce, action.promotion)

    def progress(self, state: LemonadeState) -> tuple[int, int]:
        return (min(state.day - 1, state.days), state.days)

    def score_series(self, state: LemonadeState) -> dict[str, list[float]]:
        return cash_by_day(state)

    def step_outcome(self, state: LemonadeState, seat: str) -> str | None:
        """``sold 27/27 (demand 62), cash 98.60`` for the stand's last day.

        When that day's reason stated figures, what the reason audit made of them follows:
        ``; reason: 1 of 2 figures false (sold yesterday (day 3): said 90, was 70)``. Only
        parsed numbers and the audit's own words, never the reason's text.
        """
        records = state.stands[seat].records
        if not records:
            return None
        day = records[-1]
        text = f"sold {day['sold']}/{day['produce']} (demand {day['demand']}), cash {day['cash']:.2f}"
        findings = state.audit.seats[seat].findings_of(day["day"])
        if findings:
            wrong = [f for f in findings if not f.ok]
            text += f"; reason: {len(wrong)} of {len(findings)} stated figures false"
            if wrong:
                text += " (" + "; ".join(f.summary() for f in wrong) + ")"
        return text


def cash_by_day(state: LemonadeState) -> dict[str, list[float]]:
    """Each stand's cash at the start and after every day it played."""
    return {
        seat: [STARTING_CASH, *(record["cash"] for record in stand.records)]
        for seat, stand in state.stands.items()
    }


@functools.lru_cache(maxsize=4096, typed=True)
def _action_text(price: float, produce: int, promotion: str) -> str:
    """``describe_action``'s text, kept for the decisions that recur (a stand's usual prices and cups)."""
    return f"price {price:.2f}, make {produce}, promo {promotion}"
