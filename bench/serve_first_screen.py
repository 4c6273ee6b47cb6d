"""How long ``arena serve`` takes to show the first screen in a browser.

Each run starts ``arena serve`` on a free loopback port (a fresh process, a new database),
opens the page in Debian's headless Chromium through Playwright, and times from the
server's start to: the server listening, the page loaded, the app's first bytes drawn
(textual-serve marks the page ``-first-byte``), and the home screen whole (its player list
shown, read from the terminal's bytes as tests/support/browser.py does). The browser is
started before the clock, as a person's is already open. Prints the median and best of
``--runs``; asserts nothing.

Usage: ``.venv/bin/python bench/serve_first_screen.py [--runs 5]``
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.support.browser import Tab, arena_serve, chromium, chromium_missing, listening, wait_for

if TYPE_CHECKING:
    from playwright.sync_api import Browser

MARKS = ("listening", "page loaded", "first bytes", "home screen")


def one_run(browser: Browser, folder: Path) -> dict[str, float]:
    """Seconds from ``arena serve``'s start to each of :data:`MARKS`."""
    start = time.perf_counter()
    times: dict[str, float] = {}
    with arena_serve(folder / "arena.db") as (url, _server):
        port = int(url.rstrip("/").rsplit(":", 1)[1])
        wait_for(lambda: listening(port), "listening")
        times["listening"] = time.perf_counter() - start
        tab = Tab(browser, url)
        times["page loaded"] = time.perf_counter() - start
        tab.page.wait_for_selector("body.-first-byte", timeout=0)
        times["first bytes"] = time.perf_counter() - start
        tab.wait_text("✓ human")
        times["home screen"] = time.perf_counter() - start
        tab.page.close()
    return times


def main() -> None:
    """Time ``--runs`` starts and print each mark's median and best."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    missing = chromium_missing()
    if missing:
        raise SystemExit(f"cannot run: {missing}")
    runs: list[dict[str, float]] = []
    with chromium() as browser:
        for index in range(args.runs):
            with tempfile.TemporaryDirectory() as folder:
                runs.append(one_run(browser, Path(folder)))
            print(f"run {index + 1}: " + ", ".join(f"{mark} {runs[-1][mark]:.2f}s" for mark in MARKS))
    print(f"arena serve to the browser, {args.runs} runs (seconds from the server's start):")
    for mark in MARKS:
        values = [run[mark] for run in runs]
        print(f"  {mark:<12} median {statistics.median(values):6.2f}  best {min(values):6.2f}")


if __name__ == "__main__":
    main()
