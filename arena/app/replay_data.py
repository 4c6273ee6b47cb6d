"""Stepping through a saved episode: a plain object the replay screen reads.

The state after step ``k`` is rebuilt, not stored: the game is created again from the
episode's seed and options (``definition.create(seed, options)``, with the definition its
caller found) and the stored actions are applied step by step. Deep copies of the game are kept every
``snapshot_every`` steps, so reaching any step costs at most one copy and that many
``apply`` calls. If the game cannot be rebuilt (unknown game, changed rules) the replay
still shows every stored turn and the stored state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson
from pydantic import BaseModel
from rich.console import Group, RenderableType
from rich.pretty import Pretty
from rich.text import Text

from arena.contract.game import GameDefinition, GameState
from arena.contract.usage import Usage, unpriced_seat
from arena.display.board import board
from arena.engine import json_patch
from arena.engine.export import EpisodeSecret, refuse_secret
from arena.engine.recorder import stored_turn
from arena.plugins.games import installed_game
from arena.store.database import Store
from arena.store.turn_rows import dumps_bytes

SNAPSHOT_EVERY = 50
VIEWS_KEPT = 8
"""Views' JSON kept for the changes pane: stepping on reuses the step before."""


class ReplayError(LookupError):
    """The episode does not exist."""


@dataclass(slots=True)
class ReplayTurn:
    """One stored decision (text fields are untrusted and shown literally)."""

    index: int
    step: int
    seat: str
    player: str
    action: dict[str, Any]
    action_text: str
    reason: str
    prompt: str | None
    raw: str
    valid: bool
    fallback: bool
    error: str | None
    error_detail: str
    attempts: list[dict[str, Any]]
    usage: Usage
    latency: float
    state: dict[str, Any]
    thinking: str | None = None
    """The thinking the model returned beside its reply (``None``: none), shown apart from the reason."""

    @classmethod
    def from_row(
        cls, row: dict[str, Any], players: dict[str, str], unpriced: frozenset[str] = frozenset()
    ) -> ReplayTurn:
        """Build from a ``turns`` row as :meth:`arena.store.database.Store.turns` returns it.

        Read by record field; ``unpriced`` names the seats whose model had no price."""
        turn = stored_turn(row)
        return cls(
            index=turn["index"],
            step=turn["step"],
            seat=turn["seat"],
            player=players.get(turn["seat"], "?"),
            action=turn["action"] if isinstance(turn["action"], dict) else {},
            action_text=turn["action_text"] or "",
            reason=turn["reason"] or "",
            prompt=turn["prompt"],
            raw=turn["raw"] or "",
            valid=turn["valid"],
            fallback=turn["fallback"],
            error=turn["error"],
            error_detail=turn["error_detail"] or "",
            attempts=list(turn["attempts"] or []),
            usage=Usage.from_columns(turn["usage"], unpriced=turn["seat"] in unpriced),
            latency=turn["latency"],
            state=turn["state"] if isinstance(turn["state"], dict) else {},
            thinking=turn.get("thinking"),
        )

    @property
    def flags(self) -> str:
        """``FALLBACK (schema)``, ``re-asked (illegal)`` or empty."""
        if self.fallback:
            return f"FALLBACK ({self.error})"
        if self.error:
            return f"re-asked ({self.error})"
        return ""

    def usage_line(self) -> str:
        """``120+40 tok (90 cached) · $0.0012 · 0.84s`` (just the latency when nothing was spent)."""
        usage = self.usage
        if usage.spent:
            return f"{usage.tokens_text()} · {usage.cost_text()} · {self.latency:.2f}s"
        return f"{self.latency:.2f}s"


class ReplayData:
    """A saved episode, positioned after some step, rendered for some viewer."""

    def __init__(
        self,
        episode: dict[str, Any],
        seats: list[dict[str, Any]],
        turns: list[dict[str, Any]],
        definition: GameDefinition | None,
        *,
        snapshot_every: int = SNAPSHOT_EVERY,
    ) -> None:
        self.episode = episode
        self.definition = definition
        """The episode's game as the caller found it (``None``: not installed here)."""
        self.seat_rows = seats
        self.players = {row["seat"]: row["player"] for row in seats}
        self.seats = [row["seat"] for row in seats]
        self.snapshot_every = max(1, snapshot_every)
        self.steps: list[list[ReplayTurn]] = []
        unpriced = frozenset(row["seat"] for row in seats if unpriced_seat(row.get("config")))
        for row in turns:
            turn = ReplayTurn.from_row(row, self.players, unpriced)
            while len(self.steps) <= turn.step:
                self.steps.append([])
            self.steps[turn.step].append(turn)
        self.steps = [step for step in self.steps if step]
        self.position = 0
        self.view: str | None = None
        self.rebuild_error: str | None = None
        self.diverged_at: int | None = None
        self._snapshots: dict[int, GameState] = {}
        self._work: tuple[int, GameState] | None = None
        self._rebuilt_upto = 0
        self._views: dict[tuple[int, str | None], Any] = {}
        """Views' JSON by (position, view), for :meth:`changes` (oldest first)."""
        self._init_game()

    @classmethod
    def load(cls, store: Store, episode_id: int, **kwargs: Any) -> ReplayData:
        """Read episode ``episode_id`` from ``store``; raises :class:`ReplayError` if absent."""
        episode = store.episode(episode_id)
        if episode is None:
            raise ReplayError(f"no episode {episode_id} in {store.path}")
        try:  # the full view shows every seat's private numbers: not before a person's episode ends
            refuse_secret(store, episode, "replay")
        except EpisodeSecret as exc:
            raise ReplayError(str(exc)) from None
        definition = installed_game(episode["game"])  # looked up once: the turns and the replay use it
        return cls(
            episode, store.seats(episode_id), store.turns(episode_id, definition), definition, **kwargs
        )

    def _init_game(self) -> None:
        seed, options = int(self.episode["seed"]), dict(self.episode.get("options") or {})
        definition = self.definition
        if definition is None:
            self.rebuild_error = f"cannot rebuild the game: {self.episode['game']} is not installed"
            return
        try:
            try:
                game = definition.create(seed, options)
            except ValueError:  # recorded options outside today's limits: use them as played
                game = definition.new_state(seed, definition.Options.model_construct(**options))
        except Exception as exc:  # a removed option, changed rules: keep the stored turns readable
            self.rebuild_error = f"cannot rebuild the game: {type(exc).__name__}: {exc}"
            return
        if list(game.seats) != self.seats and set(self.seats) - set(game.seats):
            self.rebuild_error = "the stored seats do not match the game's seats"
            return
        self._snapshots[0] = game
        self._work = (0, game.clone())

    # -- navigation ---------------------------------------------------------------------
    @property
    def total(self) -> int:
        """Number of steps in the episode."""
        return len(self.steps)

    def go(self, position: int) -> int:
        """Move to the state after step ``position`` (0 = before the first), clamped."""
        self.position = max(0, min(self.total, position))
        return self.position

    def forward(self, count: int = 1) -> int:
        """Step forward ``count`` steps."""
        return self.go(self.position + count)

    def back(self, count: int = 1) -> int:
        """Step back ``count`` steps."""
        return self.go(self.position - count)

    def views(self) -> list[str | None]:
        """``None`` (the full view) and every seat."""
        return [None, *self.seats]

    def cycle_view(self) -> str | None:
        """Switch to the next view: full, then each seat's own."""
        views = self.views()
        self.view = views[(views.index(self.view) + 1) % len(views)]
        return self.view

    def view_label(self) -> str:
        """``full view`` or ``seat a's view`` (seat names are the game's, trusted)."""
        return "full view" if self.view is None else f"seat {self.view}'s view"

    def current_turns(self) -> list[ReplayTurn]:
        """The decisions of the step just shown, filtered to the viewer's seat."""
        if self.position == 0:
            return []
        turns = self.steps[self.position - 1]
        return turns if self.view is None else [t for t in turns if t.seat == self.view]

    def step_label(self) -> str:
        """``after step 17/30``: the state shown is the one these decisions led to."""
        if self.position == 0:
            return f"start · step 0/{self.total}"
        return f"after step {self.position}/{self.total}"

    def result_rows(self) -> tuple[list[str], list[list[Any]]]:
        """At the last step of an ended episode: seats (header) and rows (metric, values...)."""
        scored = [row for row in self.seat_rows if row.get("score") is not None]
        if self.position != self.total or not scored:
            return [], []
        seats = [row["seat"] for row in scored]
        rows: list[list[Any]] = [["score", *(row["score"] for row in scored)]]
        names: list[str] = []
        for row in scored:
            names += [name for name in (row.get("metrics") or {}) if name not in names]
        shared = self._episode_metrics()
        for name in names:
            values = [(row.get("metrics") or {}).get(name) for row in scored]
            if name in shared and len(set(map(repr, values))) == 1:
                values = [values[0], *([""] * (len(values) - 1))]
                name = f"{name} (episode)"
            rows.append([name, *values])
        return seats, rows

    def _episode_metrics(self) -> frozenset[str]:
        # A game no longer installed: every metric per seat.
        return self.definition.episode_metrics if self.definition is not None else frozenset()

    def score_series(self) -> tuple[str, dict[str, list[float]]]:
        """The game's chart title and its series after the current step: every seat's in the
        full view, the seat's own in a seat's view (as the match screen shows a person's)."""
        game = self.game()
        if game is None or self.definition is None:
            return "score", {}
        view = self.definition.view
        series = view.score_series(game)
        return type(view).score_series_title, {
            seat: list(values) for seat, values in series.items() if self.view in (None, seat)
        }

    # -- rebuilding ---------------------------------------------------------------------
    def game(self) -> GameState | None:
        """The rebuilt game after the current step, or ``None`` if it cannot be rebuilt there."""
        if self._work is None:
            return None
        target = self.position
        at, game = self._work
        base = max(p for p in self._snapshots if p <= target)
        if target < at or base > at:
            at, game = base, self._snapshots[base].clone()
        while at < target:
            if not self._apply(game, at):
                self._work = (at, game)
                return None
            at += 1
            if at % self.snapshot_every == 0 and at not in self._snapshots:
                self._snapshots[at] = game.clone()
        self._work = (at, game)
        return game

    def _apply(self, game: GameState, index: int) -> bool:
        if self.rebuild_error is not None and index >= self._rebuilt_upto:
            return False
        turns = self.steps[index]
        try:
            actions: dict[str, BaseModel] = {}
            for turn in turns:
                model = game.action_model(turn.seat)
                actions[turn.seat] = model.model_validate(turn.action)
            game.apply(actions)
        except Exception as exc:  # stored actions no longer fit the rules
            self.rebuild_error = f"step {index + 1} cannot be replayed: {type(exc).__name__}: {exc}"
            self._rebuilt_upto = index
            return False
        if self.diverged_at is None:
            for turn in turns:
                if _normal(game.turn_state(turn.seat)) != _normal(turn.state):
                    self.diverged_at = index + 1
                    break
        self._rebuilt_upto = max(self._rebuilt_upto, index + 1)
        return True

    # -- what a step changed -----------------------------------------------------------------
    def changes(self) -> tuple[str, list[str]]:
        """What the current step changed in the current view: a heading and one line per change.

        The full view compares the whole game state (hidden values included) after the step
        with the one before it; a seat's view compares that seat's observation. Lines are
        JSON Patch operations in words (``~ /stands/a/cash: 117.72``); values are untrusted.
        """
        what = "the full state" if self.view is None else f"seat {self.view}'s view"
        if self.position == 0:
            return f"{what} at the start", []
        before, after = self._view_json(self.position - 1), self._view_json(self.position)
        if before is None or after is None:
            return f"{what}: cannot be rebuilt here ({self.rebuild_error or 'no state'})", []
        patch = json_patch.diff(before, after)
        heading = f"step {self.position} changed {len(patch)} value{'s' if len(patch) != 1 else ''} of {what}"
        return heading, json_patch.describe(patch)

    def prepare_changes(self) -> None:
        """Rebuild now the two views :meth:`changes` compares for the current step (while nobody waits)."""
        if self.position > 0:
            self._view_json(self.position - 1)
            self._view_json(self.position)

    def _view_json(self, position: int) -> Any:
        """The current view's JSON after step ``position`` (kept for the last few positions)."""
        key = (position, self.view)
        if key in self._views:
            return self._views[key]
        here = self.position
        self.position = position
        try:
            game = self.game()
            if game is None:
                value: Any = None
            elif self.view is None:
                value = _normal(game.to_json())
            else:
                value = game.observation(self.view).model_dump(mode="json")
        finally:
            self.position = here
        self._views[key] = value
        while len(self._views) > VIEWS_KEPT:
            del self._views[next(iter(self._views))]
        return value

    def render(self) -> RenderableType:
        """The state after the current step for the current view (untrusted parts included)."""
        game = self.game()
        if game is not None:
            return board(game, self.view)
        states: list[RenderableType] = [Text(self.rebuild_error or "no state", style="bold red")]
        for turn in self.current_turns():
            states.append(Text(f"stored state of seat {turn.seat}:", style="bold"))
            states.append(Pretty(turn.state))
        return Group(*states)

    def warnings(self) -> list[str]:
        """Why the rebuilt state may not match what was played (trusted text only)."""
        notes = []
        if self.rebuild_error:
            notes.append(self.rebuild_error)
        if self.diverged_at is not None:
            notes.append(
                f"the rebuilt state differs from the stored one from step {self.diverged_at} "
                f"(game version then {self.episode.get('game_version')})"
            )
        return notes


def _normal(value: Any) -> Any:
    """``value`` as JSON reads it back (lists for tuples...), decoded by orjson as it was encoded:
    a 500-day lemonade state in 1 ms, where ``json.loads`` took 3 of a replay step's 7 ms."""
    return orjson.loads(dumps_bytes(value))
