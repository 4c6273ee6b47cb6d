"""Exporting a stored episode as one JSON document."""

from __future__ import annotations

from typing import Any

from arena.contract.game import GameDefinition, GameView
from arena.engine.recorder import stored_turn
from arena.plugins.games import installed_game
from arena.store.database import Store

NOT_EXPORTED = frozenset({"action_text"})
"""Turn fields stored but not exported (the action itself is)."""


class EpisodeNotFound(LookupError):
    """No episode with that id in the database."""


class EpisodeSecret(LookupError):
    """A person's episode that has not ended: what would show its hidden deal waits for the end."""


def refuse_secret(store: Store, episode: dict[str, Any], what: str) -> None:
    """Raise :class:`EpisodeSecret` if ``episode``'s deal is still secret; ``what`` names the view.

    A person who stopped a match could otherwise read the other side's value in its replay
    or export, then resume it knowing the answer.
    """
    if not store.deal_is_secret(episode["id"]):
        return
    episode_id, status = episode["id"], episode["status"]
    then = "it ends" if status == "running" else f"it ends (arena resume {episode_id} continues it)"
    raise EpisodeSecret(
        f"episode {episode_id} has a person's seat and has not ended ({status}): its {what} would show"
        f" the hidden deal, so it waits until {then}"
    )


def export_episode(store: Store, episode_id: int) -> dict[str, Any]:
    """The episode, its seats and every turn, as plain JSON-able data (refused while its deal is secret)."""
    episode = store.episode(episode_id)
    if episode is None:
        raise EpisodeNotFound(f"no episode {episode_id} in {store.path}")
    refuse_secret(store, episode, "export")
    game = installed_game(episode["game"])  # looked up once: the turns and the game's data replay it
    seats = store.seats(episode_id)
    turns = store.turns(episode_id, game)
    # Seats and turns recorded before player configurations existed export as they always did.
    document: dict[str, Any] = {
        "episode": {
            "id": episode["id"],
            "game": episode["game"],
            "seed": episode["seed"],
            "status": episode["status"],
            "message": episode["message"],
            "options": episode["options"],
            "versions": {
                "game": episode["game_version"],
                "prompt": episode["prompt_version"],
                "arena": episode["arena_version"],
            },
            "started_at": episode["started_at"],
            "finished_at": episode["finished_at"],
            "tournament_id": episode["tournament_id"],
        },
        "seats": [
            {
                "seat": s["seat"],
                "player": s["player"],
                "kind": s["kind"],
                "score": s["score"],
                "metrics": s["metrics"],
                "usage": {
                    "input_tokens": s["input_tokens"],
                    "output_tokens": s["output_tokens"],
                    "cost_usd": s["cost_usd"],
                    **_cached(turns, s["seat"]),
                    **({"cache_write_tokens": s["cache_write_tokens"]} if s["cache_write_tokens"] else {}),
                },
                **({"config_hash": s["config_hash"], "config": s["config"]} if s["config_hash"] else {}),
            }
            for s in seats
        ],
        "turns": [export_turn(t) for t in turns],
    }
    extra = _game_extra(game, episode, turns) if game is not None else {}
    if extra:
        document["game_data"] = extra
    return document


def export_turn(row: dict[str, Any]) -> dict[str, Any]:
    """A stored turn row as ``arena export`` writes it: the ``TurnRecord`` fields in order.

    ``action_text`` is left out; ``sampling`` only when some was sent, ``served`` only when the
    turn recorded it, ``revised`` only when the reply changed its answer, ``system`` only when the
    turn recorded the system message sent, ``thinking`` only when the model returned some; ``rebuild_error``
    (before ``sampling``) only when the observation could not be rebuilt.
    """
    turn = {name: value for name, value in stored_turn(row).items() if name not in NOT_EXPORTED}
    sampling = turn.pop("sampling")
    served = turn.pop("served")
    revised = turn.pop("revised")
    system = turn.pop("system", None)
    thinking = turn.pop("thinking", None)
    if "rebuild_error" in row:
        turn["rebuild_error"] = row["rebuild_error"]
    if sampling is not None:
        turn["sampling"] = sampling
    if served is not None:
        turn["served"] = served
    if revised:
        turn["revised"] = True
    if system is not None:
        turn["system"] = system
    if thinking is not None:
        turn["thinking"] = thinking
    return turn


def _game_extra(
    definition: GameDefinition, episode: dict[str, Any], turns: list[dict[str, Any]]
) -> dict[str, Any]:
    """The game's own export data, from the episode rebuilt by replaying its stored actions."""
    view = definition.view
    if type(view).export_extra is GameView.export_extra:  # the game adds nothing: no replay
        return {}
    try:
        seed, options = int(episode["seed"]), dict(episode["options"] or {})
        try:
            game = definition.create(seed, options)
        except ValueError:  # recorded options outside today's limits: use them as played
            game = definition.new_state(seed, definition.Options.model_construct(**options))
        steps: dict[int, dict[str, Any]] = {}
        for turn in turns:
            steps.setdefault(turn["step"], {})[turn["seat"]] = turn["action"]
        for step in sorted(steps):
            game.apply({seat: game.action_model(seat).model_validate(a) for seat, a in steps[step].items()})
    except Exception as exc:  # an episode recorded under other rules stays exportable
        return {"error": f"cannot rebuild the game: {type(exc).__name__}: {exc}"}
    return view.export_extra(game)


def _cached(turns: list[dict[str, Any]], seat: str) -> dict[str, int]:
    """A seat's input tokens read from a prompt cache, if any (older exports stay as they were)."""
    cached = sum(t["cached_tokens"] for t in turns if t["seat"] == seat)
    return {"cached_tokens": cached} if cached else {}
