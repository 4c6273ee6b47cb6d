"""A leaderboard across games: tournaments of different games that share players, in one table.

Players. A player is a configuration, not a name: each tournament stores the resolved
configuration of every player it ran (``player_settings`` in the tournament row, see
:mod:`arena.tournament.run`), and two tournaments' players are the same player when those
configurations hash alike (:func:`identity`). The keys that only name the game a
configuration was resolved in (``game``, ``game_version``, the game's ``prompt_version``)
are left out of that hash: they differ between games by construction, and a model with the
same provider, model id, sampling settings and limits is the same player in every game. A
name whose configuration differs between tournaments is two players, labelled
``name [cfg 1a2b3c]`` by the first hex digits of each :func:`identity`.

Games weigh the same. Two tournaments of the same game are one game: their finished
episodes pool, and a deal seed they share is one deal. Each game's pairwise results
(:func:`arena.tournament.ratings.comparisons`) are scaled so that every game contributes the
same number of comparisons, the mean over the games (so the total is unchanged): a game
with ten times the episodes counts no more than the others, as in the Kaggle Game Arena's
unified table. The fit is Bradley-Terry with the tournament tables' prior (one virtual
draw per pair that met), on the scaled results.

Intervals. The resampling unit is a (game, deal seed): the combined
:class:`~arena.tournament.ratings.Comparisons` stacks every game's seeds on one axis, with
``strata`` naming each seed's game, so the bootstrap draws each game's seeds within that
game and the same seed number in two games stays two units. Sweeps, groups, unrated players
and the small-sample rules are those of every ratings table
(:func:`~arena.tournament.ratings.ratings_from`); the small-sample rules count the seeds of
the game with the fewest.

Beside the combined rating, every player gets each game's own rating: Bradley-Terry on that
game's pairs alone (unscaled), centred on 1000 within the game, so columns of different
games are not on one scale.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import orjson

from arena.contract.playerconfig import config_hash
from arena.store.database import Store
from arena.tournament.confidence import order_confidence
from arena.tournament.config import TournamentConfigError
from arena.tournament.intervals import ROUGH_BELOW
from arena.tournament.ratings import (
    BRADLEY_TERRY,
    CENTRE,
    Comparisons,
    Ratings,
    comparisons,
    ratings_from,
)
from arena.tournament.records import EpisodeRecord, outcome_counts
from arena.tournament.run import load_tournament
from arena.tournament.standings import FALLBACK_HEAVY, read_tournament
from arena.tournament.tables import FIT_NOTE, FITS, PRIOR, SCALE, group_sections

GAME_BOUND_KEYS = frozenset({"game", "game_version", "prompt_version"})
"""Configuration keys that name the game a configuration was resolved in, not the player."""
CFG_DIGITS = 6
COUNTS = ("episodes", "wins", "draws", "losses")
WEIGHTING = (
    "each game weighs the same whatever its number of episodes: its pairwise results are scaled"
    " to the mean number of comparisons per game; two tournaments of one game are one game"
)
MATCHING = (
    "players are matched by configuration (SHA-256 of the resolved configuration without the keys"
    " naming the game: game, game_version, prompt_version); a name with different configurations is"
    " several players, labelled name [cfg HEX]"
)
INTERVAL = (
    "95% expanded percentile bootstrap over {resamples} resamples of whole deal seeds, drawn within"
    " each game (the unit is a game's deal seed); the small-sample rules count the seeds of the game"
    " with the fewest"
)
FORECAST = (
    "more_seeds counts deal seeds of the game with the fewest, every game growing in proportion;"
    " no dollar figure (games cost differently)"
)
PER_GAME = (
    "each game's own Bradley-Terry rating on its pairs alone (unweighted), centred on 1000 within"
    " the game: columns of different games are not on one scale"
)


class LeaderboardError(ValueError):
    """Tournaments that cannot make a leaderboard (one line, says which and why)."""


def identity(configuration: Mapping[str, Any]) -> str:
    """The player a configuration stands for: :func:`config_hash` without :data:`GAME_BOUND_KEYS`."""
    return config_hash({k: v for k, v in configuration.items() if k not in GAME_BOUND_KEYS})


@dataclass(frozen=True)
class Source:
    """One tournament as the leaderboard reads it: its game, players and finished episodes.

    ``identities`` maps each player name (spec text) to its :func:`identity` (a leaderboard
    row's ``config_identity``); ``records``
    name players by that spec text, as the tournament does.
    """

    tournament_id: int
    name: str
    game: str
    players: tuple[str, ...]
    identities: Mapping[str, str]
    records: tuple[EpisodeRecord, ...]
    decisions: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    """Each player's decisions in the finished episodes and how many of them were the game's fallback."""


def read_source(store: Store, tournament_id: int) -> Source:
    """Tournament ``tournament_id`` with its players' identities and finished episodes.

    Raises :class:`~arena.tournament.run.TournamentNotFound` for an unknown id and
    :class:`LeaderboardError` for one with no finished episodes or no recorded configurations.
    """
    try:
        row, config = load_tournament(store, tournament_id)
    except TournamentConfigError:  # a row made by the old arena suite: no players' configurations
        raise LeaderboardError(
            f"tournament {tournament_id} was made by an older arena suite: its players cannot be matched"
        ) from None
    stored = read_tournament(store, tournament_id)
    records = tuple(stored.records)
    if not records:
        raise LeaderboardError(
            f"tournament {tournament_id} ({config.game}) has no finished episodes: nothing of it to rate"
            f" (play it: arena tournament resume {tournament_id}; or leave it out)"
        )
    settings: dict[str, Any] = dict((row.get("config") or {}).get("player_settings") or {})
    seated = _seat_configurations(store, tournament_id)
    identities: dict[str, str] = {}
    seen = dict.fromkeys(p for record in records for p in record.seating.values())
    for player in dict.fromkeys([*config.players, *seen]):
        found = settings.get(player) or seated.get(player)
        if isinstance(found, dict):
            identities[player] = identity(found)
        elif player in seen:
            raise LeaderboardError(
                f"tournament {tournament_id} does not record the configuration of {player}"
                " (made by an older arena): its players cannot be matched"
            )
    return Source(
        tournament_id=tournament_id,
        name=config.display_name(),
        game=config.game,
        players=tuple(p for p in config.players if p in identities),
        identities=identities,
        records=records,
        decisions={
            p: (t.failures["decisions"], t.failures["fallback"]) for p, t in stored.per_player.items()
        },
    )


def _seat_configurations(store: Store, tournament_id: int) -> dict[str, dict[str, Any]]:
    """Each player's configuration as its finished seats stored it (for rows without ``player_settings``)."""
    rows = store.conn.execute(
        "SELECT DISTINCT s.player, p.config FROM seats s JOIN episodes e ON e.id = s.episode_id"
        " JOIN player_configs p ON p.hash = s.config_hash"
        " WHERE e.tournament_id = ? AND e.status = 'finished'",
        (tournament_id,),
    )
    return {player: orjson.loads(text) for player, text in rows if text}


@dataclass(frozen=True)
class Entrant:
    """A player of the leaderboard: one configuration, under the label the tables show."""

    label: str
    name: str
    identity: str
    tournaments: tuple[int, ...]


def entrants(sources: Sequence[Source]) -> dict[tuple[int, str], Entrant]:
    """``(tournament id, player name) -> Entrant``; a name with several configurations gets labels."""
    by_name: dict[str, dict[str, list[int]]] = {}
    for source in sources:
        for player in [*source.players, *sorted(set(source.identities) - set(source.players))]:
            tournaments = by_name.setdefault(player, {}).setdefault(source.identities[player], [])
            tournaments.append(source.tournament_id)
    found: dict[tuple[int, str], Entrant] = {}
    for name, configurations in by_name.items():
        labels = _labels(name, list(configurations))
        for digest, tournaments in configurations.items():
            entrant = Entrant(labels[digest], name, digest, tuple(tournaments))
            found.update({(t, name): entrant for t in tournaments})
    return found


def _labels(name: str, digests: list[str]) -> dict[str, str]:
    """``name`` alone, or ``name [cfg HEX]`` with as many digits as tell the configurations apart."""
    if len(digests) == 1:
        return {digests[0]: name}
    digits = CFG_DIGITS
    while len({d[:digits] for d in digests}) < len(digests):
        digits += 2
    return {d: f"{name} [cfg {d[:digits]}]" for d in digests}


@dataclass(frozen=True)
class GamePart:
    """One game of the leaderboard: its tournaments' finished episodes under the entrants' labels.

    ``comparisons`` covers every leaderboard player (the game's own results, unscaled);
    ``weight`` scales them to the mean comparisons per game.
    """

    game: str
    tournaments: tuple[int, ...]
    players: tuple[str, ...]
    records: tuple[EpisodeRecord, ...]
    comparisons: Comparisons
    weight: float

    @property
    def total(self) -> float:
        """The game's comparisons (pairs of entries compared; a tie counts once)."""
        return float(self.comparisons.wins.sum())


def game_parts(
    sources: Sequence[Source], found: Mapping[tuple[int, str], Entrant], players: Sequence[str]
) -> list[GamePart]:
    """The games of ``sources`` (in order of first appearance), each weighted to the mean comparisons."""
    pooled: dict[str, list[Source]] = {}
    for source in sources:
        pooled.setdefault(source.game, []).append(source)
    drafts: list[GamePart] = []
    for game, members in pooled.items():
        records = tuple(
            replace(
                record,
                slot_key=f"{source.tournament_id}:{record.slot_key}",
                seating={seat: found[source.tournament_id, p].label for seat, p in record.seating.items()},
            )
            for source in members
            for record in source.records
        )
        own = dict.fromkeys(found[s.tournament_id, p].label for s in members for p in s.identities)
        data = comparisons(records, players)
        drafts.append(GamePart(game, tuple(s.tournament_id for s in members), tuple(own), records, data, 1.0))
    totals = [part.total for part in drafts if part.total]  # a game with no pairs weighs nothing
    target = sum(totals) / len(totals) if totals else 0.0
    return [replace(part, weight=target / part.total if part.total else 0.0) for part in drafts]


def combine(parts: Sequence[GamePart]) -> Comparisons:
    """Every game's scaled results on one seed axis, ``strata`` naming each seed's game."""
    players = parts[0].comparisons.players
    wins = np.concatenate([part.weight * part.comparisons.wins for part in parts], axis=0)
    seeds = tuple(seed for part in parts for seed in part.comparisons.seeds)
    strata = tuple(g for g, part in enumerate(parts) for _ in part.comparisons.seeds)
    return Comparisons(players, seeds, wins, strata)


def leaderboard(
    store: Store, tournament_ids: Sequence[int], *, resamples: int = 1000, seed: int = 0
) -> dict[str, Any]:
    """The leaderboard of ``tournament_ids`` as one JSON-able dict (see the module docstring)."""
    ids = list(dict.fromkeys(tournament_ids))
    if not ids:
        raise LeaderboardError("name at least one tournament (see: arena tournaments)")
    return leaderboard_from([read_source(store, t) for t in ids], resamples=resamples, seed=seed)


def leaderboard_from(sources: Sequence[Source], *, resamples: int = 1000, seed: int = 0) -> dict[str, Any]:
    """The leaderboard of already-read tournaments (see :func:`leaderboard`)."""
    found = entrants(sources)
    _check_shared(sources, found)
    players = list(dict.fromkeys(found[s.tournament_id, p].label for s in sources for p in s.identities))
    parts = game_parts(sources, found, players)
    data = combine(parts)
    ratings = ratings_from(data, resamples=resamples, seed=seed, prior=PRIOR, method=BRADLEY_TERRY)
    own = {part.game: _own_rows(part, resamples, seed) for part in parts}
    rows = []
    by_label = {e.label: e for e in found.values()}
    for row in ratings.rows():
        label = str(row["player"])
        entrant = by_label[label]
        per_game = {game: cells[label] for game, cells in own.items() if label in cells}
        counts = {
            k: sum(int(c[k]) for c in per_game.values()) for k in ("episodes", "wins", "draws", "losses")
        }
        made = [
            source.decisions.get(p, (0, 0))
            for source in sources
            for p in source.identities
            if found[source.tournament_id, p].label == label
        ]
        decisions, fallbacks = sum(d for d, _ in made), sum(f for _, f in made)
        share = fallbacks / decisions if decisions else 0.0
        rows.append(
            {
                **row,
                "name": entrant.name,
                "config_identity": entrant.identity,
                "tournaments": list(entrant.tournaments),
                "games": list(per_game),
                **counts,
                "fallback_share": round(share, 4),
                "fallback_heavy": share > FALLBACK_HEAVY,
                "per_game": per_game,
            }
        )
    return {
        "leaderboard": {
            "tournaments": [_source_info(s, found) for s in sources],
            "games": [_part_info(part) for part in parts],
            "weighting": WEIGHTING,
            "matching": MATCHING,
            "per_game": PER_GAME,
            "forecast": FORECAST,
        },
        "ratings": _ratings_info(ratings, resamples, seed),
        "players": rows,
        "order_confidence": [r.to_dict() for r in order_confidence(ratings)],
    }


def _check_shared(sources: Sequence[Source], found: Mapping[tuple[int, str], Entrant]) -> None:
    """Every tournament must be joined to the others through players they share."""
    played = {
        s.tournament_id: {found[s.tournament_id, p].label for r in s.records for p in r.seating.values()}
        for s in sources
    }
    reached = {sources[0].tournament_id}
    grown = True
    while grown:
        grown = False
        for t, labels in played.items():
            if t not in reached and any(labels & played[r] for r in reached):
                reached.add(t)
                grown = True
    apart = [s for s in sources if s.tournament_id not in reached]
    if not apart:
        return
    joined = [s for s in sources if s.tournament_id in reached]
    names = {p for s in joined for p in s.identities} & {p for s in apart for p in s.identities}
    hint = (
        f" ({', '.join(sorted(names))}: same name, different configuration)"
        if names
        else "; players match by name and configuration"
    )
    raise LeaderboardError(
        f"no shared players: {_listing(joined)} and {_listing(apart)} have no player in common{hint}"
    )


def _listing(sources: Sequence[Source]) -> str:
    ids = ", ".join(str(s.tournament_id) for s in sources)
    games = ", ".join(dict.fromkeys(s.game for s in sources))
    return f"tournament{'s' if len(sources) > 1 else ''} {ids} ({games})"


def _own_rows(part: GamePart, resamples: int, seed: int) -> dict[str, dict[str, Any]]:
    """Each player's row in the game's own ratings table (with its counts in the game)."""
    data = comparisons(part.records, part.players)
    ratings = ratings_from(data, resamples=resamples, seed=seed, prior=PRIOR, method=BRADLEY_TERRY)
    counts = outcome_counts(part.records, part.players)
    return {str(row["player"]): {**row, **counts[str(row["player"])]} for row in ratings.rows()}


def _source_info(source: Source, found: Mapping[tuple[int, str], Entrant]) -> dict[str, Any]:
    return {
        "id": source.tournament_id,
        "name": source.name,
        "game": source.game,
        "episodes": len(source.records),
        "deal_seeds": len({r.deal_seed for r in source.records}),
        "players": [found[source.tournament_id, p].label for p in source.identities],
    }


def _part_info(part: GamePart) -> dict[str, Any]:
    return {
        "game": part.game,
        "tournaments": list(part.tournaments),
        "players": list(part.players),
        "episodes": len(part.records),
        "deal_seeds": len(part.comparisons.seeds),
        "comparisons": part.total,
        "weight": part.weight,
    }


def _ratings_info(ratings: Ratings, resamples: int, seed: int) -> dict[str, Any]:
    return {
        "method": BRADLEY_TERRY,
        "fit": FITS[BRADLEY_TERRY] + ", each game weighted equally; " + FIT_NOTE.format(prior=PRIOR),
        "prior": PRIOR,
        "interval": INTERVAL.format(resamples=resamples),
        "scale": SCALE,
        "centre": CENTRE,
        "anchor": None,
        "deal_seeds": ratings.interval_seeds,
        "resampling_units": ratings.deals,
        "rough": ratings.interval_seeds < ROUGH_BELOW,
        "bootstrap": {"resamples": resamples, "unit": "deal seed within its game", "seed": seed},
        **group_sections(ratings),
    }
