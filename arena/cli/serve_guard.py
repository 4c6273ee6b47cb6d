"""Who may talk to ``arena serve``: its own page, on the address it serves, holding the launch's token.

textual-serve answers any request: a page from any site open in the user's browser could open
its websocket (browsers let any page connect to ``ws://127.0.0.1``), get a live app, read the
screen and type into it; a DNS-rebinding page could fetch its pages too. So every request is
checked here before textual-serve sees it:

- its ``Host`` must be the served address (or the ``--public-url`` one): a rebound name fails;
- its ``Origin``, when a browser sends one, must be that address too: another site's page fails;
- the page, its websocket and its downloads need the per-launch secret token, given in the
  printed URL (``?token=...``) and then kept in a cookie for that port, as Jupyter does; the
  static files (textual-serve's own scripts and fonts) need no token.

A refused request gets HTTP 403 and one log line saying why (the token is never logged).
"""

from __future__ import annotations

import hmac
import ipaddress
import logging
import secrets
import socket
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

from aiohttp import web

from arena.display.sanitize import plain_text

log = logging.getLogger("arena.serve")

TOKEN_PARAMETER = "token"
OPEN_PREFIXES = ("/static/",)
"""Paths served without the token: textual-serve's own scripts, styles and fonts, the same for everyone."""
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
WILDCARD_ADDRESSES = ("0.0.0.0", "::", "[::]")


def new_token() -> str:
    """A fresh secret for one launch (256 bits, URL-safe)."""
    return secrets.token_urlsafe(32)


def cookie_name(port: int) -> str:
    """The cookie keeping the token for the server on ``port`` (cookies are per host, not per port)."""
    return f"arena-serve-token-{port}"


@dataclass(frozen=True)
class Guard:
    """The Hosts and Origins this server answers, and its token (``None``: ``--no-token``)."""

    hosts: frozenset[str]
    origins: frozenset[str]
    token: str | None
    port: int

    def refusal(self, request: web.Request) -> str | None:
        """Why ``request`` is refused, or ``None`` if it may go on."""
        host = request.headers.get("Host", "").strip().lower()
        if host not in self.hosts:
            return (
                f"Host {_shown(host)} is not this server's address"
                " (if it is a name of this machine, give it: --public-url http://NAME:PORT)"
            )
        origin = request.headers.get("Origin")
        if origin is not None and origin.strip().lower().rstrip("/") not in self.origins:
            return f"Origin {_shown(origin)} is not this server's page"
        if self.token is None or request.path.startswith(OPEN_PREFIXES):
            return None
        given = request.query.get(TOKEN_PARAMETER) or request.cookies.get(cookie_name(self.port)) or ""
        if not hmac.compare_digest(given.encode(), self.token.encode()):
            return "no token" if not given else "wrong token"
        return None

    @web.middleware
    async def middleware(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        """aiohttp middleware: refuse with 403 and a log line, or pass on (and keep the token in a cookie)."""
        reason = self.refusal(request)
        if reason is not None:
            log.warning("arena serve: refused %s %s: %s", request.method, _shown(request.path), reason)
            raise web.HTTPForbidden(text=f"arena serve: refused: {reason}\n")
        response = await handler(request)
        if self.token is not None and request.query.get(TOKEN_PARAMETER) and request.path == "/":
            # The page's websocket and downloads carry no query of ours: the cookie proves them.
            response.set_cookie(
                cookie_name(self.port), self.token, httponly=True, samesite="Strict", path="/"
            )
        return response


def _shown(text: str) -> str:
    """A header value as a log line may show it: control characters escaped, cut short."""
    return repr(plain_text(text, limit=120))


def build_guard(address: str, port: int, public_url: str | None, token: str | None) -> Guard:
    """The guard for a server listening on ``address:port``, opened by browsers at ``public_url``."""
    names = {_bracketed(address.strip().lower())}
    if _is_loopback_or_wildcard(address):
        names.update(LOOPBACK_NAMES)
    if address.strip().lower() in WILDCARD_ADDRESSES:
        names.update(n.lower() for n in (socket.gethostname(), socket.getfqdn()) if n)
    hosts = {f"{name}:{port}" for name in names}
    if port == 80:
        hosts.update(names)
    origins = {f"http://{host}" for host in hosts}
    if public_url:
        parts = urlsplit(public_url.strip())
        netloc = parts.netloc.lower().rpartition("@")[2]
        if netloc:
            hosts.add(netloc)
            origins.add(f"{parts.scheme.lower()}://{netloc}")
            default = {"http": 80, "https": 443}.get(parts.scheme.lower())
            if default is not None and parts.port is None:
                hosts.add(f"{netloc}:{default}")
    return Guard(hosts=frozenset(hosts), origins=frozenset(origins), token=token, port=port)


def _bracketed(host: str) -> str:
    """An IPv6 address as a Host header writes it (``[::1]``)."""
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def _is_loopback_or_wildcard(address: str) -> bool:
    bare = address.strip().strip("[]").lower()
    if bare == "localhost":
        return True
    try:
        ip = ipaddress.ip_address(bare)
    except ValueError:
        return False
    return ip.is_loopback or ip.is_unspecified
