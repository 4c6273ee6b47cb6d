"""The Textual front end of Arena.

``run_app`` is what the ``arena`` command calls; ``create_app`` builds the app for tests
and benchmarks. Textual is imported only when one of them is called, so importing this
package stays cheap for the headless CLI.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from arena.app.app import ArenaApp
    from arena.app.live import PlayerFactory
    from arena.app.table_worker import TableWorker

__all__ = ["create_app", "run_app"]


def create_app(
    db_path: Path,
    *,
    replay: int | None = None,
    open_replay: bool = False,
    extra_players: Mapping[str, PlayerFactory] | None = None,
    step_delay: float = 0.25,
    load_models: bool = True,
    freeze_gc: bool = False,
    tables: TableWorker | None = None,
) -> ArenaApp:
    """Build the app over ``db_path``; ``extra_players`` adds app-supplied seat choices.

    ``freeze_gc`` (what :func:`run_app` uses) keeps the objects alive at start-up out of
    the garbage collector's full passes; leave it off when many apps share a process.
    ``tables`` computes the tournament tables (a :class:`~arena.app.table_worker.TableWorker`
    with its own functions, e.g. a test holding a computation); by default the real ones.
    """
    from arena.app.app import create_app as build

    return build(
        db_path,
        replay=replay,
        open_replay=open_replay,
        extra_players=extra_players,
        step_delay=step_delay,
        load_models=load_models,
        freeze_gc=freeze_gc,
        tables=tables,
    )


def run_app(db_path: Path, *, replay: int | None = None, open_replay: bool = False) -> int:
    """Run the app until the user quits; returns the exit status.

    ``open_replay`` opens the replay screen directly: episode ``replay`` if given, else
    the list of saved episodes. A database that cannot be opened is one line on stderr.
    """
    from arena.display.sanitize import plain_text
    from arena.store.database import StoreError
    from arena.store.integrity import DamagedDatabase

    try:
        app = create_app(db_path, replay=replay, open_replay=open_replay, freeze_gc=True)
        try:  # its lists and tables read the whole file: a damaged one is said here, not half shown
            app.store.check_integrity()
        except DamagedDatabase:
            app.store.close()
            raise
    except (StoreError, DamagedDatabase) as exc:
        print(f"arena: error: {plain_text(str(exc))}", file=sys.stderr)
        return 1
    result = app.run()
    # Once the app's screen is gone, the one line every command that writes leaves behind.
    print(closing_line(db_path), file=sys.stderr)
    if app.close_error:
        print(f"arena: error: {app.close_error}", file=sys.stderr)
        return 1
    return app.return_code if app.return_code is not None else (result or 0)


def closing_line(db_path: Path) -> str:
    """``arena: database PATH``, the app's last line: the path's escape codes shown, not run."""
    from arena.display.sanitize import plain_text

    return f"arena: database {plain_text(str(db_path.absolute()))}"
