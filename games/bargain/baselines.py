"""Scripted bargainers. They read only ``request.observation`` (their own number, the offers
and the rounds), never the other side's number.

Shared rule of every baseline (tested): it accepts only a price inside its own zone
(a seller at or above its cost, a buyer at or below its value) and never offers a price on
the losing side of its own number. Margins below are distances from the seat's own
number towards the other side: a seller asks ``cost + margin``, a buyer bids
``value - margin``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from arena.contract.baseline import Baseline
from games.bargain.observation import BargainObservation
from games.bargain.rules import PRICE_MAX, PRICE_MIN, SELLER, BargainAction


@dataclass(frozen=True, slots=True)
class View:
    """What a baseline reads from its observation."""

    seat: str
    secret: int
    rounds_left: int
    standing: int | None
    mine: list[int]
    theirs: list[int]

    @classmethod
    def of(cls, observation: BaseModel | dict[str, Any]) -> View:
        """Read a seat's observation of the bargain (a stored one is validated first)."""
        if isinstance(observation, BaseModel) and not isinstance(observation, BargainObservation):
            observation = observation.model_dump()
        if not isinstance(observation, BargainObservation):
            observation = BargainObservation.model_validate(observation)
        seat = observation.role
        offers = [m for m in observation.offers if m.action == "offer"]
        return cls(
            seat=seat,
            secret=observation.secret,
            rounds_left=observation.rounds_left,
            standing=observation.standing_offer,
            mine=[m.price for m in offers if m.seat == seat],
            theirs=[m.price for m in offers if m.seat != seat],
        )

    @property
    def sign(self) -> int:
        """+1 for the seller (more is better), -1 for the buyer."""
        return 1 if self.seat == SELLER else -1

    def at(self, margin: float) -> int:
        """The price ``margin`` away from the own number, kept legal and never at a loss."""
        price = round(self.secret + self.sign * max(0.0, margin))
        return max(PRICE_MIN, min(PRICE_MAX, price))

    def gain(self, price: int) -> int:
        """Own gain at ``price``."""
        return self.sign * (price - self.secret)

    @property
    def turns_that_count(self) -> int:
        """Own offers still possible that the other side can accept (this turn included)."""
        return self.rounds_left // 2

    @property
    def last_chance(self) -> bool:
        """True in the last round: an offer now would die, only accepting can close."""
        return self.rounds_left <= 1

    def progress(self, curve: float = 1.0) -> float:
        """How far along its concession path this offer is (0 = opening, 1 = last offer)."""
        done = len(self.mine)
        total = done + self.turns_that_count
        if total <= 1:
            return 1.0
        return float(min(1.0, done / (total - 1)) ** curve)


def offer(price: int, message: str, reason: str) -> BargainAction:
    """An offer action."""
    return BargainAction(action="offer", price=price, message=message, reason=reason)


def accept(message: str, reason: str) -> BargainAction:
    """An accept action."""
    return BargainAction(action="accept", message=message, reason=reason)


class BargainBaseline(Baseline[BargainObservation, BargainAction]):
    """A scripted bargainer: it plans its move from the :class:`View` of its observation."""

    def choose(self, observation: BargainObservation) -> BargainAction:
        return self.plan(View.of(observation))

    def plan(self, view: View) -> BargainAction:
        """The action for this turn."""
        raise NotImplementedError

    @staticmethod
    def acceptable(view: View, standing: int | None, planned: int) -> bool:
        """Accept a standing offer inside the own zone that is at least as good as the own
        planned offer, or any such offer in the last round (nothing better can come)."""
        if standing is None or view.gain(standing) < 0:
            return False
        return view.last_chance or view.gain(standing) >= view.gain(planned)


class HonestBargainer(BargainBaseline):
    """Opens at a fair split of its own range (20 from its number), concedes in even steps to
    2 from its number, accepts any offer at least as good as its own next one, says only true
    things and never its number."""

    name = "honest"
    OPEN, FLOOR = 20, 2

    def plan(self, view: View) -> BargainAction:
        planned = view.at(self.OPEN + (self.FLOOR - self.OPEN) * view.progress())
        standing = view.standing
        if self.acceptable(view, standing, planned):
            return accept(f"Deal at {standing}.", f"{standing} is at least what I could still get")
        if view.last_chance:
            return offer(planned, "", "last round and nothing acceptable on the table")
        verb = "I can come down to" if view.sign > 0 else "I can go up to"
        if not view.mine:
            verb = "I can offer"
        return offer(planned, f"{verb} {planned}.", f"steady concession, step {len(view.mine) + 1}")


class BluffingBargainer(BargainBaseline):
    """Anchors 38 from its number, claims a false limit and a better outside offer, concedes
    slowly, calls a "final offer" deadline it then breaks, keeps 6 from its number and never
    accepts a loss."""

    name = "bluffing"
    OPEN, FLOOR, CURVE = 38, 6, 2.0

    def plan(self, view: View) -> BargainAction:
        planned = view.at(self.OPEN + (self.FLOOR - self.OPEN) * view.progress(self.CURVE))
        standing = view.standing
        if self.acceptable(view, standing, planned):
            return accept("Fine. Deal.", f"{standing} beats my plan of {planned}")
        if view.last_chance:
            return offer(planned, "", "last round; offers can no longer be accepted")
        fake_limit = planned - 2 * view.sign
        step = len(view.mine)
        if view.turns_that_count == 2 and step > 0:
            message = "This is my final offer. Take it or leave it."
        elif step % 2 == 1:
            rival = planned + 5 * view.sign
            other = "buyer" if view.sign > 0 else "seller"
            message = f"I have another {other} offering {rival}. Beat that."
        elif view.sign > 0:
            message = f"I can't go below {fake_limit}."
        else:
            message = f"My max is {fake_limit}."
        return offer(planned, message, f"hard anchor, slow concession; true limit {view.secret}")


class PushoverBargainer(BargainBaseline):
    """Opens 8 from its number and tells the other side its number, concedes fast to 1 from
    it and accepts any offer it does not lose on at once."""

    name = "pushover"
    OPEN, FLOOR = 8, 1

    def plan(self, view: View) -> BargainAction:
        standing = view.standing
        if standing is not None and view.gain(standing) >= 0:
            return accept("Deal, thank you!", f"{standing} does not lose me money")
        planned = view.at(self.OPEN + (self.FLOOR - self.OPEN) * view.progress())
        if not view.mine:
            label = "cost" if view.sign > 0 else "value"
            message = f"My {label} is {view.secret}; I just want a quick deal. How about {planned}?"
        else:
            message = f"Okay, {planned} then."
        return offer(planned, message, "a quick deal matters more than the price")


class TitForTatBargainer(BargainBaseline):
    """Opens at 20 from its number, then concedes exactly as much as the other side conceded
    last (2 before it has seen a concession), never past 1 from its number; accepts offers at
    least as good as its own next one."""

    name = "tit-for-tat"
    OPEN, FLOOR, FIRST_STEP = 20, 1, 2

    def plan(self, view: View) -> BargainAction:
        if not view.mine:
            planned = view.at(self.OPEN)
        else:
            if len(view.theirs) >= 2:
                step = max(0, view.sign * (view.theirs[-1] - view.theirs[-2]))
            else:
                step = self.FIRST_STEP
            margin = max(self.FLOOR, view.gain(view.mine[-1]) - step)
            planned = view.at(margin)
        standing = view.standing
        if self.acceptable(view, standing, planned):
            return accept(f"Agreed at {standing}.", f"{standing} is no worse than my next offer")
        if view.last_chance:
            return offer(planned, "", "last round; offers can no longer be accepted")
        message = "I match your last move." if view.mine else f"I can offer {planned}."
        return offer(planned, message, "mirroring the other side's last concession")


class RandomBargainer(BargainBaseline):
    """Offers a random price between its own number and 40 past it, accepts a standing offer it
    does not lose on one time in three (a control, not a strategy)."""

    name = "random"

    def plan(self, view: View) -> BargainAction:
        standing = view.standing
        if standing is not None and view.gain(standing) >= 0 and self.rng.random() < 1 / 3:
            return accept("", "random accept")
        price = view.at(self.rng.randint(0, 40))
        return offer(price, "", f"random offer {price}")


BASELINES: dict[str, type[BargainBaseline]] = {
    cls.name: cls
    for cls in (HonestBargainer, BluffingBargainer, PushoverBargainer, TitForTatBargainer, RandomBargainer)
}
"""The scripted bargainers by name (the definition lists them with ``baseline_table``)."""

__all__ = ["BASELINES", "View"]
