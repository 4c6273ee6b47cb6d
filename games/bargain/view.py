"""How front ends show a bargain: the board, each move in words, the offers chart, the warning
before accepting at a loss. Light to import: Rich loads only when a board is drawn."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from arena.contract.game import GameView
from games.bargain.rules import BUYER, SELLER, BargainAction

if TYPE_CHECKING:
    from games.bargain.game import BargainState


class BargainView(GameView["BargainState", BargainAction]):
    """The bargain's board, move texts, offers chart and loss warning."""

    score_series_title: ClassVar[str] = "offers (asks and bids)"
    """The chart shows the offers, not a score."""

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


def deal_price_chart(episodes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Where each deal's price fell inside the zone (0 the seller's cost, 1 the buyer's value), by line-up."""
    rows = []
    for episode in episodes:
        metrics, seating = episode["metrics"], episode["seating"]
        seller, buyer = metrics.get(SELLER) or {}, metrics.get(BUYER) or {}
        price, cost, value = seller.get("price"), seller.get("own_number"), buyer.get("own_number")
        if price is None or cost is None or value is None or value == cost:
            continue
        rows.append(
            {
                "lineup": f"seller {seating.get(SELLER)}, buyer {seating.get(BUYER)}",
                "position": round(
                    (price - cost) / (value - cost), 4
                ),  # the bins centre on 0 and 1: a price at an edge is in the zone
                "price": price,
            }
        )
    if not rows:
        return []
    x = {"field": "position", "type": "quantitative"}
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
                        "x": {
                            **x,
                            "bin": {"step": 0.05, "extent": [-0.525, 1.525]},
                            "title": "position of the price in the zone",
                        },
                        "y": {"aggregate": "count", "type": "quantitative", "title": "deals"},
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
            "title": "Deal prices inside the zone, per line-up (deals only)",
            "spec": spec,
        }
    ]
