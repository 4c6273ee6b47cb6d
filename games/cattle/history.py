"""Facts rebuilt from Cattle Trade's public history: who owned what after each turn."""

from __future__ import annotations

from games.cattle.cards import set_score
from games.cattle.table import Table


def animals_by_turn(table: Table) -> list[dict[str, dict[str, int]]]:
    """Every player's animals at the end of each turn so far (from the public events)."""
    owned: dict[str, dict[str, int]] = {seat: {} for seat in table.seats}
    frames: list[dict[str, dict[str, int]]] = []
    turn = 1
    pending_sale: tuple[str, str] | None = None

    def add(seat: str, species: str, count: int) -> None:
        owned[seat][species] = owned[seat].get(species, 0) + count

    for event in table.history:
        while event["turn"] > turn:
            frames.append({seat: dict(animals) for seat, animals in owned.items()})
            turn += 1
        kind = event["kind"]
        if kind == "free":
            add(event["seat"], event["species"], 1)
        elif kind in ("sold", "bought"):
            pending_sale = (event["seat"], event["species"])
        elif kind == "paid" and pending_sale is not None:
            add(*pending_sale, 1)
            pending_sale = None
        elif kind == "accept":
            add(event["other"], event["species"], event["stake"])
            add(event["seat"], event["species"], -event["stake"])
        elif kind == "trade":
            add(event["seat"], event["species"], event["stake"])
            add(event["other"], event["species"], -event["stake"])
    frames.append({seat: dict(animals) for seat, animals in owned.items()})
    return frames


def score_by_turn(table: Table) -> dict[str, list[float]]:
    """Each player's score at the end of each turn."""
    frames = animals_by_turn(table)
    return {seat: [float(set_score(frame[seat])) for frame in frames] for seat in table.seats}
