"""Continuing an interrupted episode from its last recorded step (``arena resume ID``, the app's list).

An episode stopped by Ctrl-C, a crash, ``kill -9`` or a closed terminal is stored ``aborted``
with every step it recorded (the next store to open a file marks a dead process's ``running``
episode aborted). The game is deterministic given its seed, options and actions, so its state
at that step is rebuilt by applying the stored actions, as a replay does
(:mod:`arena.store.episode_log`). The players are built again from the seats' stored specs and
must come out with the stored configuration (the hash each seat was recorded with): a models
file that changed a player since is refused, as a tournament resume refuses it.

Scripted players (``instant``: a baseline) hold state a replay does not rebuild: the generator
they were seeded with, what they noted of earlier turns. They are asked again every recorded
decision, in order, which brings them to where they were, and each answer must be the stored
action (else the player changed and the episode is refused). Models and people are not asked
again: their stored usage, re-asks and fallbacks are counted back in; a model with
``memory = "transcript"`` goes on with an empty transcript (what it had read is not stored). A
person is asked their next move again, and the deal seed of an episode a person plays stays
secret: nothing here shows it.

The episode keeps its id: it is reopened ``running`` under this process and its later turns are
appended. Tournament episodes are resumed by ``arena tournament resume``, which plays an
interrupted slot again.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from arena.contract.game import GameDefinition
from arena.contract.playerconfig import config_hash
from arena.contract.records import EpisodeStatus
from arena.contract.usage import Usage, unpriced_seat
from arena.engine.deal_seed import has_human_seat
from arena.plugins.games import installed_game
from arena.store.database import Store
from arena.store.episode_log import restore_action, steps_of

RESUMABLE = (EpisodeStatus.ABORTED, EpisodeStatus.FAILED)
"""Statuses an episode can be resumed from: it stopped before its end, and not by a rule of its own."""


class NotResumable(Exception):
    """This episode cannot be continued (the message says why, in one line)."""


@dataclass(frozen=True)
class ResumePoint:
    """A stored episode to continue: its deal, its seats and the turns it recorded."""

    episode_id: int
    game: str
    seed: int
    options: dict[str, Any]
    seats: dict[str, str]
    """Seat -> the player spec it was stored with, in seat order."""
    kinds: dict[str, str]
    config_hashes: dict[str, str | None]
    """Seat -> the hash of the configuration its player was recorded with (``None``: none stored)."""
    unpriced: frozenset[str]
    """Seats whose model has no price: their usage stays unpriced, not free."""
    rows: list[dict[str, Any]] = field(default_factory=list)
    """The recorded turn rows in order, each action as the player chose it."""

    @property
    def steps(self) -> int:
        """How many steps were recorded: the step the episode goes on from."""
        return self.rows[-1]["step"] + 1 if self.rows else 0

    @property
    def secret_seed(self) -> bool:
        """A person plays: the seed must not be shown until the episode ends."""
        return has_human_seat(self.seats)

    def recorded_steps(self) -> Iterator[list[dict[str, Any]]]:
        """The stored rows grouped by step, in order."""
        return steps_of(self.rows)

    def check_players(self, configs: dict[str, dict[str, Any]]) -> None:
        """Raise :class:`NotResumable` if a rebuilt player's configuration is not the stored one."""
        for seat, config in configs.items():
            stored = self.config_hashes.get(seat)
            if stored is not None and config_hash(config) != stored:
                raise NotResumable(
                    f"episode {self.episode_id} cannot be resumed: seat {seat}'s player {self.seats[seat]!r}"
                    " is configured differently now than when the episode began (models file changed?)"
                )

    def stored_usage(self, row: dict[str, Any]) -> Usage:
        """What a recorded turn cost, unpriced when its seat's model has no price."""
        return Usage.from_columns(row, unpriced=row["seat"] in self.unpriced)


def load_resume_point(store: Store, episode_id: int) -> ResumePoint:
    """The stored episode ``episode_id`` as a :class:`ResumePoint`.

    Raises :class:`~arena.engine.export.EpisodeNotFound` for an unknown id and
    :class:`NotResumable` for an episode that cannot go on (finished, a tournament's, still
    playing, its game not installed or of another version).
    """
    from arena.engine.export import EpisodeNotFound

    episode = store.episode(episode_id)
    if episode is None:
        raise EpisodeNotFound(f"no episode {episode_id} in {store.path}")
    problem = resume_problem(episode)
    if problem:
        raise NotResumable(f"episode {episode_id} cannot be resumed: {problem}")
    definition = _installed(episode)
    seats = store.seats(episode_id)
    rows = store.raw_turns(episode_id)
    for row in rows:
        row["action"] = restore_action(row)
    return ResumePoint(
        episode_id=episode_id,
        game=definition.name,
        seed=int(episode["seed"]),
        options=dict(episode["options"] or {}),
        seats={row["seat"]: row["player"] for row in seats},
        kinds={row["seat"]: row["kind"] for row in seats},
        config_hashes={row["seat"]: row["config_hash"] for row in seats},
        unpriced=frozenset(row["seat"] for row in seats if unpriced_seat(row.get("config"))),
        rows=rows,
    )


def resume_problem(episode: dict[str, Any]) -> str:
    """Why a stored episode (its ``episodes`` row) cannot be resumed, or ``""`` if it can."""
    status = episode["status"]
    if episode.get("tournament_id") is not None:
        tournament = episode["tournament_id"]
        return f"it belongs to tournament {tournament} (arena tournament resume {tournament} plays it again)"
    if status == EpisodeStatus.FINISHED:
        return "it has finished"
    if status == EpisodeStatus.RUNNING:
        return f"it is still being played (process {episode.get('pid')})"
    if status == EpisodeStatus.BUDGET_EXCEEDED:
        return "it stopped at its budget"
    if status == EpisodeStatus.PLAYER_FAILED:
        return "a seat's provider kept refusing its requests, so its turns were fallbacks"
    if status not in RESUMABLE:
        return f"its status is {status}"
    try:
        _installed(episode)
    except NotResumable as exc:
        return str(exc)
    return ""


def _installed(episode: dict[str, Any]) -> GameDefinition:
    definition = installed_game(episode["game"])
    if definition is None:
        raise NotResumable(f"the game {episode['game']!r} is not installed")
    if definition.version != episode["game_version"]:
        raise NotResumable(
            f"it was played under {episode['game']} {episode['game_version']}; the installed rules are"
            f" {definition.version}"
        )
    return definition
