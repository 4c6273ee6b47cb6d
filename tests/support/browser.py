"""``arena serve`` in a real headless Chromium, and what its terminal shows.

The page draws the terminal on a canvas, so its text cannot be read from the DOM. What the
browser's xterm.js draws is the byte stream the app sends over the page's websocket: the
same bytes go through pyte, a terminal emulator, sized as the page asked the app to be,
and :meth:`Tab.text` reads its screen. Keys go through the page's keyboard as a person's.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyte

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, WebSocket

CHROMIUM = "/usr/bin/chromium"
GIVE_UP_SECONDS = 600.0
"""Waits fail only past this: a shared, loaded machine may take a minute to start an app."""
POLL_MS = 50
VIEWPORT = {"width": 1280, "height": 800}


def chromium_missing() -> str | None:
    """Why the browser tests cannot run here, or ``None`` (Debian's chromium and playwright are there)."""
    if not Path(CHROMIUM).exists() and shutil.which("chromium") is None:
        return "Debian's chromium is not installed (make test installs it as root: apt-get install chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install -e '.[dev,serve]')"
    try:
        import textual_serve  # noqa: F401
    except ImportError:
        return "textual-serve is not installed (pip install -e '.[serve]')"
    return None


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


SERVING = "arena: serving the app at "


@contextlib.contextmanager
def arena_serve(database: Path, *extra: str) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """``arena serve`` on a free loopback port; yields the page's address it prints (with the
    launch's token) once it listens."""
    port = free_port()
    command = [sys.executable, "-m", "arena.cli.main", "--db", str(database), "serve", "--port", str(port)]
    log = database.with_name(f"serve-{port}.log")  # a file, not a pipe: its log never fills a buffer
    with log.open("w") as output:
        server = subprocess.Popen([*command, *extra], stdout=output, stderr=subprocess.STDOUT, text=True)
    try:
        wait_for(lambda: listening(port) or server.poll() is not None, "arena serve to listen")
        if server.poll() is not None:
            raise AssertionError(f"arena serve ended with {server.returncode}: {log.read_text()}")
        wait_for(lambda: SERVING in log.read_text(), "arena serve to print its address")
        [line] = [line for line in log.read_text().splitlines() if line.startswith(SERVING)]
        yield line.removeprefix(SERVING).split()[0], server
    finally:
        server.terminate()  # textual-serve ends every tab's app process on SIGTERM
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def listening(port: int) -> bool:
    """True if something accepts connections on 127.0.0.1:``port``."""
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
    except OSError:
        return False
    return True


def wait_for(condition: Callable[[], bool], what: str, sleep: Callable[[], None] | None = None) -> None:
    """Poll ``condition`` until it holds; fail only after :data:`GIVE_UP_SECONDS`."""
    give_up = time.monotonic() + GIVE_UP_SECONDS
    while not condition():
        if time.monotonic() > give_up:
            raise AssertionError(f"gave up waiting for: {what}")
        if sleep is not None:
            sleep()
        else:
            time.sleep(POLL_MS / 1000)


@contextlib.contextmanager
def chromium() -> Iterator[Browser]:
    """Debian's headless Chromium through Playwright (no browser download; no sandbox as root)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            yield browser
        finally:
            browser.close()


class Tab:
    """One browser tab on the served page, with a mirror of the terminal it shows."""

    def __init__(self, browser: Browser, url: str) -> None:
        self.screen = pyte.Screen(80, 24)
        self._stream = pyte.ByteStream(self.screen)
        self.page: Page = browser.new_page(viewport=VIEWPORT)  # type: ignore[arg-type]
        self.page.on("websocket", self._watch)
        self.page.goto(url)

    def _watch(self, websocket: WebSocket) -> None:
        websocket.on("framesent", self._sent)
        websocket.on("framereceived", self._received)

    def _sent(self, payload: str | bytes) -> None:
        if isinstance(payload, str):
            message: list[Any] = json.loads(payload)
            if message[0] == "resize":  # the page tells the app its size: mirror it
                self.screen.resize(int(message[1]["height"]), int(message[1]["width"]))

    def _received(self, payload: str | bytes) -> None:
        if isinstance(payload, bytes):  # the app's output; text frames are pongs and meta
            self._stream.feed(payload)

    def text(self) -> str:
        """The terminal's characters now, one line per row."""
        return "\n".join(self.screen.display)

    def wait_text(self, wanted: str, *, gone: bool = False) -> None:
        """Wait until the terminal shows ``wanted`` (or, with ``gone``, no longer shows it)."""
        what = f"{wanted!r} {'to go' if gone else 'on screen'}"
        try:
            wait_for(lambda: (wanted in self.text()) != gone, what, self._pause)
        except AssertionError as error:  # say what the terminal showed, at what size
            size = f"{self.screen.columns}x{self.screen.lines}"
            raise AssertionError(f"{error}; the {size} terminal shows:\n{self.text()}") from None

    def _pause(self) -> None:
        self.page.wait_for_timeout(POLL_MS)

    def focus(self) -> None:
        """Give the terminal the keyboard, as a person's click on the page would."""
        self.page.wait_for_selector("body.-first-byte")
        self.page.focus(".xterm-helper-textarea")

    def press(self, *keys: str) -> None:
        """Press keys in turn (Playwright names: ``Tab``, ``Enter``, ``Control+s``)."""
        for key in keys:
            self.page.keyboard.press(key)

    def type(self, text: str) -> None:
        """Type ``text`` one key at a time."""
        self.page.keyboard.type(text)

    def screenshot(self, path: Path) -> bytes:
        """A PNG of the page as the browser draws it."""
        return self.page.screenshot(path=path)
