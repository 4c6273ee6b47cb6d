"""A person playing ``arena play bargain`` at the console in a child process, mid-episode.

The episode is really running in a real SQLite database, waiting for the person's first
move, while a test looks at it from other processes (the CLI, the app) as another browser
tab would; ``finish`` types the person's moves and waits for the episode's end.
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from arena.store.database import Store
from tests.support.processes import OUR_ENV

OFFER_TURN = ("offer", "150", "firm", "my own plan")
"""One seller turn at the console: above any buyer's value, so no deal and four turns in all."""
GIVE_UP_SECONDS = 600.0


@dataclass
class PersonAtConsole:
    """The child process and its episode."""

    process: subprocess.Popen[str]
    episode_id: int
    seed: int
    """The stored seed (read straight from the table, as no listing shows it yet)."""

    def finish(self) -> None:
        """Type the person's other offers (lines to spare); the episode ends without a deal."""
        _, err = self.process.communicate("".join(f"{line}\n" for line in OFFER_TURN * 4), timeout=None)
        assert self.process.returncode == 0, err


def _running(db: Path) -> tuple[int, int] | None:
    store = Store(db)
    try:
        row = store.conn.execute(
            "SELECT e.id, e.seed FROM episodes e JOIN turns t ON t.episode_id = e.id"
            " WHERE e.status = 'running' LIMIT 1"
        ).fetchone()
    finally:
        store.close()
    return (int(row[0]), int(row[1])) if row else None


@contextmanager
def person_playing(db: Path) -> Iterator[PersonAtConsole]:
    """A person as seller against ``baseline:honest`` on a secret seed, waiting for their second move.

    The seller moves first: its first offer is typed at once, so the episode has stored turns
    and the person's next move is due when this yields.
    """
    argv = [sys.executable, "-m", "arena.cli.main", "--db", str(db), "play", "bargain"]
    argv += ["--seat", "seller=human", "--seat", "buyer=baseline:honest"]
    process = subprocess.Popen(
        argv, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=OUR_ENV
    )
    try:
        assert process.stdin is not None
        process.stdin.write("".join(f"{line}\n" for line in OFFER_TURN))
        process.stdin.flush()
        give_up = time.monotonic() + GIVE_UP_SECONDS
        while (found := _running(db) if db.exists() else None) is None:
            assert process.poll() is None, process.stderr.read() if process.stderr else ""
            assert time.monotonic() < give_up, "gave up waiting for the person's episode"
            time.sleep(0.05)
        yield PersonAtConsole(process, *found)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
