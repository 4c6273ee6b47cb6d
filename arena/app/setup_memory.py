"""Each game's last set-up: kept for the session, and the last one started kept beside the database.

Going from lemonade to bargain and back must not lose the seats and options a person gave
lemonade, so the home screen hands each game's set-up here when it leaves the game and asks
for it when it comes back. The set-up a match was started with is also written to a small
JSON file next to the database (``saves/arena.db`` -> ``saves/arena.setups.json``), so the
next session, or another app open on the same database, starts from it. The file is a
convenience: one that cannot be read or written is ignored, and the set-up starts from the
game's defaults as before.

The tournament set-up screen keeps its set-ups the same way, in the same file under keys of
its own (``tournaments`` and ``last_tournament_game``), so a file written before them still
loads and a write by either screen keeps what the other wrote.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FILE_SUFFIX = ".setups.json"
"""The set-ups file is the database's name with this in place of its suffix."""
GAMES, LAST_GAME = "games", "last_game"
"""The file's keys for the home screen's set-ups (per game) and the game of the last match."""
TOURNAMENTS, LAST_TOURNAMENT_GAME = "tournaments", "last_tournament_game"
"""The file's keys for the tournament set-ups (per game) and the game of the last tournament."""


@dataclass(frozen=True)
class Setup:
    """What a person entered for one game: seat specs, option texts and the seed as typed."""

    seats: dict[str, str] = field(default_factory=dict)
    options: dict[str, str] = field(default_factory=dict)
    seed: str = "0"
    seed_given: bool = False

    def as_json(self) -> dict[str, Any]:
        """The set-up as a JSON object."""
        return {
            "seats": self.seats,
            "options": self.options,
            "seed": self.seed,
            "seed_given": self.seed_given,
        }

    @classmethod
    def from_json(cls, value: object) -> Setup | None:
        """The set-up stored as ``value``, or ``None`` if it is not one (a file edited by hand)."""
        if not isinstance(value, dict):
            return None
        seats, options = value.get("seats", {}), value.get("options", {})
        seed, given = value.get("seed", "0"), value.get("seed_given", False)
        if not (_str_map(seats) and _str_map(options) and isinstance(seed, str) and isinstance(given, bool)):
            return None
        return cls(dict(seats), dict(options), seed, given)


@dataclass(frozen=True)
class TournamentSetup:
    """What a person entered on the tournament set-up screen for one game, as typed."""

    players: tuple[str, ...] = ()
    options: dict[str, str] = field(default_factory=dict)
    seeds: str = ""
    seed: str = "0"
    concurrency: str = ""
    name: str = ""
    cluster: str = ""
    on_invalid: str = "fallback"
    """What a model's unusable answer after the re-ask leads to: ``fallback`` or ``forfeit``."""

    def as_json(self) -> dict[str, Any]:
        """The set-up as a JSON object."""
        return {
            "players": list(self.players),
            "options": self.options,
            "seeds": self.seeds,
            "seed": self.seed,
            "concurrency": self.concurrency,
            "name": self.name,
            "cluster": self.cluster,
            "on_invalid": self.on_invalid,
        }

    @classmethod
    def from_json(cls, value: object) -> TournamentSetup | None:
        """The set-up stored as ``value``, or ``None`` if it is not one (a file edited by hand)."""
        if not isinstance(value, dict):
            return None
        players, options = value.get("players", []), value.get("options", {})
        texts = {key: value.get(key, "") for key in ("seeds", "seed", "concurrency", "name", "cluster")}
        # A file written before the policy was kept has none: the default, as the CLI's.
        texts["on_invalid"] = value.get("on_invalid", "fallback")
        if not (isinstance(players, list) and all(isinstance(p, str) for p in players)):
            return None
        if not (_str_map(options) and all(isinstance(text, str) for text in texts.values())):
            return None
        return cls(players=tuple(players), options=dict(options), **texts)


def _str_map(value: object) -> bool:
    if not isinstance(value, dict):
        return False
    return all(isinstance(k, str) and isinstance(v, str) for k, v in value.items())


def setups_path(db_path: Path) -> Path | None:
    """Where the set-ups of the database at ``db_path`` are kept (``None`` for an in-memory one)."""
    if str(db_path) == ":memory:" or not db_path.name:
        return None
    return db_path.with_name(db_path.stem + FILE_SUFFIX)


class SetupMemory:
    """This session's set-up per game, falling back to the last one started (the file).

    One for the home screen's matches (:class:`Setup`), one for the tournament set-up screen
    (:class:`TournamentSetup`).
    """

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._session: dict[str, Setup] = {}
        self._tournaments: dict[str, TournamentSetup] = {}

    def remember(self, game: str, setup: Setup) -> None:
        """Keep ``setup`` as ``game``'s for the rest of the session."""
        self._session[game] = setup

    def recall(self, game: str) -> Setup | None:
        """``game``'s set-up: this session's, else the last one started with this database."""
        if game in self._session:
            return self._session[game]
        return Setup.from_json(self._section(GAMES).get(game))

    def last_game(self) -> str | None:
        """The game the last match on this database was started with, if known."""
        game = self._read().get(LAST_GAME)
        return game if isinstance(game, str) else None

    def used(self, game: str, setup: Setup) -> None:
        """A match was started with ``setup``: keep it for the session and write it to the file."""
        self.remember(game, setup)
        self._write(GAMES, LAST_GAME, game, setup.as_json())

    def remember_tournament(self, game: str, setup: TournamentSetup) -> None:
        """Keep ``setup`` as the tournament set-up of ``game`` for the rest of the session."""
        self._tournaments[game] = setup

    def recall_tournament(self, game: str) -> TournamentSetup | None:
        """``game``'s tournament set-up: this session's, else the last one started with this database."""
        if game in self._tournaments:
            return self._tournaments[game]
        return TournamentSetup.from_json(self._section(TOURNAMENTS).get(game))

    def last_tournament_game(self) -> str | None:
        """The game of the last tournament started on this database, if known."""
        game = self._read().get(LAST_TOURNAMENT_GAME)
        return game if isinstance(game, str) else None

    def tournament_used(self, game: str, setup: TournamentSetup) -> None:
        """A tournament was started with ``setup``: keep it for the session and write it to the file."""
        self.remember_tournament(game, setup)
        self._write(TOURNAMENTS, LAST_TOURNAMENT_GAME, game, setup.as_json())

    def _section(self, key: str) -> dict[str, Any]:
        section = self._read().get(key)
        return section if isinstance(section, dict) else {}

    def _write(self, section: str, last: str, game: str, value: dict[str, Any]) -> None:
        """Set ``game``'s entry of ``section`` and ``last`` to ``game`` in the file, keeping the rest.

        The file is read again first, so another app on the same database keeps the set-ups
        it wrote for other games (and the other screen's); it is replaced whole, so a reader
        never sees half a file.
        """
        if self.path is None:
            return
        stored = self._read()
        entries = stored.get(section)
        entries = dict(entries) if isinstance(entries, dict) else {}
        entries[game] = value
        stored.update({section: entries, last: game})
        text = json.dumps(stored, indent=1, sort_keys=True)
        # A folder that cannot be written loses only the convenience: the match has started.
        with contextlib.suppress(OSError):
            self.path.parent.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=self.path.parent, prefix=self.path.name, suffix=".tmp")
            try:
                with os.fdopen(handle, "w", encoding="utf-8") as out:
                    out.write(text + "\n")
                os.replace(temporary, self.path)
            finally:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(temporary)

    def _read(self) -> dict[str, Any]:
        if self.path is None:
            return {}
        try:
            value = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):  # none yet, or not readable: start from the defaults
            return {}
        return value if isinstance(value, dict) else {}
