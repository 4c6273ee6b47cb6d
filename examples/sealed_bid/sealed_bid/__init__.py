"""A three-seat sealed-bid auction: an example of a game that lives outside Arena."""

from __future__ import annotations

from sealed_bid.definition import DEFINITION, SealedBidDefinition
from sealed_bid.state import Bid, SealedBidObservation, SealedBidOptions, SealedBidState

__all__ = [
    "DEFINITION",
    "Bid",
    "SealedBidDefinition",
    "SealedBidObservation",
    "SealedBidOptions",
    "SealedBidState",
]
