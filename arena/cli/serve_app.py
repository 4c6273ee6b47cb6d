"""textual-serve's server with :mod:`arena.cli.serve_guard` in front of every route.

textual-serve 1.1.3 builds its aiohttp application in ``Server._make_app`` and checks
nothing; this subclass puts the guard's middleware first and prints the URL to open, with
the launch's token, in place of textual-serve's banner.
"""

from __future__ import annotations

import logging
import re
import sys
from typing import Any

from aiohttp import web
from textual_serve.server import Server

from arena.cli.serve_guard import TOKEN_PARAMETER, Guard

TOKEN_IN_TEXT = re.compile(rf"({TOKEN_PARAMETER}=)[^&\s\"']+")


class HideTokens(logging.Filter):
    """Masks ``token=...`` in aiohttp's access log lines (it logs each request's whole first line)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = TOKEN_IN_TEXT.sub(r"\1***", record.msg)
        return True


class GuardedServer(Server):
    """A textual-serve server that answers only its own page (Host, Origin, token)."""

    def __init__(self, command: str, guard: Guard, **kwargs: Any) -> None:
        super().__init__(command, **kwargs)
        self.guard = guard

    def page_url(self) -> str:
        """The address to open: the public URL, with ``?token=...`` unless serving with ``--no-token``."""
        base = f"{self.public_url.rstrip('/')}/"
        return base if self.guard.token is None else f"{base}?{TOKEN_PARAMETER}={self.guard.token}"

    def initialize_logging(self) -> None:
        super().initialize_logging()
        logging.getLogger("aiohttp.access").addFilter(HideTokens())

    async def _make_app(self) -> web.Application:
        app: web.Application = await super()._make_app()
        app.middlewares.insert(0, self.guard.middleware)
        return app

    async def on_startup(self, app: web.Application) -> None:
        # One line a person (or a test reading the log) can act on, flushed at once: stdout may be a file.
        sys.stdout.write(f"arena: serving the app at {self.page_url()}  (Ctrl+C stops)\n")
        sys.stdout.flush()
