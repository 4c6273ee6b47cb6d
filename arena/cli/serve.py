"""``arena serve``: the app in web browsers through textual-serve, one app process per tab.

textual-serve runs the command below once for every browser tab that opens the page and
relays its screen and keys over a websocket. Each app opens the same database file; SQLite's
locking (the store uses WAL and a busy timeout) lets those processes write at once.

Only its own page may drive it (:mod:`arena.cli.serve_guard`): every request's ``Host`` and
``Origin`` must be the served address, and the page needs the secret token of this launch,
printed in the URL to open (``--no-token`` drops it, with a warning). There is no login
beyond that token: the default address is this machine's loopback, and any other needs
``--host`` and gets a warning.
"""

from __future__ import annotations

import asyncio
import ipaddress
import shlex
import sys
from pathlib import Path

DEFAULT_HOST = "127.0.0.1"
NO_LOGIN_WARNING = (
    "arena: warning: serving on {host}:{port} with no login but the link's token, over plain HTTP:"
    " anyone who can reach it and sees the link can play, read every episode and spend the models'"
    " keys. Prefer the default 127.0.0.1 with an SSH tunnel, or a reverse proxy that asks for a"
    " login (README: In a browser).\n"
)
NO_TOKEN_WARNING = (
    "arena: warning: --no-token: any program that can reach {host}:{port} (every user and process of"
    " this machine, and more beyond loopback) can play, read every episode and spend the models'"
    " keys; only other sites' pages are still refused (Origin and Host checks).\n"
)


class ServeError(Exception):
    """``arena serve`` cannot start (no textual-serve, a bad port, the address is taken)."""


def is_loopback(host: str) -> bool:
    """True if ``host`` is reachable only from this machine (127.0.0.0/8, ::1, localhost)."""
    if host.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip().strip("[]")).is_loopback
    except ValueError:
        return False  # a name: it may resolve to any address


def app_command(database: Path) -> str:
    """The shell command textual-serve runs for each tab: this Python's arena app on ``database``."""
    return shlex.join([sys.executable, "-m", "arena.cli.main", "--db", str(database.resolve())])


def local_url(host: str, port: int) -> str:
    """The page's address on ``host:port`` (an IPv6 address in brackets)."""
    shown = f"[{host}]" if ":" in host and not host.startswith("[") else host
    return f"http://{shown}:{port}"


def serve(
    database: Path, *, host: str | None, port: int, public_url: str | None = None, token: bool = True
) -> int:
    """Serve the app on ``host:port`` until interrupted; warn when others can reach it.

    ``public_url`` is the address browsers load the page from when it is not ``host:port``
    (a proxy's ``https://...``, or this machine's name when listening on 0.0.0.0): the page
    opens its websocket there, and only it and ``host:port`` pass the Host and Origin checks.
    ``token=False`` (``--no-token``) serves without the launch's secret, with a warning."""
    try:
        from arena.cli.serve_app import GuardedServer
    except ImportError:
        raise ServeError("arena serve needs textual-serve: pip install 'arena[serve]'") from None
    if not 1 <= port <= 65535:
        raise ServeError(f"--port must be 1 to 65535, got {port}")
    address = DEFAULT_HOST if host is None else host.strip()
    if not address:
        raise ServeError("--host needs an address, e.g. 127.0.0.1")
    if not is_loopback(address):
        sys.stderr.write(NO_LOGIN_WARNING.format(host=address, port=port))
    if not token:
        sys.stderr.write(NO_TOKEN_WARNING.format(host=address, port=port))
    if not database.parent.exists():
        sys.stderr.write(f"arena: creating folder {database.parent} for the database\n")
        database.parent.mkdir(parents=True, exist_ok=True)
    url = (public_url or "").strip().rstrip("/") or local_url(address, port)
    from arena.cli.serve_guard import build_guard, new_token

    guard = build_guard(address, port, public_url, new_token() if token else None)
    server = GuardedServer(
        app_command(database), guard, host=address.strip("[]"), port=port, title="Arena", public_url=url
    )
    # textual-serve runs on asyncio.get_event_loop(): give it a fresh loop, never a closed one.
    asyncio.set_event_loop(asyncio.new_event_loop())
    try:
        server.serve()
    except OSError as exc:  # the port is taken, or the address is not this machine's
        raise ServeError(f"cannot serve on {address}:{port}: {exc.strerror or exc}") from None
    return 0
