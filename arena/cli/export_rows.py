"""``arena export`` of many episodes: rows as JSON Lines, CSV or Parquet, streamed.

Episodes are read and written one at a time (oldest first); a line on stderr tells how far a
long export has gone, and one line at the end says what was written where.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

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
    )
    ids = bulk_export.episode_ids(store, selection)
    columns = bulk_export.columns(rows_kind, observations)
    target = Path(args.output) if args.output else None
    if target is not None and not target.parent.is_dir():
        raise UsageError(f"no folder {plain_text(str(target.parent))} for --output")
    if fmt == "parquet":
        export_formats._pyarrow()  # say it is missing before anything is written
    to_terminal = target is None and sys.stdout.isatty()
    # Text for a terminal shows no control or bidi characters; JSON escapes them losslessly.
    escape: Callable[[str], str] | None = escape_invisible if fmt == "jsonl" else None
    if fmt == "csv" and to_terminal:
        escape = _terminal_safe
    started = time.monotonic()
    written = _write(store, ids, rows_kind, observations, fmt, columns, target, escape)
    where = plain_text(str(target)) if target else "stdout"
    episodes = f"{len(ids):,} episode{'' if len(ids) == 1 else 's'}"
    sys.stderr.write(
        f"arena: wrote {written:,} {rows_kind[:-1]} rows of {episodes} to {where}"
        f" ({fmt}, schema {bulk_export.SCHEMA_VERSION}, {time.monotonic() - started:.1f} s)\n"
    )
    return 0


def _terminal_safe(text: str) -> str:
    return plain_text(text, keep_newlines=True)


def _write(
    store: Any,
    ids: list[int],
    rows_kind: Any,
    observations: Any,
    fmt: str,
    columns: Any,
    target: Path | None,
    escape: Callable[[str], str] | None,
) -> int:
    from arena.engine import bulk_export, export_formats

    # A file is written beside its name and renamed into place: a failed export leaves no half file.
    partial = target.with_name(f".{target.name}.partial-{os.getpid()}") if target else None
    stream: IO[str] | None = None
    writer: export_formats.RowWriter
    try:
        if fmt == "parquet":
            assert partial is not None
            writer = export_formats.ParquetWriter(partial, columns)
        else:
            stream = partial.open("w", newline="", encoding="utf-8") if partial else sys.stdout
            maker = export_formats.CsvWriter if fmt == "csv" else export_formats.JsonLinesWriter
            writer = maker(stream, columns, escape)
        written, last = 0, time.monotonic()
        for done, (_episode_id, rows) in enumerate(
            bulk_export.rows_of(store, ids, rows_kind, observations), 1
        ):
            writer.write(rows)
            written += len(rows)
            if time.monotonic() - last >= PROGRESS_SECONDS:
                last = time.monotonic()
                sys.stderr.write(f"arena: exported {done:,}/{len(ids):,} episodes ({written:,} rows)\n")
        writer.close()
        if stream is not None and stream is not sys.stdout:
            stream.close()
        if partial is not None and target is not None:
            partial.replace(target)
        return written
    except BaseException:
        if stream is not None and stream is not sys.stdout:
            stream.close()
        if partial is not None:
            partial.unlink(missing_ok=True)
        raise
