"""The ``arena`` command: the Textual app with no arguments, headless commands otherwise.

Every user error (unknown game, seat or player, bad seed, unwritable database) ends in
one line on stderr and a non-zero exit, never a traceback.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from rich.console import Console

from arena import cli_tournament
from arena.cli_output import LiveOutput, StdoutConsole, silence_stdout
from arena.events import EpisodeStatus
from arena.export import EpisodeNotFound, export_episode
from arena.lineup import baseline_choices
from arena.match import MatchConfig, play_match
from arena.paths import database_path
from arena.player import PlayerSetupError, UserLeft
from arena.player_kinds import player_kinds
from arena.registry import GameDefinition, UnknownGameError, game_names, get_game
from arena.runner import Budget
from arena.sanitize import INVISIBLE, plain_text
from arena.specs import SpecError
from arena.store import Store, StoreError
from arena.user_input import INT64_MAX, budget_problem, in_int64, parse_seed

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
PIPE_WIDTH = 160


class UsageError(Exception):
    """A command-line mistake to report in one line."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    parser = _Parser(
        prog="arena", description="Language models, baselines and people play games head-to-head."
    )
    parser.add_argument("--db", help="database file (default: $ARENA_DB or saves/arena.db)")
    parser.add_argument(
        "--models",
        help="models file (default: $ARENA_MODELS, ./arena-models.toml, ~/.config/arena/models.toml)",
    )
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)

    play = sub.add_parser("play", help="play one episode headless", add_help=False)
    play.add_argument("-h", "--help", action=_PlayHelp, help="show this help and every game's options")
    play.add_argument("game", help="game name (see: arena games)")
    play.add_argument(
        "--seat", action="append", default=[], metavar="SEAT=SPEC", help="give a seat to a player"
    )
    play.add_argument("--seed", default="0", help="integer seed (default 0)")
    play.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="game option")
    play.add_argument("--budget-usd", type=float, default=None, help="stop the episode past this cost")
    play.add_argument(
        "--budget-tokens", type=int, default=None, help="stop the episode past this many tokens"
    )
    play.add_argument("--quiet", action="store_true", help="print only the results")
    play.add_argument("--db", dest="sub_db", help=argparse.SUPPRESS)

    suite = sub.add_parser("suite", help="one line-up over many deals: a thin alias of arena tournament run")
    suite.add_argument("game", help="game name (see: arena games)")
    suite.add_argument(
        "--seat", action="append", default=[], metavar="SEAT=SPEC", help="give a seat to a player"
    )
    suite.add_argument("--n", default="50", help="number of deals (default 50)")
    suite.add_argument("--seed", default="0", help="integer seed the deals are drawn from (default 0)")
    suite.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="game option")
    suite.add_argument("--no-swap", action="store_true", help=argparse.SUPPRESS)
    suite.add_argument("--report", metavar="FILE", help="also write the JSON report (with disclosure) here")
    suite.add_argument("--db", dest="sub_db", help=argparse.SUPPRESS)

    players = sub.add_parser("players", help="list the player specs a game accepts")
    players.add_argument("game")

    sub.add_parser("games", help="list the games")

    replay = sub.add_parser("replay", help="open the app's replay screen (an episode, or the list)")
    replay.add_argument("episode_id", nargs="?", type=int, help="episode to open (default: browse)")
    replay.add_argument("--db", dest="sub_db", help=argparse.SUPPRESS)

    models = sub.add_parser("models", help="list the model players and whether each can play now")
    models.add_argument("--example", action="store_true", help="print an example models file and exit")

    episodes = sub.add_parser("episodes", help="list saved episodes")
    episodes.add_argument("--game")
    episodes.add_argument("--status")
    episodes.add_argument("--player")
    episodes.add_argument("--limit", type=int, default=30)
    episodes.add_argument("--db", dest="sub_db", help=argparse.SUPPRESS)

    export = sub.add_parser("export", help="write an episode as JSON to stdout")
    export.add_argument("episode_id", type=int)
    export.add_argument("--db", dest="sub_db", help=argparse.SUPPRESS)
    cli_tournament.add_parsers(sub, _Parser)
    _accept_global_options_everywhere(sub)
    return parser


def _accept_global_options_everywhere(sub: Any) -> None:
    """Let ``--db`` and ``--models`` follow any subcommand as well as precede it."""
    parsers = list(sub.choices.values())
    while parsers:
        parser = parsers.pop()
        known = {option for action in parser._actions for option in action.option_strings}
        if "--db" not in known:
            parser.add_argument("--db", dest="sub_db", help=argparse.SUPPRESS)
        if "--models" not in known:
            parser.add_argument("--models", dest="sub_models", help=argparse.SUPPRESS)
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                parsers.extend(action.choices.values())


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``arena`` console script."""
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
        return fail(str(exc), EXIT_USAGE)
    except (SpecError, UnknownGameError, StoreError, PlayerSetupError, EpisodeNotFound, ValueError) as exc:
        return fail(str(exc))
    except KeyboardInterrupt:
        return fail("interrupted", EXIT_INTERRUPTED)
    except (BrokenPipeError, UserLeft):  # the reader of our output left (arena episodes | head)
        silence_stdout()
        return 1


def escape_invisible(text: str) -> str:
    """JSON text with bidi overrides and invisible characters written as ``\\uXXXX`` escapes.

    JSON already escapes control characters such as ESC; these would otherwise reach a
    terminal raw and reorder or hide what it shows. The escaped JSON decodes the same.
    """
    return text.translate(_ESCAPES)


_ESCAPES = {ord(char): f"\\u{ord(char):04x}" for char in INVISIBLE}


def fail(message: str, code: int = 1) -> int:
    """Print ``arena: error: MESSAGE`` as one line on stderr and return ``code``."""
    one_line = " ".join(plain_text(message).split())
    sys.stderr.write(f"arena: error: {one_line}\n")
    return code


def stdout_console() -> Console:
    """A console for results: terminal width on a terminal, wide enough for tables in a pipe."""
    return StdoutConsole(highlight=False, width=None if sys.stdout.isatty() else PIPE_WIDTH)


def _db(args: argparse.Namespace, *, write: bool = True) -> Store:
    """The store ``--db`` names. Reading never creates anything; writing says what it creates."""
    path = database_path(getattr(args, "sub_db", None) or args.db)
    if not path.parent.exists():
        if not write:
            raise StoreError(f"no database at {path} (the folder {path.parent} does not exist)")
        sys.stderr.write(f"arena: creating folder {plain_text(str(path.parent))} for the database\n")
    return Store(path)


def _parse_pairs(items: list[str], what: str) -> dict[str, str]:
    pairs: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise UsageError(f"{what} wants NAME=VALUE, got {item!r}")
        name = key.strip()
        if name in pairs:
            raise UsageError(f"{what} {name} is given twice ({pairs[name]!r} and {value.strip()!r})")
        pairs[name] = value.strip()
    return pairs


def _parse_seed(text: str) -> int:
    try:
        return parse_seed(text)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _episode_id(value: int) -> int:
    # An id SQLite cannot hold cannot name an episode; say so instead of failing in the store.
    if not in_int64(value):
        raise EpisodeNotFound(f"no episode {value}")
    return value


def cmd_play(args: argparse.Namespace) -> int:
    """``arena play GAME --seat a=SPEC ...``"""
    spec = get_game(args.game)
    seats = _parse_pairs(args.seat, "--seat")
    options: dict[str, Any] = dict(_parse_pairs(args.option, "--option"))
    if not seats:
        example = " ".join(
            f"--seat {s}=baseline:{next(iter(spec.baselines))}" for s in _seats_for(spec, options)
        )
        raise UsageError(f"give every seat a player, e.g. {example}")
    problem = budget_problem(args.budget_usd, args.budget_tokens)
    if problem:
        raise UsageError(problem)
    config = MatchConfig(
        game=spec.name,
        seats=seats,
        seed=_parse_seed(args.seed),
        options=options,
        budget=Budget(args.budget_usd, args.budget_tokens),
    )
    return _run_play(config, _db(args), quiet=args.quiet)


def _run_play(config: MatchConfig, store: Store, *, quiet: bool = False) -> int:
    from players.console_human import ConsoleDesk, ConsoleHuman

    console = stdout_console()
    desk = ConsoleDesk()
    live = LiveOutput(console, quiet=quiet, before_output=desk.end_line)
    desk.show_board = live.show_board
    try:
        outcome = asyncio.run(
            play_match(config, store, [live], human_factory=lambda seat: ConsoleHuman(desk=desk))
        )
    except KeyboardInterrupt:
        desk.end_line()
        saved = f"; episode {live.episode_id} saved as aborted" if live.episode_id is not None else ""
        return fail(f"interrupted{saved}", EXIT_INTERRUPTED)
    finally:
        store.close()
    with contextlib.suppress(UserLeft):  # the output closed after the results: the episode is saved
        console.print(f"episode {outcome.episode_id} {outcome.status}", markup=False)
    if outcome.status == EpisodeStatus.ABORTED:
        return fail(f"{outcome.message}; episode {outcome.episode_id} saved as aborted")
    return 0 if outcome.status == EpisodeStatus.FINISHED else 1


def cmd_suite(args: argparse.Namespace) -> int:
    """``arena suite GAME --seat ... --n N``: a thin alias of ``arena tournament run`` for one line-up."""
    spec = get_game(args.game)
    options = dict(_parse_pairs(args.option, "--option"))
    seats = _parse_pairs(args.seat, "--seat")
    names = _seats_for(spec, options)
    if not seats:
        raise UsageError(f"give every seat a player ({', '.join(names)}), e.g. --seat {names[0]}=SPEC")
    if args.no_swap:
        raise UsageError(
            "--no-swap is gone: a suite is a tournament and plays every seating (see: arena play)"
        )
    config = cli_tournament.suite_config(
        spec.name, names, seats, _parse_count(args.n), _parse_seed(args.seed), options
    )
    store = _db(args)
    try:
        return cli_tournament.suite_command(store, config, args.report, stdout_console())
    finally:
        store.close()


def _parse_count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise UsageError(f"--n must be a whole number, got {text!r}") from None
    if value < 1:
        raise UsageError("--n must be at least 1")
    return value


def cmd_players(args: argparse.Namespace) -> int:
    """``arena players GAME``: one spec per line, spec first."""
    spec = get_game(args.game)
    for choice in baseline_choices(spec):
        print(f"{choice.spec}\t{choice.description}")
    for line in _model_lines():
        print(line)
    return 0


def _model_lines() -> list[str]:
    from players.models import describe_available, load_models_config

    try:
        config = load_models_config()
    except ValueError as exc:
        sys.stderr.write(f"arena: warning: {plain_text(str(exc))}\n")
        return []
    lines = []
    for item in asyncio.run(describe_available(config)):
        status = "available" if item.available else "unavailable"
        lines.append(f"{item.spec}\t{status}: {plain_text(item.reason)}")
    for kind in player_kinds().values():
        lines += kind.status_lines()
    return lines


def cmd_models(args: argparse.Namespace) -> int:
    """``arena models``: every model spec, available or not and why."""
    from players.models import default_models_path, example_models_toml, load_models_config

    if args.example:
        sys.stdout.write(example_models_toml())
        return 0
    load_models_config()  # a broken models file is an error here, not a warning
    path = default_models_path()
    print(f"# models file: {path if path else 'none (see: arena models --example)'}")
    for line in _model_lines():
        print(line)
    return 0


def _seats_for(spec: GameDefinition, options: dict[str, Any]) -> tuple[str, ...]:
    """The seats these options give (the default seats while the options are not valid yet)."""
    try:
        return spec.seats_for(options)
    except ValueError:
        return spec.default_seats


def cmd_games(args: argparse.Namespace) -> int:
    """``arena games``: names, one-line descriptions, seats and options with defaults and ranges."""
    for name in game_names():
        spec = get_game(name)
        print(f"{name}\t{spec.title}: {spec.description}")
        for line in option_lines(spec):
            print(f"\t{line}")
    return 0


class _PlayHelp(argparse.Action):
    """``arena play --help``: the usual help, then every game's seats and options (read lazily)."""

    def __init__(self, option_strings: list[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *args: Any) -> None:
        parser.print_help()
        for name in game_names():
            print(f"\n{name}:")
            for line in option_lines(get_game(name)):
                print(f"  {line}")
        parser.exit()


def option_lines(spec: GameDefinition) -> list[str]:
    """The seats and one line per option (``--option NAME=DEFAULT  help (range)``)."""
    lines = [f"seats: {', '.join(spec.default_seats)} (by default)"]
    for option in spec.options:
        if option.choices:
            allowed = f" (one of {', '.join(map(str, option.choices))})"
        elif option.minimum is not None and option.maximum is not None:
            allowed = f" ({option.minimum:g} to {option.maximum:g})"
        else:
            allowed = ""
        lines.append(f"--option {option.name}={option.default}  {option.help}{allowed}")
    return lines


def cmd_episodes(args: argparse.Namespace) -> int:
    """``arena episodes``: recent episodes, newest first."""
    if args.limit < 1:
        raise UsageError(f"--limit must be at least 1, got {args.limit}")
    store = _db(args, write=False)
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
    store = _db(args, write=False)
    try:
        document = export_episode(store, _episode_id(args.episode_id))
    finally:
        store.close()
    sys.stdout.write(escape_invisible(json.dumps(document, ensure_ascii=False, indent=1)))
    sys.stdout.write("\n")
    return 0


def cmd_app(args: argparse.Namespace) -> int:
    """No subcommand: the Textual app."""
    from arena.app import run_app

    return run_app(database_path(args.db))


def cmd_replay(args: argparse.Namespace) -> int:
    """``arena replay [ID]``: the app, straight on the replay screen."""
    from arena.app import run_app

    path = database_path(getattr(args, "sub_db", None) or args.db)
    if args.episode_id is not None:
        store = Store(path)
        try:
            if store.episode(_episode_id(args.episode_id)) is None:
                raise EpisodeNotFound(f"no episode {args.episode_id} in {path}")
        finally:
            store.close()
    return run_app(path, replay=args.episode_id, open_replay=True)


def cmd_tournament(args: argparse.Namespace) -> int:
    """``arena tournament run|resume|table|report``."""
    from arena.tournament.config import TournamentConfigError
    from arena.tournament.run import TournamentNotFound

    console = stdout_console()
    try:
        if args.tournament_command == "run":
            config = cli_tournament.config_from_args(args, _parse_pairs)
            store = _db(args)
            try:
                return cli_tournament.run_command(args, store, config, console)
            finally:
                store.close()
        store = _db(args, write=args.tournament_command == "resume")
        try:
            handler = {
                "resume": cli_tournament.resume_command,
                "table": cli_tournament.table_command,
                "report": cli_tournament.report_command,
            }[args.tournament_command]
            return handler(args, store, console)
        finally:
            store.close()
    except (TournamentConfigError, TournamentNotFound) as exc:
        return fail(str(exc))


def cmd_tournaments(args: argparse.Namespace) -> int:
    """``arena tournaments``: recent tournaments."""
    store = _db(args, write=False)
    try:
        return cli_tournament.list_command(args, store, stdout_console())
    finally:
        store.close()


COMMANDS = {
    "tournament": cmd_tournament,
    "tournaments": cmd_tournaments,
    "play": cmd_play,
    "suite": cmd_suite,
    "players": cmd_players,
    "games": cmd_games,
    "models": cmd_models,
    "episodes": cmd_episodes,
    "export": cmd_export,
    "replay": cmd_replay,
}

if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
