"""The behaviour metrics of the Cattle Trade paper, per seat, from the table's ledger.

Each is defined in the rules text people read (:data:`games.cattle.prompt.METRICS`); a metric
without data (no auction won, no offer made) is ``None``, never a made-up 0.
"""

from __future__ import annotations

from typing import Any

from games.cattle.cards import SET_SIZE, SET_VALUE, total
from games.cattle.table import Table
from games.cattle.valuation import marginal_value


def _mean(values: list[float]) -> float | None:
    return round(sum(values) / len(values), 4) if values else None


def _rate(hits: int, of: int) -> float | None:
    return round(hits / of, 4) if of else None


def ranks(scores: dict[str, int]) -> dict[str, int]:
    """1 for the best score; equal scores share the rank (1, 1, 3)."""
    return {seat: 1 + sum(other > score for other in scores.values()) for seat, score in scores.items()}


def seat_metrics(table: Table, seat: str) -> dict[str, Any]:
    """Score, rank, win, sets, capital efficiency, bidding, bluffing and trading figures for ``seat``."""
    scores = table.scores()
    rank = ranks(scores)[seat]
    turns = table.turn - 1 if table.phase == "over" else table.turn
    half = turns / 2
    won = [r for r in table.ledger if r["kind"] == "won" and r["seat"] == seat and not r["free"]]
    paid_out = sum(r["amount"] for r in table.ledger if r["kind"] == "paid" and r["seat"] == seat)

    def aggressiveness(records: list[dict[str, Any]]) -> float | None:
        return _mean([r["price"] / (SET_VALUE[r["species"]] / SET_SIZE) for r in records])

    overbids = sum(r["price"] > marginal_value(r["animals_before"], r["species"]) for r in won)
    runs = [r for r in table.ledger if r["kind"] == "won" and not r["free"] and _auctioneer(table, r) == seat]
    offers = _offers(table, seat)
    bluffs = [o for o in offers if all(card == 0 for card in o["cards"])]
    fought = [
        r for r in table.ledger if r["kind"] == "trade" and r["target_cards"] is not None and not r["free"]
    ]
    mine = [r for r in fought if seat in (r["challenger"], r["target"])]
    tightness = []
    for r in mine:
        a, b = total(r["challenger_cards"]), total(r["target_cards"])
        if max(a, b):
            tightness.append(min(a, b) / max(a, b))
    score = scores[seat]
    return {
        "rank": rank,
        "win": rank == 1,
        "complete_sets": sum(1 for n in table.animals[seat].values() if n >= SET_SIZE),
        "capital_efficiency": round(score / paid_out, 4) if paid_out else None,
        "money_paid": paid_out,
        "auctions_won": len(won),
        "bid_aggressiveness_early": aggressiveness([r for r in won if r["turn"] <= half]),
        "bid_aggressiveness_late": aggressiveness([r for r in won if r["turn"] > half]),
        "overbid_rate": _rate(overbids, len(won)),
        "buy_right_rate": _rate(sum(r["buy_right"] for r in runs), len(runs)),
        "offers_made": len(offers),
        "bluff_rate": _rate(len(bluffs), len(offers)),
        "bluff_success": _rate(sum(o["won"] for o in bluffs), len(bluffs)),
        "challenge_tightness": _mean(tightness),
        "money_end": total(table.money[seat]),
        "turns": turns,
        "turn_capped": table.end_reason == "turn_cap",
    }


def _auctioneer(table: Table, record: dict[str, Any]) -> str:
    """Who ran the auction a ``won`` record closed (the buyer itself when it used the buy right)."""
    if record["buy_right"]:
        return str(record["seat"])
    sale = next(
        e
        for e in table.history
        if e["kind"] == "sold" and e["turn"] == record["turn"] and e["seat"] == record["seat"]
    )
    return str(sale["other"])


def _offers(table: Table, seat: str) -> list[dict[str, Any]]:
    """Every face-down offer ``seat`` made in a trade, with whether it won the stake."""
    offers = []
    for r in table.ledger:
        if r["kind"] != "trade":
            continue
        if r["challenger"] == seat:
            offers.append({"cards": r["challenger_cards"], "won": r["winner"] == seat})
        elif r["target"] == seat and r["target_cards"] is not None:
            offers.append({"cards": r["target_cards"], "won": r["winner"] == seat})
    return offers
