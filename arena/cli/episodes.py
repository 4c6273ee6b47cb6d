"""``arena episodes`` and ``arena export``: the saved episodes, listed or written as JSON.

Both only read: a missing database folder is an error, never created.
"""

from __future__ import annotations

import argparse

from arena.cli.args import UsageError, episode_id_arg, open_store
from arena.cli.json_output import print_json
from arena.display.names import seat_cells
from arena.display.sanitize import plain_text
from arena.engine.user_input import INT64_MAX
from arena.store.database import SCORES_HIDDEN


def cmd_episodes(args: argparse.Namespace) -> int:
    """``arena episodes``: recent episodes, newest first."""
    if args.limit < 1:
        raise UsageError(f"--limit must be at least 1, got {args.limit}")
    store = open_store(args, write=False)
    try:
        rows = store.list_episodes(
            game=args.game, status=args.status, player=args.player, limit=min(args.limit, INT64_MAX)
        )
        # --json keeps the full ids; the table shows short names (a model's alias or file name).
        players = {} if args.json else seat_cells(store.seat_players([row["id"] for row in rows]))
    finally:
        store.close()
    if args.json:
        return print_json(rows)
    if not rows:
        print(_nothing_found(args))
        return 0
    print("id\tgame\tseed\tstatus\tturns\tstarted\tplayers\tscores")
    for row in rows:
        print(
            f"{row['id']}\t{row['game']}\t{shown_seed(row['seed'])}\t{row['status']}\t{row['turns']}\t"
            f"{row['started_at']}\t{plain_text(players.get(row['id'], ''))}\t{shown_scores(row)}"
        )
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    """``arena export ID``: the episode as JSON on stdout; any other form: rows (see ``export_rows``)."""
    from arena.cli.export_rows import export_rows_command, wants_rows
    from arena.engine.export import export_episode  # the games and the engine; a listing needs neither

    for episode_id in args.episode_id:
        episode_id_arg(episode_id)
    store = open_store(args, write=False)
    if wants_rows(args):
        try:
            return export_rows_command(args, store)
        finally:
            store.close()
    try:
        document = export_episode(store, args.episode_id[0])
    finally:
        store.close()
    return print_json(document)


def shown_seed(seed: int | None) -> str:
    """The seed as listed: ``secret`` until a person's episode ends (``null`` in ``--json``)."""
    return "secret" if seed is None else str(seed)


def shown_scores(row: dict[str, object]) -> str:
    """The scores as listed: hidden while a person's episode has not ended (its seed is secret)."""
    if row["seed"] is None:
        return SCORES_HIDDEN
    return str(row["scores"] or "")


def _nothing_found(args: argparse.Namespace) -> str:
    """Why the listing is empty: no episode at all, or none that the filters let through."""
    filters = [
        f"--{name} {plain_text(value)}"
        for name in ("game", "status", "player")
        if (value := getattr(args, name))
    ]
    if filters:
        return f"no episodes match {' '.join(filters)} (see: arena episodes, without filters)"
    return "no episodes yet; try: arena play lemonade --seat a=baseline:weather --seat b=baseline:cost-plus"
