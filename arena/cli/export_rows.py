"""``arena export`` of many episodes: rows as JSON Lines, CSV or Parquet, streamed.

Episodes are read and written one at a time (oldest first); a line on stderr tells how far a
long export has gone, and one line at the end says what was written where.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from arena.cli.args import UsageError
from arena.display.sanitize import plain_text

PROGRESS_SECONDS = 2.0
"""How often a long export says how far it is."""


def wants_rows(args: argparse.Namespace) -> bool:
    """Whether ``arena export`` was asked for rows rather than one episode's JSON document."""
    flags = ("tournament", "game", "status", "player", "limit", "format", "rows", "observations", "output")
    return len(args.episode_id) != 1 or any(getattr(args, name) is not None for name in flags)


def export_rows_command(args: argparse.Namespace, store: Any) -> int:
    """Write the selected episodes' rows; returns the exit code."""
    from arena.cli.json_output import escape_invisible
    from arena.engine import bulk_export, export_formats

    if args.limit is not None and args.limit < 1:
        raise UsageError(f"--limit must be at least 1, got {args.limit}")
    try:
        fmt = export_formats.format_for(args.output, args.format)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    rows_kind: bulk_export.Rows = args.rows or "turns"
    observations: bulk_export.Observations = args.observations or "none"
    if rows_kind == "seats" and observations != "none":
        raise UsageError("--observations goes with --rows turns (seat rows hold no observations)")
    if fmt == "parquet" and not args.output:
        raise UsageError("Parquet is a binary file: give --output FILE.parquet")
    selection = bulk_export.Selection(
        ids=tuple(args.episode_id),
        tournament=args.tournament,
        game=args.game,
        status=args.status,
        player=args.player,
        limit=args.limit,
        thinking=args.thinking,
    )
    ids, secret = bulk_export.select_episodes(store, selection)
    if secret:
        sys.stderr.write(
            f"arena: left out {secret} episode{'s' if secret > 1 else ''} a person may still play"
            " (a deal stays secret until its episode ends)\n"
        )
    target = Path(args.output) if args.output else None
    if target is not None and not target.parent.is_dir():
        raise UsageError(f"no folder {plain_text(str(target.parent))} for --output")
    if fmt == "parquet":
        export_formats.require_pyarrow()  # say it is missing before anything is written
    to_terminal = target is None and sys.stdout.isatty()
    # Text for a terminal shows no control or bidi characters; JSON escapes them losslessly.
    escape: Callable[[str], str] | None = escape_invisible if fmt == "jsonl" else None
    if fmt == "csv" and to_terminal:
        escape = _terminal_safe
    started = time.monotonic()
    written = export_formats.write_export(
        store, ids, rows_kind, observations, fmt, target, escape=escape, progress=_progress()
    )
    where = plain_text(str(target)) if target else "stdout"
    episodes = f"{len(ids):,} episode{'' if len(ids) == 1 else 's'}"
    sys.stderr.write(
        f"arena: wrote {written:,} {rows_kind[:-1]} rows of {episodes} to {where}"
        f" ({fmt}, schema {bulk_export.SCHEMA_VERSION}, {time.monotonic() - started:.1f} s)\n"
    )
    return 0


def _progress() -> Callable[[int, int, int], None]:
    """A callback that says how far the export is on stderr, every :data:`PROGRESS_SECONDS`."""
    last = time.monotonic()

    def report(done: int, total: int, rows: int) -> None:
        nonlocal last
        if time.monotonic() - last >= PROGRESS_SECONDS:
            last = time.monotonic()
            sys.stderr.write(f"arena: exported {done:,}/{total:,} episodes ({rows:,} rows)\n")

    return report


def _terminal_safe(text: str) -> str:
    return plain_text(text, keep_newlines=True)
