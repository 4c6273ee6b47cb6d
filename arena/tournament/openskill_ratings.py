"""openskill's online Plackett-Luce ratings: an extra column for games with more than two seats.

This is an *order-dependent* estimate, kept beside the maximum-likelihood fit of
:mod:`arena.tournament.plackett_luce` because it is what TrueSkill-style leaderboards
(the Cattle Trade paper's among them) report. Feeding the same games in another order
gives other numbers, and its ``sigma`` is a Bayesian filter's, not the spread of the
result over deals: in one 3-stand tournament the values fell outside the range of 50
random orders of the same games, and ``sigma`` was about twice the real spread.

Each game of :func:`records.games` (an episode, or one deal seed of a one-seat game) is one
ranked result, fed to openskill's Weng-Lin Plackett-Luce model in the order the records are
given (the schedule's deal-major order), with ties as equal ranks. The model's dynamics term
``tau`` is 0: a player's skill is taken to be fixed during a tournament, so ``sigma`` only
shrinks with evidence. A player holding several seats of one game (more seats than players)
enters once per seat; its new ``mu`` and ``sigma`` are the means over those seats.

Scale: openskill's own (prior ``mu`` 25, ``sigma`` 25/3). The interval is ``mu ± 1.96 sigma``
and ``ordinal`` is openskill's conservative ``mu - 3 sigma``. These come from an online
Bayesian approximation, not a bootstrap, so they are not comparable with the
Bradley-Terry intervals; the order confidence in :mod:`confidence` uses the bootstrap.
(Kept while the tables show it: one column, labelled order-dependent.)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce, PlackettLuceRating

from arena.tournament.records import EpisodeRecord, games, player_order

Z95 = 1.959963984540054


@dataclass(frozen=True)
class PLRating:
    """One player's Plackett-Luce rating."""

    player: str
    mu: float
    sigma: float
    games: int

    @property
    def low(self) -> float:
        """``mu - 1.96 sigma``."""
        return self.mu - Z95 * self.sigma

    @property
    def high(self) -> float:
        """``mu + 1.96 sigma``."""
        return self.mu + Z95 * self.sigma

    @property
    def ordinal(self) -> float:
        """openskill's conservative estimate ``mu - 3 sigma``."""
        return self.mu - 3.0 * self.sigma

    def to_dict(self) -> dict[str, float | int | str]:
        """JSON-able form."""
        return {
            "player": self.player,
            "mu": self.mu,
            "sigma": self.sigma,
            "low": self.low,
            "high": self.high,
            "ordinal": self.ordinal,
            "games": self.games,
        }


def openskill_ratings(
    records: Sequence[EpisodeRecord], *, players: Sequence[str] | None = None
) -> list[PLRating]:
    """openskill Plackett-Luce ratings of the players in ``records`` in their order, best ``mu`` first."""
    order = player_order(records, players)
    model = PlackettLuce(tau=0.0)
    state: dict[str, PlackettLuceRating] = {p: model.rating(name=p) for p in order}
    played = dict.fromkeys(order, 0)
    for game in games(records):
        teams = [[model.rating(mu=state[p].mu, sigma=state[p].sigma)] for p, _ in game.entries]
        ranks = [-standing for _, standing in game.entries]
        updated = model.rate(teams, ranks=ranks)
        by_player: dict[str, list[PlackettLuceRating]] = {}
        for (player, _), (new,) in zip(game.entries, updated, strict=True):
            by_player.setdefault(player, []).append(new)
        for player, news in by_player.items():
            mu = sum(r.mu for r in news) / len(news)
            sigma = sum(r.sigma for r in news) / len(news)
            state[player] = model.rating(mu=mu, sigma=sigma, name=player)
            played[player] += 1
    result = [PLRating(p, state[p].mu, state[p].sigma, played[p]) for p in order]
    return sorted(result, key=lambda r: (-r.mu, r.player))
