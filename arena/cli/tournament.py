"""``arena tournament run|resume|table|report``, ``arena tournaments`` and ``arena leaderboard``: the headless
tournament front end.

Progress goes to stderr as a Rich bar (done/total, rate, ETA, spend); tables go to stdout.
Player specs are untrusted text and pass through :func:`arena.display.sanitize.plain_text`. The flags
are declared with the rest of the parser in :mod:`arena.cli.args`, which imports none of this.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console, RenderableType
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeRemainingColumn

from arena.cli.args import UsageError, database_line
from arena.cli.json_output import print_json
from arena.cli.signals import run_woken
from arena.display.sanitize import plain_text
from arena.display.tables import render_leaderboard, render_table
from arena.plugins.players import short_names
from arena.store.database import Store
from arena.tournament.cluster import executor_for
from arena.tournament.config import TournamentConfig, build_config, load_config_file
from arena.tournament.leaderboard import leaderboard
from arena.tournament.run import (
    TournamentBusy,
    TournamentProgress,
    TournamentRun,
    busy_message,
    create_tournament,
    load_config,
)
from arena.tournament.standings import tournament_table

StoreOpener = Callable[[argparse.Namespace], Store]


def config_from_args(
    args: argparse.Namespace, pairs: Callable[[list[str], str], dict[str, str]]
) -> TournamentConfig:
    """The tournament the flags (and ``--file``) describe."""
    fields: dict[str, Any] = {
        "game": args.game,
        "players": tuple(args.player) or None,
        "seeds": args.seeds,
        "seed": args.seed,
        "name": args.name,
        "options": pairs(args.option, "--option") or None,
        "concurrency": args.concurrency,
        "budget_usd": args.budget_usd,
        "on_invalid": args.on_invalid,
        "cluster": args.cluster,
    }
    if args.episode_seed is not None:
        raise UsageError(
            "--seed is one episode's seed (arena play); a tournament draws its deals from --master-seed"
        )
    if args.file:
        return load_config_file(args.file, **fields)
    given = {key: value for key, value in fields.items() if value is not None}
    given.setdefault("seeds", 10)
    if "game" not in given:
        raise UsageError("name a game (arena tournament run GAME --player SPEC ...) or give --file")
    return build_config(**given)


def run_command(args: argparse.Namespace, store: Store, config: TournamentConfig, console: Console) -> int:
    """``arena tournament run``: create, print the id, play with a progress bar, print the table."""
    tournament_id = create_tournament(store, config)
    console.print(f"tournament {tournament_id}: {plain_text(config.display_name())}", markup=False)
    code = _play(store, tournament_id, console, config.cluster)
    if args.report:
        _write_report(store, tournament_id, Path(args.report), console)
    return code


def resume_command(args: argparse.Namespace, store: Store, console: Console) -> int:
    """``arena tournament resume ID [--cluster ray[=ADDRESS]]``: on the cluster named, else here."""
    return _play(store, args.tournament_id, console, args.cluster)


def _play(store: Store, tournament_id: int, console: Console, cluster: str | None = None) -> int:
    other = store.tournament_player(tournament_id)  # said before the bar (the run's claim decides)
    if other is not None:
        raise TournamentBusy(busy_message(tournament_id, other))
    err = Console(stderr=True)
    with Progress(
        TextColumn("[bold]episodes"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"),
        TimeRemainingColumn(),
        TextColumn("{task.fields[spend]}"),
        console=err,
        transient=True,
    ) as bar:
        task = bar.add_task("episodes", total=None, rate="", spend="")
        said = False
        told = 0

        def update(progress: TournamentProgress) -> None:
            nonlocal said, told
            if not said and progress.prepared_at is not None:  # the players are ready: it plays
                said = True
                err.print(database_line(store), markup=False, highlight=False, soft_wrap=True)
            for notice in progress.notices[told:]:  # each said once (a player whose server went away)
                err.print(plain_text(notice), markup=False, highlight=False, soft_wrap=True)
            told = len(progress.notices)
            _update_bar(bar, task, progress)

        config = load_config(store, tournament_id)
        executor = executor_for(cluster, config.concurrency)
        run = TournamentRun(store, tournament_id, progress=update, executor=executor)
        if not run.missing():
            console.print(f"tournament {tournament_id}: every slot is already played", markup=False)
        try:
            progress = run_woken(run.run())
        except KeyboardInterrupt:
            console.print()
            raise KeyboardInterrupt(
                f"tournament {tournament_id} saved as aborted; continue it with: arena tournament resume"
                f" {tournament_id}"
            ) from None
    console.print(render_table(tournament_table(store, tournament_id)))
    line = f"tournament {tournament_id} {progress.status}"
    if progress.message:
        line += f": {progress.message}"
    console.print(plain_text(line), markup=False)
    return 0 if progress.status == "finished" else 1


def _update_bar(bar: Progress, task: TaskID, progress: TournamentProgress) -> None:
    done = progress.done + progress.given_up
    rate = f"{progress.rate:.1f} ep/s" if progress.rate else ""
    spend = progress.spend_text() if progress.spend_usd or progress.unpriced_decisions else ""
    bar.update(task, completed=done, total=progress.total, rate=rate, spend=spend)


def table_command(args: argparse.Namespace, store: Store, console: Console) -> int:
    """``arena tournament table ID [--json]``."""
    return _show(tournament_table(store, args.tournament_id), args.json, render_table, console)


def leaderboard_command(args: argparse.Namespace, store: Store, console: Console) -> int:
    """``arena leaderboard ID ID ... [--json]``."""
    return _show(leaderboard(store, args.tournament_ids), args.json, render_leaderboard, console)


def _show(
    document: dict[str, Any],
    as_json: bool,
    render: Callable[[dict[str, Any]], RenderableType],
    console: Console,
) -> int:
    """Print ``document`` as JSON on stdout, or rendered for people; exit code 0."""
    if as_json:
        return print_json(document)
    console.print(render(document))
    return 0


def report_command(args: argparse.Namespace, store: Store, console: Console) -> int:
    """``arena tournament report ID --out DIR [--format report|reprobe]``."""
    from arena.tournament.report import write_reprobe

    if args.format == "reprobe":
        for path, scores in write_reprobe(store, args.tournament_id, Path(args.out)):
            fields = ", ".join(f"{name} {score:.1f}" for name, score in scores.items())
            console.print(f"wrote {path} (REPROBE 0.1; codebook: {fields})", markup=False, soft_wrap=True)
        return 0
    _write_report(store, args.tournament_id, Path(args.out), console)
    return 0


def _write_report(store: Store, tournament_id: int, folder: Path, console: Console) -> None:
    from arena.tournament.report import write_report

    paths = write_report(store, tournament_id, folder)
    for path in paths:
        console.print(f"wrote {path}", markup=False)
    if not any(path.suffix == ".svg" for path in paths):
        console.print(
            "charts not drawn: install the charts extra (pip install 'arena[charts]')", markup=False
        )


def list_command(args: argparse.Namespace, store: Store, console: Console) -> int:
    """``arena tournaments``."""
    rows = store.list_tournaments(limit=args.limit)
    if args.json:
        return print_json(rows)
    if not rows:
        print(
            "no tournaments yet; try: arena tournament run bargain --player baseline:honest "
            "--player baseline:bluffing --seeds 20"
        )
        return 0
    print("id\tname\tgame\tplayers\tdone/total\tstatus\tspend")
    lineups = [_players_of(row) for row in rows]
    names = short_names(player for players in lineups for player in players)  # --json: full ids
    for row, players in zip(rows, lineups, strict=True):
        config = row["config"] or {}
        total = config.get("total", "?")
        shown = " ".join(names[player] for player in players)
        print(
            f"{row['id']}\t{plain_text(row['name'])}\t{row['game']}\t{plain_text(shown)}\t"
            f"{row['finished']}/{total}\t{row['status']}\t${row['spend_usd']:.4f}"
        )
    return 0


def _players_of(row: dict[str, Any]) -> list[str]:
    """A stored tournament's players, in order (a suite's, made by the old ``arena suite``, by seat)."""
    players = (row["config"] or {}).get("players") or []
    if isinstance(players, dict):  # rows made by the old arena suite: seat -> player
        players = list(players.values())
    return [str(player) for player in players]
