"""One TextArena environment driven for one episode: made, reset, stepped, its messages collected.

Every library call goes through the episode's :class:`EpisodeRandom`, so the global ``random``
the library draws from is this episode's own. After each call the messages TextArena queued
for every player are moved into that player's history (TextArena hands out only the current
player's queue, through ``get_observation``; draining all of them after each step keeps every
seat's messages, in order, at all times). The environment is made with its registered default
wrappers, so an action goes through the same action wrappers as under ``ta.make(id)``.
"""

from __future__ import annotations

import copy
from typing import Any

import textarena as ta

from games.textarena_catalogue.isolation import EpisodeRandom
from games.textarena_catalogue.messages import Message


def unwrapped(env: Any) -> Any:
    """The environment inside TextArena's wrappers."""
    while isinstance(env, ta.Wrapper):
        env = env.env
    return env


def _in_order(queued: tuple[Any, Any, Any]) -> tuple[Any, Any, Any]:
    """(sender, text, kind) of a queued message, put back in order where the environment swapped them.

    Countdown, Cryptarithm and Slitherlink (0.7.4) record the player's move with
    ``add_observation(player_id, action, PLAYER_ACTION)``, positional, against the signature
    ``(message, observation_type, from_id)``: the queue then holds (kind, player id, text).
    """
    sender, text, kind = queued
    if isinstance(sender, ta.ObservationType) and isinstance(kind, str):
        return text, kind, sender
    return queued


def _number(reward: Any) -> float:
    """A reward as a number; TextArena's Countdown and Cryptarithm (0.7.4) pass their invalid-move
    reason where the reward goes (``set_invalid_move("Invalid indices ...")``)."""
    if isinstance(reward, int | float):
        return float(reward)
    raise ValueError(f"TextArena gave a reward that is no number: {str(reward)[:80]!r}")


class Episode:
    """One environment's episode: ``step`` it with the current player's text."""

    def __init__(
        self, env_id: str, kwargs: dict[str, Any], players: int, seed: int, *, uses_numpy: bool
    ) -> None:
        self.random = EpisodeRandom(seed, uses_numpy=uses_numpy)
        self.env = self.random.call(ta.make, env_id, **kwargs)
        self.base = unwrapped(self.env)
        self.players = players
        self.histories: list[list[Message]] = [[] for _ in range(players)]
        self.latest: list[list[Message]] = [[] for _ in range(players)]
        """Each player's messages of the last call (the turn's news, stored with each turn)."""
        self.invalid_moves = [0] * players
        self.rewards: dict[int, float] | None = None
        self.game_info: dict[int, dict[str, Any]] = {}
        self.random.call(self.env.reset, num_players=players, seed=seed)
        self._collect()

    @property
    def state(self) -> Any:
        """TextArena's state object of the environment."""
        return self.base.state

    @property
    def done(self) -> bool:
        """Whether the environment says the game is over."""
        return bool(self.state.done)

    @property
    def current_player(self) -> int:
        """The player id TextArena expects the next action from."""
        return int(self.state.current_player_id)

    def game_state(self) -> dict[str, Any]:
        """The environment's own game state (read, never changed)."""
        found: dict[str, Any] = self.state.game_state
        return found

    def step(self, text: str) -> str | None:
        """Send ``text`` as the current player's action; TextArena's reason if it refused it, else ``None``.

        A refused move is TextArena's own business from there: it re-asks the same player, and
        ends the game against it on the next refusal (its ``error_allowance``).
        """
        refused: list[str] = []
        library_state = self.state
        own_check = library_state.set_invalid_move

        def noting(reason: str, *args: Any, **kwargs: Any) -> Any:
            refused.append(str(reason))
            return own_check(reason, *args, **kwargs)

        player = self.current_player
        library_state.set_invalid_move = noting  # this state object only, removed below
        try:
            self.random.call(self.env.step, text)
        finally:
            del library_state.set_invalid_move
        if refused:
            self.invalid_moves[player] += 1
        self._collect()
        if self.done and self.rewards is None:
            rewards, info = self.random.call(self.env.close)
            self.rewards = {int(pid): _number(value) for pid, value in (rewards or {}).items()}
            self.game_info = {int(pid): dict(value) for pid, value in (info or {}).items()}
        return refused[0] if refused else None

    def trial(self, text: str) -> tuple[str | None, Episode]:
        """What ``step(text)`` would do, on a copy: (TextArena's reason if refused, the stepped copy)."""
        twin = self.copy()
        return twin.step(text), twin

    def copy(self) -> Episode:
        """An independent copy: the environment deep-copied, the generators' states and the histories
        (lists of immutable messages) copied one level deep."""
        twin = copy.copy(self)
        twin.random = self.random.copy()
        twin.env = copy.deepcopy(self.env)
        twin.base = unwrapped(twin.env)
        twin.histories = [list(history) for history in self.histories]
        twin.latest = [list(latest) for latest in self.latest]
        twin.invalid_moves = list(self.invalid_moves)
        twin.rewards = None if self.rewards is None else dict(self.rewards)
        twin.game_info = copy.deepcopy(self.game_info)
        return twin

    def sharing_environment(self) -> Episode:
        """A copy with its own histories that shares this one's environment (for reading only)."""
        twin = copy.copy(self)
        twin.histories = [list(history) for history in self.histories]
        return twin

    def _collect(self) -> None:
        queues = self.state.observations
        roles = self.state.role_mapping
        for player in range(self.players):
            fresh = [
                Message(
                    int(sender),
                    "GAME" if sender == ta.GAME_ID else roles.get(sender, f"Player {sender}"),
                    text,
                    kind.name,
                )
                for sender, text, kind in map(_in_order, queues.get(player, []))
            ]
            queues[player] = []  # as TextArena's own get_current_player_observation does
            self.latest[player] = fresh
            self.histories[player].extend(fresh)
