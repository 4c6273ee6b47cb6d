"""The ``arena`` command: the Textual app with no arguments, headless commands otherwise.

Every user error (unknown game, seat or player, bad seed, unwritable database) ends in
one line on stderr and a non-zero exit, never a traceback.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.cli.args import UsageError, build_parser
from arena.cli.exit_codes import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_USAGE
from arena.display.sanitize import plain_text

if TYPE_CHECKING:
    from rich.console import Console

    from arena.engine.match import MatchConfig
    from arena.store.database import Store

# Each command imports what it needs when it runs: ``arena --help`` and the listings start
# without the games, the players, the store, numpy, pydantic models or Rich tables
# (tests/engine/test_import_hygiene.py checks what each command loads).

USER_ERRORS = (
    ("arena.store.database", "StoreError"),
    ("arena.store.integrity", "DamagedDatabase"),
    ("arena.contract.player", "PlayerSetupError"),
    ("arena.engine.export", "EpisodeNotFound"),
    ("arena.engine.export", "EpisodeSecret"),
    ("arena.engine.bulk_export", "NothingToExport"),
    ("arena.engine.export_formats", "ParquetUnavailable"),
    ("arena.engine.compare", "NotComparable"),
    ("arena.engine.resume", "NotResumable"),
    ("arena.tournament.cluster", "ClusterError"),
    ("arena.tournament.run", "TournamentBusy"),
    ("arena.cli.serve", "ServeError"),
    ("players.models.config", "ConfigError"),
)
"""Errors that stop a well-formed command from being done (one line, exit 1), by their modules."""
INPUT_ERRORS = (
    ("arena.plugins.players", "SpecError"),
    ("arena.plugins.games", "UnknownGameError"),
    ("arena.contract.options", "OptionError"),
    ("arena.tournament.config", "TournamentConfigError"),
)
"""Errors in what was asked, refused before anything is played or written (one line, exit 2)."""
READER_LEFT = (("builtins", "BrokenPipeError"), ("arena.contract.player", "UserLeft"))
"""The reader of our output left (``arena episodes | head``): exit 1 quietly."""

SUITE_IS_GONE = (
    "arena suite is gone: a suite was a tournament; run arena tournament run GAME --player SPEC"
    " --player SPEC --seeds N [--master-seed S] [--report DIR] (each --seat SEAT=SPEC becomes --player SPEC)"
)
PIPE_WIDTH = 160


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``arena`` console script.

    ``--debug`` (anywhere on the command line) or ``ARENA_DEBUG=1`` prints the traceback of an
    error before its one line.
    """
    given = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in given or os.environ.get("ARENA_DEBUG", "") not in ("", "0")
    return _main([a for a in given if a != "--debug"], debug)


def _main(argv: list[str], debug: bool) -> int:
    args: argparse.Namespace | None = None
    try:
        args = build_parser().parse_args(argv)
        models = getattr(args, "sub_models", None) or args.models
        if models:
            # Every front end and every player factory reads the models file from here.
            os.environ["ARENA_MODELS"] = models
        if args.command is None:
            return cmd_app(args)
        handler = COMMANDS[args.command]
        return handler(args)
    except UsageError as exc:
        return fail(SUITE_IS_GONE if "invalid choice: 'suite'" in str(exc) else str(exc), EXIT_USAGE)
    except KeyboardInterrupt as exc:
        # A command that knows how to continue says so (``arena tournament resume 3``).
        return fail(f"interrupted; {exc}" if str(exc) else "interrupted", EXIT_INTERRUPTED)
    except Exception as exc:
        if isinstance(exc, _loaded(READER_LEFT)):
            _silence_stdout()
            return EXIT_FAILED
        if debug:
            import traceback

            traceback.print_exception(exc, file=sys.stderr)
        if isinstance(exc, _loaded(INPUT_ERRORS)):
            return fail(str(exc), EXIT_USAGE)
        from arena.cli.failures import failure_line, with_hint
        from arena.plugins.blame import blame, bug_line

        if isinstance(exc, _loaded(USER_ERRORS)):
            return fail(with_hint(str(exc)), EXIT_FAILED)
        blamed = blame(exc)
        if blamed is not None:  # raised inside a game, a player kind or a provider: their bug
            return fail(
                "; ".join([bug_line(exc, blamed), *getattr(exc, "__notes__", ())]), EXIT_FAILED, "bug"
            )
        if isinstance(exc, ValueError):  # raised by Arena, e.g. a stored value that cannot be read
            return fail(with_hint(str(exc)), EXIT_FAILED)

        line = failure_line(exc, _database_named(args))
        if line is not None:  # a full disk, a read-only or damaged database: the machine, not a bug
            return fail(line, EXIT_FAILED)
        raise


def _database_named(args: argparse.Namespace | None) -> Path | None:
    """The database the command line names (for a message), or ``None`` before it was read."""
    if args is None:
        return None
    from arena.store.paths import database_path

    return database_path(getattr(args, "sub_db", None) or getattr(args, "db", None))


def _loaded(names: tuple[tuple[str, str], ...]) -> tuple[type[BaseException], ...]:
    """The classes ``names`` lists whose modules are loaded: an exception of a module never
    imported cannot have been raised, so nothing is imported to recognise it."""
    found = (getattr(sys.modules.get(module), name, None) for module, name in names)
    return tuple(cls for cls in found if isinstance(cls, type) and issubclass(cls, BaseException))


def _silence_stdout() -> None:
    from arena.cli.output import silence_stdout

    silence_stdout()


def fail(message: str, code: int = 1, label: str = "error") -> int:
    """Print ``arena: LABEL: MESSAGE`` as one line on stderr and return ``code``."""
    from arena.contract.playerconfig import mask_urls

    one_line = " ".join(plain_text(mask_urls(message)).split())
    sys.stderr.write(f"arena: {label}: {one_line}\n")
    return code


def stdout_console() -> Console:
    """A console for results: terminal width on a terminal, wide enough for tables in a pipe."""
    from arena.cli.output import StdoutConsole

    return StdoutConsole(highlight=False, width=None if sys.stdout.isatty() else PIPE_WIDTH)


def cmd_play(args: argparse.Namespace) -> int:
    """``arena play GAME --seat a=SPEC ...``"""
    from arena.cli.args import open_store, parse_pairs, parse_seed_flag, seats_for
    from arena.engine.match import MatchConfig
    from arena.engine.run_control import Budget
    from arena.engine.user_input import budget_problem
    from arena.plugins.games import get_game

    definition = get_game(args.game)
    seats = parse_pairs(args.seat, "--seat")
    options: dict[str, Any] = dict(parse_pairs(args.option, "--option"))
    if not seats:
        example = " ".join(
            f"--seat {s}=baseline:{next(iter(definition.baselines))}" for s in seats_for(definition, options)
        )
        raise UsageError(f"give every seat a player, e.g. {example}")
    problem = budget_problem(args.budget_usd, args.budget_tokens)
    if problem:
        raise UsageError(problem)
    config = MatchConfig(
        game=definition.name,
        seats=seats,
        seed=None if args.seed is None else parse_seed_flag(args.seed),
        options=options,
        budget=Budget(args.budget_usd, args.budget_tokens),
        on_invalid=args.on_invalid,
    )
    return _run_play(config, open_store(args), quiet=args.quiet)


def _run_play(config: MatchConfig, store: Store, *, quiet: bool = False) -> int:
    import contextlib

    from arena.cli.output import LiveOutput
    from arena.cli.signals import run_woken
    from arena.contract.player import UserLeft
    from arena.contract.records import CallbackObserver, EpisodeStatus
    from arena.engine.match import prepare_runner, run_to_end
    from players.console_human import ConsoleDesk, ConsoleHuman

    console = stdout_console()
    desk = ConsoleDesk()
    live = LiveOutput(console, quiet=quiet, before_output=desk.end_line)
    desk.show_board = live.show_board
    try:
        said = CallbackObserver(lambda event: _say_database(event, store), wants_steps=False)
        runner = prepare_runner(
            config, store, [said, live], human_factory=lambda seat: ConsoleHuman(desk=desk)
        )
        live.game = runner.game  # the board a person is shown before their move
        outcome = run_woken(run_to_end(runner))
    except KeyboardInterrupt:
        desk.end_line()
        episode = live.episode_id
        saved = (
            f"; episode {episode} saved as aborted (arena resume {episode} continues it)" if episode else ""
        )
        return fail(f"interrupted{saved}", EXIT_INTERRUPTED)
    except Exception as exc:
        if live.episode_id is not None:  # the runner stored it failed, with the error
            exc.add_note(f"episode {live.episode_id} saved as failed")
        raise
    finally:
        store.close()
    with contextlib.suppress(UserLeft):  # the output closed after the results: the episode is saved
        console.print(f"episode {outcome.episode_id} {outcome.status}", markup=False)
    if outcome.status == EpisodeStatus.ABORTED:
        return fail(f"{outcome.message}; episode {outcome.episode_id} saved as aborted")
    return 0 if outcome.status == EpisodeStatus.FINISHED else 1


def _say_database(event: object, store: Store) -> None:
    """Once the episode is stored (its first event), name the database on stderr."""
    from arena.cli.args import database_line
    from arena.contract.records import EpisodeStarted

    if isinstance(event, EpisodeStarted):
        sys.stderr.write(database_line(store) + "\n")


def cmd_resume(args: argparse.Namespace) -> int:
    """``arena resume ID``: continue an interrupted episode from its last recorded step."""
    from arena.cli.args import episode_id_arg, open_store
    from arena.engine.match import resume_config
    from arena.engine.run_control import Budget
    from arena.engine.user_input import budget_problem

    problem = budget_problem(args.budget_usd, args.budget_tokens)
    if problem:
        raise UsageError(problem)
    episode_id = episode_id_arg(args.episode_id)
    store = open_store(args, write=False)  # an episode to resume is in a database that exists
    try:
        config = resume_config(store, episode_id, Budget(args.budget_usd, args.budget_tokens))
    except BaseException:
        store.close()
        raise
    return _run_play(config, store, quiet=args.quiet)


def cmd_players(args: argparse.Namespace) -> int:
    """``arena players GAME``: one spec per line, spec first."""
    from arena.engine.lineup import baseline_choices
    from arena.plugins.games import get_game

    definition = get_game(args.game)
    rows = [
        {"spec": choice.spec, "description": choice.description} for choice in baseline_choices(definition)
    ]
    rows += _model_rows()
    if args.json:
        from arena.cli.json_output import print_json

        return print_json(rows)
    for row in rows:
        print(f"{row['spec']}\t{row['description']}" if "description" in row else _model_line(row))
    return 0


def _model_rows() -> list[dict[str, Any]]:
    """Every model spec of the models file, whether it can play now and why; then each kind's own lines."""
    from arena.cli.signals import run_woken
    from arena.plugins.players import player_kinds
    from players.models import describe_available, load_models_config

    try:
        config = load_models_config()
    except ValueError as exc:
        sys.stderr.write(f"arena: warning: {plain_text(str(exc))}\n")
        return []
    from arena.contract.playerconfig import mask_urls

    rows: list[dict[str, Any]] = [  # a spec's URL is shown without its password or token
        {"spec": mask_urls(item.spec), "available": item.available, "reason": mask_urls(item.reason)}
        for item in run_woken(describe_available(config))
    ]
    for kind in player_kinds().values():
        rows += [{"spec": None, "line": line} for line in kind.status_lines()]
    return rows


def _model_line(row: dict[str, Any]) -> str:
    if row["spec"] is None:
        return str(row["line"])
    status = "available" if row["available"] else "unavailable"
    return f"{row['spec']}\t{status}: {plain_text(row['reason'])}"


def cmd_models(args: argparse.Namespace) -> int:
    """``arena models``: every model spec, available or not and why."""
    from players.models import default_models_path, example_models_toml, load_models_config

    if args.example:
        sys.stdout.write(example_models_toml())
        return 0
    load_models_config()  # a broken models file is an error here, not a warning
    path = default_models_path()
    rows = _model_rows()
    if args.json:
        from arena.cli.json_output import print_json

        return print_json({"models_file": str(path) if path else None, "models": rows})
    print(f"# models file: {path if path else 'none (see: arena models --example)'}")
    for row in rows:
        print(_model_line(row))
    return 0


def cmd_games(args: argparse.Namespace) -> int:
    """``arena games [CATALOGUE]``: Arena's own games and a line per catalogue, or one catalogue's games."""
    from arena.cli.games_listing import list_games

    return list_games(args.which, as_json=args.json)


def cmd_app(args: argparse.Namespace) -> int:
    """No subcommand: the Textual app."""
    from arena.app import run_app
    from arena.store.paths import database_path

    return run_app(database_path(args.db))


def cmd_serve(args: argparse.Namespace) -> int:
    """``arena serve [--port P] [--host H]``: the app in web browsers, one app process per tab."""
    from arena.cli.serve import serve
    from arena.store.paths import database_path

    path = database_path(getattr(args, "sub_db", None) or args.db)
    sys.stderr.write(f"arena: database {plain_text(str(path.absolute()))}\n")  # every tab's app writes there
    return serve(path, host=args.host, port=args.port, public_url=args.public_url, token=not args.no_token)


def cmd_replay(args: argparse.Namespace) -> int:
    """``arena replay [ID]``: the app, straight on the replay screen."""
    from arena.app import run_app
    from arena.cli.args import episode_id_arg
    from arena.engine.export import EpisodeNotFound, refuse_secret
    from arena.store.database import Store
    from arena.store.paths import database_path

    path = database_path(getattr(args, "sub_db", None) or args.db)
    if args.episode_id is not None:
        store = Store(path)
        try:
            episode = store.episode(episode_id_arg(args.episode_id))
            if episode is None:
                raise EpisodeNotFound(f"no episode {args.episode_id} in {path}")
            refuse_secret(store, episode, "replay")  # said here, in one line, before the app starts
        finally:
            store.close()
    return run_app(path, replay=args.episode_id, open_replay=True)


def cmd_tournament(args: argparse.Namespace) -> int:
    """``arena tournament run|resume|table|report``."""
    from arena.cli import tournament as cli_tournament
    from arena.cli.args import open_store, parse_pairs
    from arena.tournament.config import TournamentConfigError
    from arena.tournament.run import TournamentNotFound

    console = stdout_console()
    try:
        if args.tournament_command == "run":
            config = cli_tournament.config_from_args(args, parse_pairs)
            store = open_store(args)
            try:
                return cli_tournament.run_command(args, store, config, console)
            finally:
                store.close()
        store = open_store(args, write=args.tournament_command == "resume")
        try:
            handler = {
                "resume": cli_tournament.resume_command,
                "table": cli_tournament.table_command,
                "report": cli_tournament.report_command,
            }[args.tournament_command]
            return handler(args, store, console)
        finally:
            store.close()
    except TournamentConfigError as exc:
        return fail(str(exc), EXIT_USAGE)
    except TournamentNotFound as exc:
        return fail(str(exc), EXIT_FAILED)


def cmd_tournaments(args: argparse.Namespace) -> int:
    """``arena tournaments``: recent tournaments."""
    from arena.cli import tournament as cli_tournament
    from arena.cli.args import open_store

    store = open_store(args, write=False)
    try:
        return cli_tournament.list_command(args, store, stdout_console())
    finally:
        store.close()


def cmd_leaderboard(args: argparse.Namespace) -> int:
    """``arena leaderboard ID ID ...``: one table across tournaments that share players."""
    from arena.cli import tournament as cli_tournament
    from arena.cli.args import open_store
    from arena.tournament.config import TournamentConfigError
    from arena.tournament.run import TournamentNotFound

    store = open_store(args, write=False)
    try:
        return cli_tournament.leaderboard_command(args, store, stdout_console())
    except TournamentConfigError as exc:
        return fail(str(exc), EXIT_USAGE)
    except TournamentNotFound as exc:
        return fail(str(exc), EXIT_FAILED)
    finally:
        store.close()


def cmd_episodes(args: argparse.Namespace) -> int:
    """``arena episodes``: recent episodes, newest first."""
    from arena.cli.episodes import cmd_episodes as listing

    return listing(args)


def cmd_export(args: argparse.Namespace) -> int:
    """``arena export ID``: the episode as JSON on stdout."""
    from arena.cli.episodes import cmd_export as export

    return export(args)


def cmd_compare(args: argparse.Namespace) -> int:
    """``arena compare A B``: two episodes of one deal side by side."""
    from arena.cli.compare import compare_command

    return compare_command(args, stdout_console())


COMMANDS = {
    "tournament": cmd_tournament,
    "tournaments": cmd_tournaments,
    "leaderboard": cmd_leaderboard,
    "play": cmd_play,
    "resume": cmd_resume,
    "players": cmd_players,
    "games": cmd_games,
    "models": cmd_models,
    "episodes": cmd_episodes,
    "export": cmd_export,
    "compare": cmd_compare,
    "replay": cmd_replay,
    "serve": cmd_serve,
}


def run() -> None:
    """The ``arena`` console script: ``kill``, ``timeout`` or a closed terminal (SIGTERM, SIGHUP)
    end an episode as Ctrl-C does, saved as aborted with what was played, rather than cutting
    the process off before its last steps reach the database."""
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):  # handled as the SIGINT it stands for (asyncio's handler and all)
            signal.signal(getattr(signal, name), _as_ctrl_c)
    code = main()
    try:
        # Output still in stdout's buffer (stdout is block-buffered into a pipe unless
        # PYTHONUNBUFFERED is set) meets a reader that left only here, not inside main().
        sys.stdout.flush()
    except BrokenPipeError:
        _silence_stdout()
        code = 1
    except OSError as exc:  # stdout is a file on a full disk: what is left of the output cannot go
        _silence_stdout()
        if code == 0:
            from arena.cli.failures import failure_line

            code = fail(failure_line(exc, None) or str(exc), EXIT_FAILED)
    raise SystemExit(code)


def _as_ctrl_c(_signal_number: int, _frame: object) -> None:
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        # Started in a shell's background, which ignores Ctrl-C for its jobs: a kill must
        # still end the episode, as Ctrl-C would (recorded as aborted).
        from arena.cli.signals import stop

        stop()
        return
    signal.raise_signal(signal.SIGINT)


if __name__ == "__main__":  # pragma: no cover
    run()
