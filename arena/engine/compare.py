"""Two stored episodes on the same deal, step by step: who did what in each, and where they part.

Two episodes compare when they play the same game on the same deal seed with the same options
(the same world): then every difference between them comes from the players. A different
seed or different options can be compared on purpose (``force``); different games never.

Steps are matched by number. Two decisions are the same when their actions are equal, the
stated reason left out (the reason explains a move, it is not one); the first step with a
decision that differs, or with a seat that decides in one episode and not in the other, is
where the episodes diverge. From there on their states differ too, and the steps are still
shown side by side as they were played.

Only stored columns are read (actions, reasons, words): nothing is replayed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from arena.engine.export import EpisodeNotFound, refuse_secret
from arena.store.database import Store
from arena.store.episode_log import restore_action


class NotComparable(ValueError):
    """The two episodes are not of one world (another game, seed or options)."""


@dataclass(frozen=True, slots=True)
class Decision:
    """One seat's decision in one step (text fields are untrusted)."""

    action: dict[str, Any]
    action_text: str
    reason: str
    fallback: bool
    error: str | None

    @property
    def move(self) -> dict[str, Any]:
        """The action without its stated reason: what two decisions are compared by."""
        return {key: value for key, value in self.action.items() if key != "reason"}


@dataclass(frozen=True, slots=True)
class SeatPair:
    """A seat's decision in episode A and in episode B of one step (``None``: it did not decide)."""

    seat: str
    a: Decision | None
    b: Decision | None

    @property
    def same(self) -> bool:
        """Whether both decided the same move."""
        return self.a is not None and self.b is not None and self.a.move == self.b.move


@dataclass(frozen=True, slots=True)
class StepPair:
    """One step of both episodes (``number`` counts from 1, as replay does)."""

    number: int
    seats: tuple[SeatPair, ...]

    @property
    def same(self) -> bool:
        """Whether every seat decided the same in both."""
        return all(pair.same for pair in self.seats)


@dataclass(frozen=True, slots=True)
class Side:
    """One of the two episodes."""

    episode: dict[str, Any]
    players: dict[str, str]
    scores: dict[str, float | None]

    @property
    def id(self) -> int:
        """The episode id."""
        return int(self.episode["id"])

    def lineup(self) -> str:
        """``seller=baseline:honest buyer=baseline:bluffing`` (player specs are untrusted)."""
        return " ".join(f"{seat}={player}" for seat, player in self.players.items())


@dataclass(frozen=True, slots=True)
class Comparison:
    """Two episodes side by side."""

    a: Side
    b: Side
    steps: tuple[StepPair, ...]
    notes: tuple[str, ...] = field(default=())
    """What differs besides the players (a forced seed, another game version)."""

    @property
    def first_divergence(self) -> int | None:
        """The number of the first step that differs (``None``: the same moves throughout)."""
        return next((step.number for step in self.steps if not step.same), None)

    def to_json(self) -> dict[str, Any]:
        """Plain JSON-able data (``arena compare --json``)."""

        def decision(d: Decision | None) -> dict[str, Any] | None:
            if d is None:
                return None
            return {
                "action": d.action,
                "action_text": d.action_text,
                "reason": d.reason,
                "fallback": d.fallback,
            }

        return {
            "episodes": [
                {"id": side.id, "seed": side.episode["seed"], "players": side.players, "scores": side.scores}
                for side in (self.a, self.b)
            ],
            "game": self.a.episode["game"],
            "first_divergence": self.first_divergence,
            "notes": list(self.notes),
            "steps": [
                {
                    "step": step.number,
                    "same": step.same,
                    "seats": [
                        {"seat": p.seat, "same": p.same, "a": decision(p.a), "b": decision(p.b)}
                        for p in step.seats
                    ],
                }
                for step in self.steps
            ],
        }


def compare_episodes(store: Store, a_id: int, b_id: int, *, force: bool = False) -> Comparison:
    """Episodes ``a_id`` and ``b_id`` side by side; :class:`NotComparable` unless one world (or ``force``)."""
    a, b = _episode(store, a_id), _episode(store, b_id)
    notes = _check(a, b, force=force)
    return Comparison(
        _side(store, a), _side(store, b), _pair_steps(_steps(store, a_id), _steps(store, b_id)), notes
    )


def _episode(store: Store, episode_id: int) -> dict[str, Any]:
    episode = store.episode(episode_id)
    if episode is None:
        raise EpisodeNotFound(f"no episode {episode_id} in {store.path}")
    refuse_secret(store, episode, "comparison")
    return episode


def _check(a: dict[str, Any], b: dict[str, Any], *, force: bool) -> tuple[str, ...]:
    """Refuse two worlds in one line; returns notes on what differs and was let through."""
    ids = f"episodes {a['id']} and {b['id']}"
    if a["game"] != b["game"]:
        raise NotComparable(f"{ids} are of different games ({a['game']}, {b['game']}): nothing to compare")
    differences = []
    if a["seed"] != b["seed"]:
        differences.append(f"deal seeds differ ({a['seed']}, {b['seed']})")
    if (a["options"] or {}) != (b["options"] or {}):
        differences.append(f"options differ ({_option_differences(a['options'] or {}, b['options'] or {})})")
    if differences and not force:
        raise NotComparable(
            f"{ids} are not the same world: {', '.join(differences)}; --force compares them anyway"
        )
    if a["game_version"] != b["game_version"]:
        differences.append(f"game versions differ ({a['game_version']}, {b['game_version']})")
    return tuple(differences)


def _option_differences(a: dict[str, Any], b: dict[str, Any]) -> str:
    """``days 5 vs 3, market identical vs (default)``: the options that differ, A's value first."""
    names = sorted({name for name in (*a, *b) if a.get(name, _UNSET) != b.get(name, _UNSET)})
    return ", ".join(f"{name} {a.get(name, '(default)')} vs {b.get(name, '(default)')}" for name in names)


_UNSET = object()


def _side(store: Store, episode: dict[str, Any]) -> Side:
    seats = store.seats(int(episode["id"]))
    return Side(
        episode,
        {row["seat"]: row["player"] for row in seats},
        {row["seat"]: row["score"] for row in seats},
    )


def _steps(store: Store, episode_id: int) -> dict[int, dict[str, Decision]]:
    """Each step's decisions by seat, from the stored rows."""
    steps: dict[int, dict[str, Decision]] = {}
    for row in store.raw_turns(episode_id):
        steps.setdefault(int(row["step"]), {})[row["seat"]] = Decision(
            action=restore_action(row),
            action_text=row["action_text"] or "",
            reason=row["reason"] or "",
            fallback=bool(row["fallback"]),
            error=row["error"],
        )
    return steps


def _pair_steps(a: dict[int, dict[str, Decision]], b: dict[int, dict[str, Decision]]) -> tuple[StepPair, ...]:
    pairs = []
    for number, step in enumerate(sorted(set(a) | set(b)), 1):
        left, right = a.get(step, {}), b.get(step, {})
        seats = [*left, *(seat for seat in right if seat not in left)]
        pairs.append(
            StepPair(number, tuple(SeatPair(seat, left.get(seat), right.get(seat)) for seat in seats))
        )
    return tuple(pairs)
