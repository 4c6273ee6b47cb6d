"""Arena's recorded episodes/s against plain sqlite3 writing the same rows, a commit per step.

Usage: python bench/sqlite_reference.py [--episodes 2000]

The reference takes the rows Arena itself wrote for one weather-vs-cost-plus lemonade
episode (episode, seats, player configurations, 60 compact turn rows, final update) and
writes them ``--episodes`` times with plain ``sqlite3``, the same schema and pragmas (WAL,
synchronous=NORMAL), one commit to create the episode, one per step (two turn rows), one to
finish it: what committing every step as it happens costs SQLite alone. (Arena commits a
model's or a person's step at once, but groups a scripted episode's steps: see
``arena/store/database.py``.) Then Arena plays and records the same number of episodes
(``bench/lemonade_throughput.py``'s loop) in the same run, and the ratio is printed. With
``--rounds R`` the two alternate R times (each on a fresh file) and the best of each side
is compared, which keeps a busy machine's noise from favouring either. Arena's CPU time per
episode is printed too (it records in the playing process).
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.engine.match import MatchConfig, play_match
from arena.store.database import Store

SEATS = {"a": "baseline:weather", "b": "baseline:cost-plus"}


def sample(folder: Path) -> tuple[list[str], dict[str, list[tuple[Any, ...]]]]:
    """Schema and the rows Arena wrote for one episode."""
    store = Store(folder / "sample.db")
    asyncio.run(play_match(MatchConfig("lemonade", SEATS, seed=1), store))
    conn = store.conn
    schema = [
        sql
        for (sql,) in conn.execute("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid")
        if not sql.startswith("CREATE TABLE sqlite_")
    ]
    rows = {
        table: conn.execute(f"SELECT * FROM {table}").fetchall()
        for table in ("episodes", "seats", "turns", "player_configs")
    }
    store.close()
    return schema, rows


def reference(db: Path, schema: list[str], rows: dict[str, list[tuple[Any, ...]]], episodes: int) -> float:
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute("PRAGMA foreign_keys=ON")
    for sql in schema:
        conn.execute(sql)

    def insert(table: str) -> str:
        return f"INSERT INTO {table} VALUES ({','.join('?' * len(rows[table][0]))})"

    episode_sql, seat_sql, turn_sql = insert("episodes"), insert("seats"), insert("turns")
    config_sql = insert("player_configs").replace("INSERT", "INSERT OR IGNORE")
    episode, seats, turns = rows["episodes"][0], rows["seats"], rows["turns"]
    steps = [turns[i : i + 2] for i in range(0, len(turns), 2)]
    started = time.perf_counter()
    for number in range(1, episodes + 1):
        conn.execute("BEGIN")
        conn.executemany(config_sql, rows["player_configs"])
        conn.execute(episode_sql, (number, *episode[1:]))
        conn.executemany(seat_sql, [(number, *seat[1:]) for seat in seats])
        conn.execute("COMMIT")
        for step in steps:
            conn.execute("BEGIN")
            conn.executemany(turn_sql, [(number, *turn[1:]) for turn in step])
            conn.execute("COMMIT")
        conn.execute("BEGIN")
        conn.execute(
            "UPDATE episodes SET status='finished', finished_at=?, turns=? WHERE id=?", ("x", 60, number)
        )
        conn.executemany(
            "UPDATE seats SET score=?, metrics=? WHERE episode_id=? AND seat=?",
            [(seat[4], seat[5], number, seat[1]) for seat in seats],
        )
        conn.execute("COMMIT")
    elapsed = time.perf_counter() - started
    conn.close()
    return episodes / elapsed


async def arena(db: Path, episodes: int) -> tuple[float, float]:
    """Episodes/s, and CPU ms per episode of this process."""
    store = Store(db)
    started, cpu = time.perf_counter(), time.process_time()
    for index in range(1, episodes + 1):
        outcome = await play_match(MatchConfig("lemonade", SEATS, seed=index), store)
        assert outcome.status == "finished"
    store.flush()
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
    store.close()
    return episodes / elapsed, cpu / episodes * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--episodes", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    plain, ours, cpu = 0.0, 0.0, 0.0
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        schema, rows = sample(folder)
        for number in range(args.rounds):
            plain = max(plain, reference(folder / f"reference{number}.db", schema, rows, args.episodes))
            rate, spent = asyncio.run(arena(folder / f"arena{number}.db", args.episodes))
            if rate > ours:
                ours, cpu = rate, spent
    best = f", best of {args.rounds} rounds" if args.rounds > 1 else ""
    label = f"plain sqlite3, same rows, a commit per step: {args.episodes} episodes"
    print(f"{label}: {plain:.0f} episodes/s{best}")
    print(f"arena: {args.episodes} recorded episodes: {ours:.0f} episodes/s{best}")
    print(f"arena CPU per episode: {cpu:.2f} ms")
    print(f"ratio arena / reference: {ours / plain:.2f}")


if __name__ == "__main__":
    main()
