"""How front ends show a bargain: the board, each move in words, the offers chart, the warning
before accepting at a loss. Light to import: Rich loads only when a board is drawn."""

from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING, Any, ClassVar

from arena.contract.game import GameView
from games.bargain.rules import BUYER, SELLER, BargainAction

if TYPE_CHECKING:
    from games.bargain.game import BargainState


class BargainView(GameView["BargainState", BargainAction]):
    """The bargain's board, move texts, offers chart and loss warning."""

    progress_unit = "moves"

    score_series_title: ClassVar[str] = "offers (asks and bids)"
    """The chart shows the offers, not a score."""
    score_series_x: ClassVar[str] = "the seat's own offers: 1st, 2nd, ..."
    score_series_first: ClassVar[int] = 1

    def render(self, state: BargainState, viewer: str | None) -> Any:
        from games.bargain.render import render_bargain

        return render_bargain(state, viewer)

    def describe_action(self, state: BargainState, seat: str, action: BargainAction) -> str:
        if action.action == "accept":
            price = state.price if state.status == "deal" else state.standing_for(seat)
            text = f"accept {price}" if price is not None else "accept"
        else:
            text = f"offer {action.price}"
        if action.message:
            short = action.message if len(action.message) <= 60 else action.message[:59] + "…"
            text += f' "{short}"'
        return text

    def caution(self, state: BargainState, seat: str, action: BargainAction) -> str | None:
        """Accepting a price on the wrong side of the seat's own number loses money: say how much."""
        standing = state.standing_for(seat)
        if action.action != "accept" or standing is None:
            return None
        loss = state.secret(seat) - standing if seat == SELLER else standing - state.secret(seat)
        return f"accepting {standing} loses you {loss}" if loss > 0 else None

    def progress(self, state: BargainState) -> tuple[int, int]:
        return (len(state.moves), state.rounds)

    def score_series(self, state: BargainState) -> dict[str, list[float]]:
        """Each side's offers in order (asks coming down, bids going up)."""
        return {
            seat: [float(m.price) for m in state.moves if m.seat == seat and m.action == "offer"]
            for seat in state.seats
        }

    def report_charts(self, episodes: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Where the deals' prices fell inside the zone, per line-up."""
        return deal_price_chart(episodes)

    def step_outcome(self, state: BargainState, seat: str) -> str | None:
        """The offer standing after ``seat``'s move, or the deal it made."""
        if state.price is not None:
            return f"deal at {state.price}"
        standing = state.standing
        return f"standing offer: {standing.seat} at {standing.price}" if standing is not None else None


ZONE_STEP = 0.1
"""Width of a bin on the deal-price chart, as a share of the zone (10 bins from cost to value)."""
ZONE_REACH = 5
"""Bins drawn beyond each edge (0.5 of the zone); a price further out joins the outermost bin."""


def zone_bin(position: float) -> tuple[float, float]:
    """The bin a price's place in the zone falls in, each edge on the zone's side.

    A price at the seller's cost (0) or the buyer's value (1) is in the zone, so it is drawn in
    the bin just inside that edge, [0, 0.1] or [0.9, 1]; only a price beyond an edge is drawn
    outside it.
    """
    tenths = round(position / ZONE_STEP, 6)  # 0.3 / 0.1 is 2.9999999999999996
    if 0 <= position <= 1:
        index = min(math.floor(tenths), round(1 / ZONE_STEP) - 1)
    elif position < 0:
        index = max(math.floor(tenths), -ZONE_REACH)
    else:
        index = min(math.ceil(tenths) - 1, round(1 / ZONE_STEP) + ZONE_REACH - 1)
    return round(index * ZONE_STEP, 4), round((index + 1) * ZONE_STEP, 4)


def deal_price_chart(episodes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Where each deal's price fell inside the zone (0 the seller's cost, 1 the buyer's value), by line-up."""
    rows = []
    for episode in episodes:
        metrics, seating = episode["metrics"], episode["seating"]
        seller, buyer = metrics.get(SELLER) or {}, metrics.get(BUYER) or {}
        price, cost, value = seller.get("price"), seller.get("own_number"), buyer.get("own_number")
        if price is None or cost is None or value is None or value == cost:
            continue
        position = round((price - cost) / (value - cost), 4)
        low, high = zone_bin(position)
        where = "in the zone" if 0 <= position <= 1 else "below cost" if position < 0 else "above value"
        rows.append(
            {
                "lineup": f"seller {seating.get(SELLER)}, buyer {seating.get(BUYER)}",
                "position": position,
                "from": low,
                "to": high,
                "where": where,
                "price": price,
            }
        )
    if not rows:
        return []
    reach = ZONE_REACH * ZONE_STEP
    ends = [round(-reach, 4), 0, 0.5, 1, round(1 + reach, 4)]
    names = {0: "0 (seller's cost)", 1: "1 (buyer's value)", ends[0]: f"{ends[0]:g} or below"}
    names[ends[-1]] = f"{ends[-1]:g} or above"
    label = " : ".join(f"datum.value == {edge} ? {json.dumps(text)}" for edge, text in names.items())
    x = {
        "field": "from",
        "type": "quantitative",
        "title": "where the price fell in the zone",
        "scale": {"domain": [ends[0], ends[-1]], "nice": False},
        "axis": {"values": ends, "labelExpr": f"{label} : datum.label"},
    }
    colour = {
        "field": "where",
        "type": "nominal",
        "scale": {
            "domain": ["below cost", "in the zone", "above value"],
            "range": ["#d62728", "#4c78a8", "#d62728"],
        },
        "legend": None,
    }
    spec = {
        "title": "Deal prices inside the zone (0 = seller's cost, 1 = buyer's value)",
        "data": {"values": rows},
        "facet": {
            "row": {
                "field": "lineup",
                "type": "nominal",
                "title": None,
                "header": {"labelAngle": 0, "labelAlign": "left"},
            }
        },
        "spec": {
            "width": 420,
            "height": 70,
            "layer": [
                {
                    "mark": "bar",
                    "encoding": {
                        "x": x,
                        "x2": {"field": "to"},
                        "y": {"aggregate": "count", "type": "quantitative", "title": "deals"},
                        "color": colour,
                    },
                },
                *(
                    {
                        # one row per line-up, so each panel draws its edge once, not once per deal
                        "transform": [{"aggregate": [{"op": "count", "as": "deals"}], "groupby": ["lineup"]}],
                        "mark": {"type": "rule", "strokeDash": [4, 3], "color": "grey"},
                        "encoding": {"x": {"datum": edge, "type": "quantitative"}},
                    }
                    for edge in (0, 1)
                ),
            ],
        },
    }
    return [
        {
            "name": "deal-prices",
            "title": (
                "Deal prices inside the zone, per line-up (deals only); a price on an edge is in the zone"
            ),
            "spec": spec,
        }
    ]
