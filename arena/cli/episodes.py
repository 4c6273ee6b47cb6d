"""``arena episodes`` and ``arena export``: the saved episodes, listed or written as JSON.

Both only read: a missing database folder is an error, never created.
"""

from __future__ import annotations

import argparse
import json
import sys

from arena.cli.args import UsageError, episode_id_arg, open_store
from arena.display.sanitize import INVISIBLE
from arena.engine.user_input import INT64_MAX


def cmd_episodes(args: argparse.Namespace) -> int:
    """``arena episodes``: recent episodes, newest first."""
    if args.limit < 1:
        raise UsageError(f"--limit must be at least 1, got {args.limit}")
    store = open_store(args, write=False)
    try:
        rows = store.list_episodes(
            game=args.game, status=args.status, player=args.player, limit=min(args.limit, INT64_MAX)
        )
    finally:
        store.close()
    if not rows:
        print(
            "no episodes yet; try: arena play lemonade --seat a=baseline:weather --seat b=baseline:cost-plus"
        )
        return 0
    print("id\tgame\tseed\tstatus\tturns\tstarted\tplayers\tscores")
    for row in rows:
        print(
            f"{row['id']}\t{row['game']}\t{row['seed']}\t{row['status']}\t{row['turns']}\t"
            f"{row['started_at']}\t{row['players'] or ''}\t{row['scores'] or ''}"
        )
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    """``arena export ID``: the episode as JSON on stdout."""
    from arena.engine.export import export_episode  # the games and the engine; a listing needs neither

    store = open_store(args, write=False)
    try:
        document = export_episode(store, episode_id_arg(args.episode_id))
    finally:
        store.close()
    sys.stdout.write(escape_invisible(json.dumps(document, ensure_ascii=False, indent=1)))
    sys.stdout.write("\n")
    return 0


def escape_invisible(text: str) -> str:
    """JSON text with bidi overrides and invisible characters written as ``\\uXXXX`` escapes.

    JSON already escapes control characters such as ESC; these would otherwise reach a
    terminal raw and reorder or hide what it shows. The escaped JSON decodes the same.
    """
    return text.translate(_ESCAPES)


_ESCAPES = {ord(char): f"\\u{ord(char):04x}" for char in INVISIBLE}
