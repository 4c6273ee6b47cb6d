"""A person's deal seed stays hidden from every listing and export until the episode ends.

A person in one browser tab (or terminal) must not read the seed, and with it the other
side's private numbers, from ``arena episodes`` in another. Each surface is run as its own
process against a real database in which a person's episode is really running.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.support.person_at_console import person_playing
from tests.support.processes import OUR_ENV


def arena(db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``arena --db DB ARGS`` in a child process."""
    command = [sys.executable, "-m", "arena.cli.main", "--db", str(db), *args]
    return subprocess.run(command, capture_output=True, text=True, env=OUR_ENV, check=False)


def listed_seed(db: Path, episode_id: int) -> str:
    """The seed column of ``arena episodes`` for ``episode_id``."""
    lines = arena(db, "episodes").stdout.splitlines()
    header = lines[0].split("\t")
    row = next(line.split("\t") for line in lines[1:] if line.split("\t")[0] == str(episode_id))
    return row[header.index("seed")]


def test_a_running_person_s_seed_is_hidden_everywhere_and_shown_once_it_ends(db_path: Path) -> None:
    with person_playing(db_path) as person:
        episode, seed = person.episode_id, str(person.seed)
        assert listed_seed(db_path, episode) == "secret"
        listing = arena(db_path, "episodes", "--json")
        assert json.loads(listing.stdout)[0]["seed"] is None and seed not in listing.stdout
        export = arena(db_path, "export", str(episode))
        assert export.returncode == 1 and seed not in export.stdout + export.stderr
        assert f"episode {episode} has a person's seat and has not ended (running)" in export.stderr
        rows = arena(db_path, "export", str(episode), "--output", str(db_path.parent / "e.jsonl"))
        assert rows.returncode == 1 and "has a person's seat and has not ended" in rows.stderr
        every = arena(db_path, "export", "--game", "bargain", "--output", str(db_path.parent / "all.jsonl"))
        assert every.returncode == 1 and "has a person's seat and has not ended" in every.stderr, (
            "left out while it runs"
        )
        compare = arena(db_path, "compare", str(episode), str(episode))
        assert compare.returncode == 1 and seed not in compare.stdout + compare.stderr
        person.finish()
    assert listed_seed(db_path, episode) == seed
    assert json.loads(arena(db_path, "episodes", "--json").stdout)[0]["seed"] == person.seed
    assert json.loads(arena(db_path, "export", str(episode)).stdout)["episode"]["seed"] == person.seed


def test_machines_alone_show_their_seed_while_they_run(db_path: Path) -> None:
    from arena.store.database import Store

    store = Store(db_path)
    try:
        store.create_episode(
            game="bargain",
            game_version="1",
            prompt_version="1",
            arena_version="0",
            seed=42,
            options={},
            seats=[("seller", "baseline:honest", "baseline"), ("buyer", "baseline:bluffing", "baseline")],
        )
    finally:
        store.close()
    assert listed_seed(db_path, 1) == "42"
