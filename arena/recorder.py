"""The recorder: an observer that writes every event to the store as it happens."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from arena import __version__
from arena.episode_log import dumps_bytes, turn_digest
from arena.events import EpisodeEnded, EpisodeStarted, EpisodeStatus, Event, TurnRecord, TurnsRecorded
from arena.store import Store, dumps


class Recorder:
    """Writes an episode to a :class:`Store`; one step's turns are one commit."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.episode_id: int | None = None
        self.prompt_version = ""

    def __call__(self, event: Event) -> None:
        if isinstance(event, TurnsRecorded):
            assert self.episode_id is not None
            self.store.add_turns(self.episode_id, [self._row(turn) for turn in event.turns])
        elif isinstance(event, EpisodeStarted):
            game = event.game.definition
            self.prompt_version = game.prompt_version
            self.episode_id = self.store.create_episode(
                game=game.name,
                game_version=game.version,
                prompt_version=game.prompt_version,
                arena_version=__version__,
                seed=event.seed,
                config=event.options,
                seats=[(s.seat, s.spec, s.kind) for s in event.seats],
                tournament_id=event.tournament_id,
                slot_key=event.slot_key,
                configs={s.seat: s.config for s in event.seats if s.config},
            )
            event.episode_id = self.episode_id
        elif isinstance(event, EpisodeEnded) and self.episode_id is not None:
            seats: dict[str, dict[str, Any]] = {}
            # A seat that could not play leaves no score for anyone (metrics stay, for the record).
            scored = event.status != EpisodeStatus.PLAYER_FAILED
            for seat, result in event.results.items():
                usage = event.usage.get(seat)
                seats[seat] = {
                    "score": result.score if scored else None,
                    "metrics": result.metrics,
                    "input_tokens": usage.input_tokens if usage else 0,
                    "output_tokens": usage.output_tokens if usage else 0,
                    "cost_usd": usage.cost_usd if usage else 0.0,
                }
            self.store.finish_episode(self.episode_id, event.status, event.message, seats)

    def _row(self, turn: TurnRecord) -> tuple[Any, ...]:
        # Compact row: observation and state are proved by a digest and rebuilt on read
        # (arena.episode_log); a reason that the action repeats is stored once.
        usage = turn.usage
        digest = turn_digest(dumps_bytes(turn.observation), dumps_bytes(turn.state))
        action = turn.action
        reason_in_action = bool(turn.reason) and action.get("reason") == turn.reason
        if reason_in_action:
            action = {key: value for key, value in action.items() if key != "reason"}
        return (
            self.episode_id,
            turn.index,
            turn.step,
            turn.seat,
            None,
            turn.prompt,
            self.prompt_version if turn.prompt is not None else None,
            turn.raw,
            dumps(action),
            turn.action_text,
            turn.reason,
            int(turn.valid),
            int(turn.fallback),
            turn.error,
            turn.error_detail,
            dumps([asdict(a) for a in turn.attempts]) if turn.attempts else "[]",
            usage.input_tokens,
            usage.output_tokens,
            usage.cached_tokens,
            usage.reasoning_tokens,
            usage.cost_usd,
            turn.latency,
            None,
            dumps(turn.sampling) if turn.sampling is not None else None,
            digest,
            int(reason_in_action),
        )
