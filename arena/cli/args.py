"""Reading the ``arena`` command line: the parser, one-line usage errors, and the values flags name.

Flags are checked here (pairs, seeds, counts, episode ids, the database path); the command
handlers in :mod:`arena.cli.main`, :mod:`arena.cli.episodes` and :mod:`arena.cli.tournament` get
values they can use. The parser imports nothing beyond the standard library and these
small modules, so ``arena --help`` starts fast.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from arena.cli.exit_codes import exit_code_text
from arena.display.sanitize import plain_text
from arena.engine.user_input import in_int64, parse_seed
from arena.store.paths import chosen_by_default, database_path, default_database, old_database_note

if TYPE_CHECKING:
    from arena.contract.game import GameDefinition
    from arena.store.database import Store

# Building the parser imports no game, store or tournament code: ``arena --help`` and every
# command start with this module, and each handler imports what it needs.


class UsageError(Exception):
    """A command-line mistake to report in one line."""


class ArenaParser(argparse.ArgumentParser):
    """An argument parser whose mistakes are :class:`UsageError` (one line), not an exit."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def db_help() -> str:
    """``--db``'s help, naming the default as this environment resolves it (``$XDG_DATA_HOME`` honoured)."""
    default = default_database()
    home = Path.home()
    shown = f"~/{default.relative_to(home)}" if default.is_relative_to(home) else str(default)
    return f"database file (default: $ARENA_DB, else {shown})"


JSON_HELP = "print the listing as JSON (one object per row)"
# The values of arena.contract.records.EpisodeStatus, written out: --help must not load pydantic.
EPISODE_STATUSES = ("running", "finished", "aborted", "budget_exceeded", "failed", "player_failed", "lost")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    parser = ArenaParser(
        prog="arena",
        description="Language models, baselines and people play games head-to-head.",
        epilog=exit_code_text(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--db", help=db_help())
    parser.add_argument(
        "--models",
        help="models file (default: $ARENA_MODELS, ./arena-models.toml, ~/.config/arena/models.toml)",
    )
    parser.add_argument(
        "--debug",
        action="store_true",
        help="print the traceback of an error before its one line (as ARENA_DEBUG=1 does); taken anywhere",
    )
    sub = parser.add_subparsers(dest="command", parser_class=ArenaParser)

    play = sub.add_parser("play", help="play one episode headless", add_help=False)
    play.add_argument("-h", "--help", action=PlayHelp, help="show this help and every game's options")
    play.add_argument("game", help="game name (see: arena games)")
    play.add_argument(
        "--seat", action="append", default=[], metavar="SEAT=SPEC", help="give a seat to a player"
    )
    play.add_argument(
        "--seed",
        default=None,
        help="the episode's seed: the deal it plays (default 0; with a human seat, a secret random seed)",
    )
    play.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="game option")
    play.add_argument("--budget-usd", type=float, default=None, help="stop the episode past this cost")
    play.add_argument(
        "--budget-tokens", type=int, default=None, help="stop the episode past this many tokens"
    )
    play.add_argument("--on-invalid", **ON_INVALID_FLAG)
    play.add_argument("--quiet", action="store_true", help="print only the results")
    play.add_argument("--db", dest="sub_db", help=argparse.SUPPRESS)

    resume = sub.add_parser(
        "resume",
        help="continue an interrupted episode from its last recorded step",
        description="An episode stopped by Ctrl-C, a crash or a closed terminal (status aborted or failed)"
        " goes on from its last recorded step, under the same id, with the same players: a person is asked"
        " their move again. Tournament episodes are resumed by arena tournament resume.",
    )
    resume.add_argument("episode_id", type=int, help="episode id (see: arena episodes --status aborted)")
    resume.add_argument("--budget-usd", type=float, default=None, help="stop the episode past this cost")
    resume.add_argument(
        "--budget-tokens", type=int, default=None, help="stop the episode past this many tokens"
    )
    resume.add_argument("--quiet", action="store_true", help="print only the results")
    resume.add_argument("--db", dest="sub_db", help=argparse.SUPPRESS)

    players = sub.add_parser("players", help="list the player specs a game accepts")
    players.add_argument("game", help="game name (see: arena games)")
    players.add_argument("--json", action="store_true", help=JSON_HELP)

    games = sub.add_parser("games", help="list the games")
    games.add_argument(
        "which",
        nargs="?",
        metavar="CATALOGUE",
        help="a catalogue (openspiel, textarena) to list its games, or one game's name",
    )
    games.add_argument("--json", action="store_true", help=JSON_HELP)

    replay = sub.add_parser("replay", help="open the app's replay screen (an episode, or the list)")
    replay.add_argument("episode_id", nargs="?", type=int, help="episode to open (default: browse)")
    replay.add_argument("--db", dest="sub_db", help=argparse.SUPPRESS)

    serve = sub.add_parser(
        "serve",
        help="serve the app to web browsers (needs the serve extra: pip install 'arena[serve]')",
        description="Every browser tab runs its own app, on the same database. Open the URL it prints:"
        " it holds this launch's secret token, and only pages of the served address may connect."
        " There is no other login: keep the default address, or put it behind an SSH tunnel or a"
        " proxy that asks for one.",
    )
    serve.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    serve.add_argument(
        "--host",
        default=None,
        help="address to listen on (default 127.0.0.1, this machine only; another address warns: no login)",
    )
    serve.add_argument(
        "--public-url",
        default=None,
        help="the address browsers open, if not http://HOST:PORT (behind a proxy: its https://... address)",
    )
    serve.add_argument(
        "--no-token",
        action="store_true",
        help="serve without the secret token in the URL (warns: any local program may then drive the app)",
    )
    serve.add_argument("--db", dest="sub_db", help=argparse.SUPPRESS)

    models = sub.add_parser("models", help="list the model players and whether each can play now")
    models.add_argument("--example", action="store_true", help="print an example models file and exit")
    models.add_argument("--json", action="store_true", help=JSON_HELP)

    episodes = sub.add_parser("episodes", help="list saved episodes")
    episodes.add_argument("--game", help="only episodes of this game")
    episodes.add_argument(
        "--status",
        choices=EPISODE_STATUSES,
        help="only episodes in this state: " + ", ".join(EPISODE_STATUSES),
    )
    episodes.add_argument("--player", help="only episodes where a seat's player contains this text")
    episodes.add_argument(
        "--limit", type=int, default=30, help="at most this many, newest first (default 30)"
    )
    episodes.add_argument("--json", action="store_true", help=JSON_HELP)
    episodes.add_argument("--db", dest="sub_db", help=argparse.SUPPRESS)

    export = sub.add_parser(
        "export",
        help="write an episode as JSON, or many as rows (JSON Lines, CSV, Parquet)",
        description="arena export ID writes that episode as one JSON document. Any other form (several"
        " ids, --tournament, the filters of arena episodes, --format, --rows, --output) writes rows, one"
        " per turn or per seat of an episode, oldest episode first; columns: docs/export.md.",
    )
    export.add_argument("episode_id", nargs="*", type=int, help="episode ids (see: arena episodes)")
    export.add_argument("--tournament", type=int, help="every episode of this tournament")
    export.add_argument("--game", help="only episodes of this game")
    export.add_argument("--status", choices=EPISODE_STATUSES, help="only episodes in this state")
    export.add_argument("--player", help="only episodes where a seat's player contains this text")
    export.add_argument(
        "--thinking", help="only episodes with a turn whose stored thinking (reasoning) contains this text"
    )
    export.add_argument("--limit", type=int, help="only the newest this many (default: all)")
    export.add_argument(
        "--format", choices=("jsonl", "csv", "parquet"), help="default: from --output's suffix, else jsonl"
    )
    export.add_argument(
        "--rows", choices=("turns", "seats"), help="one row per turn (default) or per seat of an episode"
    )
    export.add_argument(
        "--observations",
        choices=("none", "changes", "full"),
        help="turn rows: add each observation as a JSON Patch from the seat's previous one (changes),"
        " or whole (full: large for games that keep a history); default none",
    )
    export.add_argument("--output", "-o", help="file to write (default stdout; Parquet needs a file)")
    export.add_argument("--db", dest="sub_db", help=argparse.SUPPRESS)
    compare = sub.add_parser(
        "compare",
        help="two episodes of one deal side by side, step by step, and where they first differ",
        description="Two episodes of the same game on the same deal seed and options (the same world):"
        " each seat's decision and reason in both, step by step, and the first step where they differ.",
    )
    compare.add_argument("episode_a", type=int, help="an episode id (see: arena episodes)")
    compare.add_argument("episode_b", type=int, help="another episode of the same deal")
    compare.add_argument("--force", action="store_true", help="compare different deal seeds or options too")
    compare.add_argument(
        "--diverging", action="store_true", help="show only the steps from the first divergence"
    )
    compare.add_argument("--json", action="store_true", help=JSON_HELP)
    compare.add_argument("--db", dest="sub_db", help=argparse.SUPPRESS)
    add_tournament_parsers(sub, ArenaParser)
    _accept_global_options_everywhere(sub)
    return parser


CLUSTER_HELP = (
    "play on a Ray cluster: ray starts one on this machine, ray=HOST:PORT joins a running one"
    " (offline models' decisions go to its workers; needs arena[ray])"
)


ON_INVALID_FLAG: dict[str, Any] = {
    "choices": ("fallback", "forfeit"),
    "default": "fallback",
    "help": "a model's unusable answer after the re-ask: the game's fallback move (default), or the"
    " seat forfeits the episode (ranked last, its metrics left out)",
}
"""``--on-invalid`` of ``arena play`` and ``arena tournament run``."""


def add_tournament_parsers(sub: Any, parser_class: type[argparse.ArgumentParser]) -> None:
    """Register ``tournament`` (with its subcommands), ``tournaments`` and ``leaderboard``."""
    tournament = sub.add_parser("tournament", help="run, resume and tabulate tournaments")
    actions = tournament.add_subparsers(dest="tournament_command", parser_class=parser_class, required=True)

    run = actions.add_parser("run", help="play every pairing of the players on N deal seeds, both seatings")
    run.add_argument("game", nargs="?", help="game name (see: arena games); or give --file")
    run.add_argument("--player", action="append", default=[], metavar="SPEC", help="a player (repeat)")
    run.add_argument("--seeds", default=None, help="deal seeds every line-up plays (default 10)")
    run.add_argument(
        "--master-seed",
        dest="seed",
        default=None,
        help="seed the deal seeds are drawn from (default 0); the deals' own seeds are in arena episodes",
    )
    run.add_argument("--seed", dest="episode_seed", help=argparse.SUPPRESS)
    run.add_argument("--name", default=None, help="a name for listings")
    run.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="game option")
    run.add_argument("--concurrency", default=None, help="episodes played at once (default 4)")
    run.add_argument("--budget-usd", default=None, help="stop starting episodes past this spend")
    run.add_argument("--on-invalid", **{**ON_INVALID_FLAG, "default": None})
    run.add_argument("--file", metavar="TOML", help="read the tournament from a TOML file (flags override)")
    run.add_argument("--cluster", metavar="ray[=ADDRESS]", default=None, help=CLUSTER_HELP)
    run.add_argument(
        "--report", metavar="DIR", help="when it ends, also write report.json and report.md into DIR"
    )
    run.add_argument("--db", dest="sub_db", help=argparse.SUPPRESS)

    resume = actions.add_parser("resume", help="play the slots a stopped tournament is missing")
    resume.add_argument("tournament_id", type=int, help="tournament id (see: arena tournaments)")
    resume.add_argument("--cluster", metavar="ray[=ADDRESS]", default=None, help=CLUSTER_HELP)
    resume.add_argument("--db", dest="sub_db", help=argparse.SUPPRESS)

    table = actions.add_parser("table", help="ratings, metrics, win matrix and failures of a tournament")
    table.add_argument("tournament_id", type=int, help="tournament id (see: arena tournaments)")
    table.add_argument("--json", action="store_true", help="print the tables as JSON")
    table.add_argument("--db", dest="sub_db", help=argparse.SUPPRESS)

    report = actions.add_parser("report", help="write report.json and report.md with the disclosure")
    report.add_argument("tournament_id", type=int, help="tournament id (see: arena tournaments)")
    report.add_argument("--out", required=True, metavar="DIR", help="folder for report.json and report.md")
    report.add_argument(
        "--format",
        choices=("report", "reprobe"),
        default="report",
        help="report: report.json and report.md (default); reprobe: a REPROBE v0.1 manifest per model player",
    )
    report.add_argument("--db", dest="sub_db", help=argparse.SUPPRESS)

    listing = sub.add_parser("tournaments", help="list tournaments")
    listing.add_argument("--limit", type=int, default=30, help="at most this many, newest first (default 30)")
    listing.add_argument("--json", action="store_true", help=JSON_HELP)
    listing.add_argument("--db", dest="sub_db", help=argparse.SUPPRESS)

    board = sub.add_parser(
        "leaderboard",
        help="one Bradley-Terry table across tournaments of different games that share players",
        description=(
            "Combine tournaments (of one game or several) into one ratings table. Players are matched"
            " by configuration; each game weighs the same whatever its number of episodes; intervals"
            " resample deal seeds within each game. Each game's own rating is shown beside."
        ),
    )
    board.add_argument(
        "tournament_ids", type=int, nargs="+", metavar="ID", help="tournament ids (see: arena tournaments)"
    )
    board.add_argument("--json", action="store_true", help="print the leaderboard as JSON")
    board.add_argument("--db", dest="sub_db", metavar="FILE", help=db_help())


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


class PlayHelp(argparse.Action):
    """``arena play --help``: the usual help, then every game's seats and options (read lazily)."""

    def __init__(self, option_strings: list[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *args: Any) -> None:
        from arena.plugins.games import game_names, get_game

        parser.print_help()
        for name in game_names():
            print(f"\n{name}:")
            for line in option_lines(get_game(name)):
                print(f"  {line}")
        parser.exit()


def option_lines(definition: GameDefinition) -> list[str]:
    """The seats and one line per option (``--option NAME=DEFAULT  help (range)``)."""
    lines = [f"seats: {', '.join(definition.default_seats)} (by default)"]
    for option in definition.options:
        if option.choices:
            allowed = f" (one of {', '.join(map(str, option.choices))})"
        elif option.minimum is not None and option.maximum is not None:
            allowed = f" ({option.minimum:g} to {option.maximum:g})"
        else:
            allowed = ""
        lines.append(f"--option {option.name}={option.default}  {option.help}{allowed}")
    return lines


def open_store(args: argparse.Namespace, *, write: bool = True) -> Store:
    """The store ``--db`` names. Reading never creates anything; writing says what folder it creates.

    A command that only reads (it builds a listing, a table, a report or an export) first has
    the file checked (``PRAGMA quick_check``): a damaged one is refused in one line that says how
    to recover it. A command that writes prints :func:`database_line` once it begins to play.
    """
    from arena.store.database import Store, StoreError

    given = getattr(args, "sub_db", None) or args.db
    path = database_path(given)
    note = old_database_note(given)
    if note:
        sys.stderr.write(f"arena: note: {plain_text(note)}\n")
    if not path.parent.exists():
        if not write:
            if chosen_by_default(given):
                raise StoreError(f"no database yet at {path}: nothing has been played (arena play makes it)")
            raise StoreError(f"no database at {path} (the folder {path.parent} does not exist)")
        sys.stderr.write(f"arena: creating folder {plain_text(str(path.parent))} for the database\n")
    store = Store(path)
    if not write:
        try:
            store.check_integrity()
        except BaseException:
            store.close()
            raise
    return store


def database_line(store: Store) -> str:
    """``arena: database PATH``: what a command that writes says once, on stderr, when it begins to
    play (not for a command refused before: a bad seat, a missing key), so an episode is never
    saved somewhere its player does not know of."""
    return f"arena: database {plain_text(str(store.path.absolute()))}"


def parse_pairs(items: list[str], what: str) -> dict[str, str]:
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


def parse_seed_flag(text: str) -> int:
    try:
        return parse_seed(text)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def episode_id_arg(value: int) -> int:
    # An id SQLite cannot hold cannot name an episode; say so instead of failing in the store.
    if not in_int64(value):
        from arena.engine.export import EpisodeNotFound

        raise EpisodeNotFound(f"no episode {value}")
    return value


def parse_count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise UsageError(f"--n must be a whole number, got {text!r}") from None
    if value < 1:
        raise UsageError("--n must be at least 1")
    return value


def seats_for(definition: GameDefinition, options: dict[str, Any]) -> tuple[str, ...]:
    """The seats these options give (the default seats while the options are not valid yet)."""
    try:
        return definition.seats_for(options)
    except ValueError:
        return definition.default_seats
