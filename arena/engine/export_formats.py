"""Writing export rows as JSON Lines, CSV or Parquet, and reading them back.

Each writer takes rows (dicts keyed by :class:`arena.engine.bulk_export.Column` names) a batch
at a time and keeps at most one batch: exports stream. The encodings, which the readers undo:

- JSON Lines: one JSON object per line, every column present, ``json`` columns nested.
- CSV: a header line of the column names; ``json`` columns as JSON text, booleans ``true`` /
  ``false``, null as an empty cell (a column that cannot be null reads an empty cell as ``""``).
  A CSV file is read in spreadsheets, so its text is inert there (:func:`spreadsheet_text`): a
  ``str`` cell that a spreadsheet would take for a formula (it begins with ``=``, ``+``, ``-``,
  ``@``, a tab or a carriage return, after any quotes) gets a leading ``'`` (OWASP's CSV
  injection rule), which the reader removes; control and bidi characters in ``str`` and ``json``
  cells are written as visible ``<U+202E>`` escapes (the reader keeps those: JSON Lines
  and Parquet keep the text exact).
- Parquet (optional extra ``parquet``, pyarrow): typed columns (int64, float64, bool, string),
  ``json`` columns as JSON text, one row group per batch written.
"""

from __future__ import annotations

import csv
import io
import os
import re
import sys
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO, Any, Literal, Protocol

import orjson

from arena.engine import bulk_export
from arena.engine.bulk_export import Column
from arena.store.database import Store
from arena.store.files import partial_path

Format = Literal["jsonl", "csv", "parquet"]
FORMATS: tuple[Format, ...] = ("jsonl", "csv", "parquet")
SUFFIXES: dict[str, Format] = {".jsonl": "jsonl", ".ndjson": "jsonl", ".csv": "csv", ".parquet": "parquet"}
PARQUET_BATCH = 5_000
"""Rows per Parquet row group (rows are held until a group is full)."""


class ParquetUnavailable(RuntimeError):
    """pyarrow is not installed."""


PARQUET_HINT = "Parquet needs pyarrow: pip install 'arena[parquet]' (or pip install pyarrow)"


class RowWriter(Protocol):
    """Writes rows of fixed columns; :meth:`close` finishes the file."""

    def write(self, rows: list[dict[str, Any]]) -> None:
        """Write these rows."""

    def close(self) -> None:
        """Finish (flush what is held, write a footer)."""


def _json_text(value: Any) -> str:
    return orjson.dumps(value, default=str).decode()


class JsonLinesWriter:
    """One JSON object per row; ``escape`` rewrites the text (e.g. invisible characters as escapes)."""

    def __init__(
        self, out: IO[str], columns: tuple[Column, ...], escape: Callable[[str], str] | None = None
    ) -> None:
        self.out, self.names, self.escape = out, [c.name for c in columns], escape

    def write(self, rows: list[dict[str, Any]]) -> None:
        """Write these rows."""
        names, escape = self.names, self.escape
        lines = [_json_text({name: row[name] for name in names}) for row in rows]
        text = "\n".join(lines) + "\n" if lines else ""
        self.out.write(escape(text) if escape else text)

    def close(self) -> None:
        """Flush."""
        self.out.flush()


FORMULA_START = re.compile(r"^'*[=+\-@\t\r]")
"""A cell a spreadsheet would run as a formula (or one that already starts with our quote)."""
_SHOWN_AS_ESCAPES = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u00ad\u0600-\u0605\u061c\u06dd\u070f\u180e\u200b-\u200f"
    "\u202a-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb\ud800-\uf8ff\U000e0000-\U000e007f]"
)
"""Characters that may be control, format (bidi, zero-width) or private ones: checked one by one."""


def spreadsheet_text(text: str, *, formula: bool = True) -> str:
    """``text`` as a CSV cell shows it inertly: control, bidi and other invisible format characters
    as visible ``<U+XXXX>`` escapes (newlines and tabs kept), and, with ``formula``,
    a leading ``'`` before what a spreadsheet would take for a formula."""
    if _SHOWN_AS_ESCAPES.search(text):
        text = "".join(_visible(char) for char in text)
    if formula and FORMULA_START.match(text):
        return "'" + text
    return text


def _visible(char: str) -> str:
    if char in "\n\t" or unicodedata.category(char) not in ("Cc", "Cf", "Cs", "Co"):
        return char
    return f"<U+{ord(char):04X}>"


def from_spreadsheet_text(cell: str) -> str:
    """Undo :func:`spreadsheet_text`'s formula quote (the escapes stay)."""
    return cell[1:] if cell.startswith("'") and FORMULA_START.match(cell) else cell


class CsvWriter:
    """A header, then one line per row (see the module docstring for the cell encoding)."""

    def __init__(
        self, out: IO[str], columns: tuple[Column, ...], escape: Callable[[str], str] | None = None
    ) -> None:
        self.out, self.columns, self.escape = out, columns, escape
        self._buffer = io.StringIO()
        self._csv = csv.writer(self._buffer, lineterminator="\n")
        self._csv.writerow([c.name for c in columns])
        self._drain()

    def _drain(self) -> None:
        text = self._buffer.getvalue()
        self._buffer.seek(0)
        self._buffer.truncate()
        self.out.write(self.escape(text) if self.escape else text)

    def write(self, rows: list[dict[str, Any]]) -> None:
        """Write these rows."""
        encoders = [(c.name, _CSV_ENCODERS[c.kind]) for c in self.columns]
        self._csv.writerows(
            [[None if row[n] is None else enc(row[n]) for n, enc in encoders] for row in rows]
        )
        self._drain()

    def close(self) -> None:
        """Flush."""
        self.out.flush()


_CSV_ENCODERS: dict[str, Callable[[Any], Any]] = {
    "int": int,
    "float": float,
    "bool": lambda value: "true" if value else "false",
    "str": lambda value: spreadsheet_text(str(value)),
    "json": lambda value: spreadsheet_text(_json_text(value), formula=False),
}


def require_pyarrow() -> Any:
    """The pyarrow module (its parquet module loaded); :class:`ParquetUnavailable` if not installed."""
    try:
        import pyarrow  # type: ignore[import-untyped]
        import pyarrow.parquet  # type: ignore[import-untyped]
    except ImportError:
        raise ParquetUnavailable(PARQUET_HINT) from None
    return pyarrow


class ParquetWriter:
    """Typed columns, one row group per :data:`PARQUET_BATCH` rows."""

    def __init__(self, path: Path, columns: tuple[Column, ...]) -> None:
        pa = require_pyarrow()
        self.pa, self.columns = pa, columns
        types = {
            "int": pa.int64(),
            "float": pa.float64(),
            "bool": pa.bool_(),
            "str": pa.string(),
            "json": pa.string(),
        }
        self.schema = pa.schema([pa.field(c.name, types[c.kind], nullable=c.nullable) for c in columns])
        self._writer = pa.parquet.ParquetWriter(str(path), self.schema)
        self._held: list[dict[str, Any]] = []

    def write(self, rows: list[dict[str, Any]]) -> None:
        """Hold these rows; a full batch is written as a row group."""
        self._held.extend(rows)
        if len(self._held) >= PARQUET_BATCH:
            self._flush()

    def _flush(self) -> None:
        if not self._held:
            return
        arrays = {}
        for column in self.columns:
            values = [row[column.name] for row in self._held]
            if column.kind == "json":
                values = [None if value is None else _json_text(value) for value in values]
            arrays[column.name] = values
        self._writer.write_table(self.pa.table(arrays, schema=self.schema))
        self._held = []

    def close(self) -> None:
        """Write what is held and the file's footer."""
        try:
            self._flush()
        finally:
            self._writer.close()


def format_for(path: str | None, given: str | None) -> Format:
    """The format asked for, else the one the output file's suffix names (default JSON Lines)."""
    if given:
        if given not in FORMATS:
            raise ValueError(f"unknown format {given!r}: use one of {', '.join(FORMATS)}")
        return given
    if path:
        suffix = Path(path).suffix.lower()
        if suffix in SUFFIXES:
            return SUFFIXES[suffix]
        raise ValueError(f"cannot tell the format from {path!r}: give --format {'|'.join(FORMATS)}")
    return "jsonl"


def write_export(
    store: Store,
    ids: list[int],
    rows: bulk_export.Rows,
    observations: bulk_export.Observations,
    fmt: Format,
    target: Path | None,
    *,
    escape: Callable[[str], str] | None = None,
    progress: Callable[[int, int, int], None] | None = None,
) -> int:
    """Write the rows of episodes ``ids`` to ``target`` (``None``: stdout, not for Parquet); returns
    the number of rows.

    A file is written beside its name and renamed into place when complete: a failed export
    leaves no half file. ``progress(episodes done, episodes, rows written)`` is called after
    every episode.
    """
    columns = bulk_export.columns(rows, observations)
    partial = partial_path(target) if target else None
    stream: IO[str] | None = None
    writer: RowWriter
    try:
        if fmt == "parquet":
            if partial is None:
                raise ValueError("Parquet is a binary file: it needs a file to write to")
            writer = ParquetWriter(partial, columns)
        else:
            stream = partial.open("w", newline="", encoding="utf-8") if partial else sys.stdout
            writer = (CsvWriter if fmt == "csv" else JsonLinesWriter)(stream, columns, escape)
        written = 0
        for done, (_episode_id, batch) in enumerate(bulk_export.rows_of(store, ids, rows, observations), 1):
            writer.write(batch)
            written += len(batch)
            if progress is not None:
                progress(done, len(ids), written)
        writer.close()
        if partial is not None and target is not None:
            if stream is not None:
                stream.flush()
                os.fsync(stream.fileno())  # on disk before the rename: a crash leaves old or new
                stream.close()
            partial.replace(target)
        return written
    except BaseException:
        if stream is not None and stream is not sys.stdout:
            stream.close()
        if partial is not None:
            partial.unlink(missing_ok=True)
        raise


# -- reading back ---------------------------------------------------------------------------
def read_rows(path: Path, fmt: Format, columns: tuple[Column, ...]) -> Iterator[dict[str, Any]]:
    """The rows a writer wrote to ``path``, decoded to the values it was given."""
    if fmt == "jsonl":
        with path.open("rb") as lines:
            for line in lines:
                if line.strip():
                    yield orjson.loads(line)
    elif fmt == "csv":
        with path.open(newline="") as cells:
            yield from read_csv(cells, columns)
    else:
        table = require_pyarrow().parquet.read_table(str(path))
        json_names = {c.name for c in columns if c.kind == "json"}
        for row in table.to_pylist():
            yield {k: (orjson.loads(v) if k in json_names and v is not None else v) for k, v in row.items()}


def read_csv(cells: Iterable[str], columns: tuple[Column, ...]) -> Iterator[dict[str, Any]]:
    """Rows of an exported CSV file, each cell decoded by its column's type."""
    reader = csv.reader(cells)
    header = next(reader)
    known = {c.name: c for c in columns}
    if header != [c.name for c in columns]:
        raise ValueError(f"not an export with these columns: header {header[:5]}...")
    decoders = [(name, known[name], _CSV_DECODERS[known[name].kind]) for name in header]
    for line in reader:
        row = {}
        for (name, column, decode), cell in zip(decoders, line, strict=True):
            if cell == "":
                row[name] = None if column.nullable else ("" if column.kind == "str" else decode(cell))
            else:
                row[name] = decode(cell)
        yield row


_CSV_DECODERS: dict[str, Callable[[str], Any]] = {
    "int": int,
    "float": float,
    "bool": lambda cell: cell == "true",
    "str": from_spreadsheet_text,
    "json": orjson.loads,
}
