"""How responsive the Arena app is. Prints figures; asserts nothing.

1. launch: time from starting ``python`` to the home screen's first frame (keys answered) and to
   the first game's set-up painted (headless driver).
2. load: key press -> screen repainted while 8 episodes with model seats run against a
   slow local server (each reply takes ``--delay`` seconds). The seats are real
   ``openai-compat`` model players talking HTTP to a tiny local chat-completions server;
   with ``--simulate`` they are scripted players that ``asyncio.sleep`` instead.
3. replay: opening a 1,000-turn lemonade episode (2 stands x 500 days) and stepping.
4. home: a key on the home screen's game list -> the next game's set-up painted (rules,
   seats, options), one key at a time and as a held key repeats them.
5. tournament: key press -> repaint (help opened and closed) while the app plays a
   baseline bargain tournament on its own loop with the live leaderboard shown, against
   the same tournament played headless; it starts once the home screen has set up. The
   first keys are pressed at once, while the tournament screen is still being built; the
   figures are given with them and without.

"Repainted" is the moment the app hands its next screen update to the driver after the
key changed what is shown (``App._display``); with the headless driver nothing is
written to a terminal, so a real terminal adds its own drawing time.

Usage: ``.venv/bin/python bench/app_latency.py [--runs 5] [--episodes 8] [--delay 0.2] [--simulate]
[--deals 300] [--keys 40] [--only replay,home,tournament]``
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from rich.console import Console
from textual import events
from textual.widgets import OptionList, Static

from arena.app import create_app
from arena.app.replay_data import ReplayData
from arena.app.safe import MAX_BOARD_WIDTH, SafeRenderable, quick_lines
from arena.app.screens.home import HomeScreen
from arena.app.screens.match import MatchScreen
from arena.app.screens.modals import TextScreen
from arena.app.screens.replay import ReplayScreen
from arena.app.screens.tournament import TournamentScreen
from arena.contract.player import Decision, DecisionRequest, Player
from arena.engine.match import MatchConfig, play_match
from arena.store.database import Store
from arena.tournament.config import build_config
from arena.tournament.run import run_tournament

ROOT = Path(__file__).resolve().parent.parent
LAUNCH_CHILD = """
import asyncio, json, sys, time
from pathlib import Path
from arena.app import create_app
from arena.app.screens.home import HomeScreen

async def main() -> None:
    app = create_app(Path(sys.argv[1]), freeze_gc=True)
    marks = {}
    original = app._display

    def display(screen, renderable):
        if renderable is not None:
            marks.setdefault("frame", time.time())
            home = app.screen
            if isinstance(home, HomeScreen) and home.definition is not None and home.query("#seats Select"):
                marks.setdefault("set_up", time.time())
        original(screen, renderable)

    app._display = display
    async with app.run_test(size=(120, 40)) as pilot:
        while "set_up" not in marks:
            await pilot.pause(0.001)
        await pilot.pause()
        print("READY " + json.dumps(marks), flush=True)

asyncio.run(main())
"""


def ms(seconds: float) -> str:
    """``12.3 ms``."""
    return f"{seconds * 1000:.1f} ms"


def summary(values: list[float]) -> str:
    """median, p95 and max of a list of durations."""
    ordered = sorted(v for v in values if v == v)
    missing = len(values) - len(ordered)
    if not ordered:
        return "no measurement"
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    text = f"median {ms(statistics.median(ordered))}, p95 {ms(p95)}, max {ms(ordered[-1])} (n={len(ordered)})"
    return text + (f", {missing} not seen within 5 s" if missing else "")


class PaintClock:
    """Times key press -> screen repainted, by watching the app's screen updates."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.paints: list[float] = []
        self._changed: Callable[[], bool] | None = None
        self._painted: float | None = None
        original = app._display

        def display(screen: Any, renderable: Any) -> None:
            original(screen, renderable)
            if renderable is not None:
                now = time.perf_counter()
                self.paints.append(now)
                if self._painted is None and self._changed is not None and self._changed():
                    self._painted = now

        app._display = display

    async def key(
        self, key: str, changed: Callable[[], bool], limit: float = 5.0, due: float | None = None
    ) -> float:
        """Send ``key`` as the terminal driver would; seconds until the change is painted.

        The answer is the first screen update handed to the driver once ``changed()``
        holds (checked as each update is handed over, so an update of something else
        that came first is not taken for it). ``due`` is when the key arrived (by
        default now): a key that came while the app was busy counts from then.
        """
        started = time.perf_counter() if due is None else due
        self._changed, self._painted = changed, None
        self.app._driver.send_message(events.Key(key, None))
        try:
            while self._painted is None:
                if time.perf_counter() - started > limit:
                    return float("nan")
                await asyncio.sleep(0.0002)
            return self._painted - started
        finally:
            self._changed = None


def home_set_up(app: Any) -> bool:
    """True once the home screen shows its first game's seats (keys are answered before)."""
    home = app.screen
    return isinstance(home, HomeScreen) and home.definition is not None and bool(home.query("#seats Select"))


# -- 1. launch -----------------------------------------------------------------------------
def bench_launch(runs: int, workdir: Path) -> None:
    """Fresh interpreter to the home screen, ``runs`` times: its first frame, then its set-up.

    The first frame is the home screen's layout with the game list focused: keys are
    answered from then on. The games, the engine and pydantic load after it, and the
    set-up (the first game's description, rules, seats and options) is painted next.
    """
    frames, set_ups = [], []
    for run in range(runs):
        started = time.time()
        child = subprocess.Popen(
            [sys.executable, "-c", LAUNCH_CHILD, str(workdir / f"launch{run}.db")],
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        assert child.stdout is not None
        line = child.stdout.readline()
        child.wait()
        if not line.startswith("READY "):
            raise SystemExit(f"launch run {run} failed")
        marks = json.loads(line.removeprefix("READY "))
        frames.append(marks["frame"] - started)
        set_ups.append(marks["set_up"] - started)
    print(f"launch to the home screen's first frame (keys answered): {summary(frames)}")
    print(f"launch to the first game's set-up painted: {summary(set_ups)}")


# -- 2. key presses under load -------------------------------------------------------------
class _SlowChat(BaseHTTPRequestHandler):
    delay = 0.2

    def log_message(self, format: str, *args: Any) -> None:
        return

    def _send(self, body: dict[str, Any]) -> None:
        data = json.dumps(body).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _body(self) -> bytes:
        return self.rfile.read(int(self.headers.get("Content-Length", "0")))

    def do_GET(self) -> None:
        self._send({"object": "list", "data": [{"id": "bench", "object": "model", "owned_by": "bench"}]})

    def do_POST(self) -> None:
        try:
            self._answer()
        except (ValueError, OSError):  # the app cancelled the request (end of the run)
            return

    def _answer(self) -> None:
        body = json.loads(self._body())
        time.sleep(self.delay)
        found = re.search(r"at most (\d+) cups", json.dumps(body["messages"]))
        cups = min(20, int(found.group(1))) if found else 0
        answer = {"price": 3.0, "produce": cups, "promotion": "none", "reason": f"bench: make {cups} cups"}
        self._send(
            {
                "id": "bench",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": "bench",
                "choices": [
                    {
                        "index": 0,
                        "finish_reason": "stop",
                        "message": {"role": "assistant", "content": json.dumps(answer)},
                    }
                ],
                "usage": {"prompt_tokens": 400, "completion_tokens": 30, "total_tokens": 430},
            }
        )


@contextmanager
def slow_server(delay: float) -> Iterator[str]:
    """A local chat-completions server answering after ``delay`` seconds; yields its base URL."""
    _SlowChat.delay = delay
    ThreadingHTTPServer.request_queue_size = 128
    server = ThreadingHTTPServer(("127.0.0.1", 0), _SlowChat)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()


class SleepyStand(Player):
    """A stand-in for a model seat: waits ``delay`` seconds, then makes a legal decision."""

    kind = "model"

    def __init__(self, delay: float) -> None:
        self.spec = "bench:sleepy"
        self.delay = delay

    async def decide(self, request: DecisionRequest) -> Decision:
        """Wait like a slow model, then make a legal decision."""
        await asyncio.sleep(self.delay)
        cups = min(20, int(request.observation.model_dump()["max_affordable_cups"]))
        return Decision(action={"price": 3.0, "produce": cups, "promotion": "none"}, reason="bench")


async def bench_load(episodes: int, delay: float, simulate: bool, workdir: Path) -> None:
    """Key press -> repaint, while ``episodes`` episodes wait on slow model seats."""
    if simulate:
        seat_spec = "bench:sleepy"
        app = create_app(
            workdir / "load.db",
            step_delay=0.0,
            load_models=False,
            freeze_gc=True,
            extra_players={seat_spec: lambda seat: SleepyStand(delay)},
        )
        await _run_load(app, seat_spec, episodes, f"scripted players sleeping {delay:g}s per decision")
        return
    with slow_server(delay) as url:
        app = create_app(workdir / "load.db", step_delay=0.0, load_models=False, freeze_gc=True)
        label = f"openai-compat model players, local server answering in {delay:g}s"
        await _run_load(app, f"openai-compat:bench@{url}", episodes, label)


async def _run_load(app: Any, seat_spec: str, episodes: int, label: str) -> None:
    lags: list[float] = []
    stop = asyncio.Event()

    async def monitor() -> None:
        while not stop.is_set():
            started = time.perf_counter()
            await asyncio.sleep(0.005)
            lags.append(time.perf_counter() - started - 0.005)

    async with app.run_test(size=(120, 40)) as pilot:
        while not isinstance(app.screen, HomeScreen):
            await pilot.pause(0.01)
        matches = [
            app.start_match(
                MatchConfig("lemonade", {"a": seat_spec, "b": seat_spec}, seed=i, options={"days": 200}),
                show=False,
            )
            for i in range(episodes)
        ]
        watched = matches[-1]
        app.watch_match(watched)
        await pilot.pause(1.0)
        if not all(m.running for m in matches):
            failed = [m.data.message for m in matches if not m.running]
            raise SystemExit(f"episodes did not keep running: {failed[:1]}")
        monitor_task = asyncio.create_task(monitor())
        screen = app.screen
        assert isinstance(screen, MatchScreen) and screen.match is watched
        status = screen.query_one("#match-status", Static)

        def status_text() -> str:
            return str(getattr(status.content, "plain", status.content))

        clock = PaintClock(app)
        keys: list[float] = []
        steps_before = sum(m.data.steps_done for m in matches)
        for index in range(40):
            before = status_text()
            key = "minus" if index % 2 == 0 else "plus"
            keys.append(await clock.key(key, lambda before=before: status_text() != before))
            await asyncio.sleep(0.05)
        decided = sum(m.data.steps_done for m in matches) - steps_before
        stop.set()
        await monitor_task
        for match in matches:
            await match.cancel()
    print(f"key -> status line repainted, {episodes} episodes x 2 model seats ({label}):")
    print(f"    {summary(keys)}")
    print(f"    event-loop lag meanwhile: {summary(lags)}; {decided} steps played during the key test")


HELD_KEY_REPEAT = 0.035
"""Seconds between the keys a held key sends (terminals repeat 25-33 times a second)."""


# -- 3. replay -----------------------------------------------------------------------------
async def record_long_episode(db: Path) -> int:
    """A 1,000-turn lemonade episode: 2 stands x 500 days, baselines, recorded to ``db``."""
    store = Store(db)
    config = MatchConfig("lemonade", {"a": "baseline:weather", "b": "baseline:cost-plus"}, seed=7)
    config.options = {"days": 500}
    started = time.perf_counter()
    outcome = await play_match(config, store)
    store.close()
    assert outcome.episode_id is not None
    print(f"recorded episode {outcome.episode_id}: 1000 turns in {ms(time.perf_counter() - started)}")
    return outcome.episode_id


def bench_board_drawing(replay: ReplayData) -> None:
    """A board drawn per step back from 700, by Rich whole and from kept cells (arena.app.table_lines)."""
    console = Console(width=120, force_terminal=True, color_system="truecolor")
    options = console.options.update(highlight=False, markup=False).update_width(MAX_BOARD_WIDTH)
    whole, kept = [], []
    for position in range(700, 600, -1):
        replay.go(position)
        board = replay.render()
        began = time.perf_counter()
        console.render_lines(SafeRenderable(board), options, pad=False)
        whole.append(time.perf_counter() - began)
        began = time.perf_counter()
        assert quick_lines(board, console, options) is not None
        kept.append(time.perf_counter() - began)
    print(f"lemonade board per step, drawn by Rich whole: {summary(whole)}")
    print(f"    its table from kept cells (each new cell drawn by Rich): {summary(kept)}")


async def bench_replay(workdir: Path) -> None:
    """Open the 1,000-turn episode and step through it."""
    db = workdir / "replay.db"
    episode_id = await record_long_episode(db)

    store = Store(db)
    started = time.perf_counter()
    replay = ReplayData.load(store, episode_id)
    replay.render()
    print(f"ReplayData.load + first render (plain object): {ms(time.perf_counter() - started)}")
    bench_board_drawing(replay)
    store.close()

    app = create_app(db, replay=episode_id, load_models=False, freeze_gc=True)
    async with app.run_test(size=(120, 40)) as pilot:
        started = time.perf_counter()
        while not isinstance(app.screen, ReplayScreen):
            await pilot.pause(0.001)
        await pilot.pause()
        print(f"app start to replay screen shown (1000 turns): {ms(time.perf_counter() - started)}")
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        clock = PaintClock(app)

        async def step(key: str, due: float | None = None) -> float:
            before = screen.data.position
            return await clock.key(key, lambda: screen.data.position != before, due=due)

        forward = [await step("right") for _ in range(100)]
        print(f"step forward (right), key to repainted: {summary(forward)}")
        end = await step("end")
        back = [await step("left") for _ in range(100)]
        print(f"jump to the end: {ms(end)}; step back from the end (left): {summary(back)}")
        home = await step("home")
        print(f"jump to the start (home): {ms(home)}")
        # Keys as a held key repeats them (every 35 ms), arriving whatever the app is doing:
        # each counts from when it was due, so work the app does between keys is counted.
        for key, start in (("right", 400), ("left", 700)):
            screen.data.go(start)
            screen.show()
            await pilot.pause()
            began = time.perf_counter()
            paced = []
            for index in range(100):
                due = began + index * HELD_KEY_REPEAT
                await asyncio.sleep(max(0.0, due - time.perf_counter()))
                paced.append(await step(key, due))
            print(f"step {key} from {start}, a key every {ms(HELD_KEY_REPEAT)} as held: {summary(paced)}")
        jumps = []
        for position in (250, 499, 3, 377, 120, 480, 61, 333):
            began = time.perf_counter()
            screen.data.go(position)
            screen.data.game()
            jumps.append(time.perf_counter() - began)
        print(f"ReplayData jump to an arbitrary step (snapshots cached): {summary(jumps)}")


# -- 4. home -------------------------------------------------------------------------------
def shows(home: HomeScreen, name: str | None) -> Callable[[], bool]:
    """A check: the home screen shows game ``name``'s whole set-up."""

    def settled() -> bool:
        shown = home.definition
        return shown is not None and shown.name == name and not home._settling()

    return settled


async def bench_home(workdir: Path) -> None:
    """Down the home screen's game list: key -> that game's set-up painted, then as a held key."""
    for size in ((120, 40), (80, 24)):
        app = create_app(workdir / "home.db", load_models=False, freeze_gc=True)
        async with app.run_test(size=size) as pilot:
            while not home_set_up(app):
                await pilot.pause(0.01)
            await pilot.pause()
            home = app.screen
            assert isinstance(home, HomeScreen)
            games = home.query_one("#games", OptionList)
            names = [games.get_option_at_index(i).id for i in range(games.option_count)]
            clock = PaintClock(app)

            singles = []
            for index in range(1, min(len(names), 14)):
                singles.append(await clock.key("down", shows(home, names[index])))
                await pilot.pause()
            label = f"{size[0]}x{size[1]}"
            print(f"home {label}, key down the game list -> next game's set-up painted: {summary(singles)}")
            await clock.key("home", shows(home, names[0]))
            await pilot.pause()
            # Held: a key every 35 ms, as a terminal repeats a held key, down 12 games.
            began = time.perf_counter()
            cpu = time.process_time()
            target = names[12]
            driver = app._driver
            assert driver is not None
            for index in range(12):
                due = began + index * HELD_KEY_REPEAT
                await asyncio.sleep(max(0.0, due - time.perf_counter()))
                driver.send_message(events.Key("down", None))
            last_key = time.perf_counter()
            settled = shows(home, target)
            while not settled():
                await asyncio.sleep(0.0005)
            await pilot.pause()
            done = time.perf_counter()
            print(
                f"home {label}, down held over 12 games (a key every {ms(HELD_KEY_REPEAT)}): "
                f"{target} set up {ms(done - last_key)} after the last key, "
                f"{ms(done - began)} in all, {time.process_time() - cpu:.2f} CPU s"
            )


# -- 5. tournament -------------------------------------------------------------------------
async def bench_tournament(deals: int, presses: int, workdir: Path) -> None:
    """Key -> repaint while the app plays a baseline tournament on its own loop, live tables shown."""
    players = ("baseline:honest", "baseline:bluffing", "baseline:pushover")
    config = build_config(game="bargain", players=players, seeds=deals, seed=1)
    store = Store(workdir / "direct.db")
    started = time.perf_counter()
    progress = await run_tournament(store, config)
    headless = time.perf_counter() - started
    store.close()
    print(f"the tournament headless ({progress.done} bargain episodes, 3 players): {ms(headless)}")
    app = create_app(workdir / "tournament.db", load_models=False, freeze_gc=True)
    async with app.run_test(size=(120, 40)) as pilot:
        # As a person starts one: from a home screen that has set up its first game (started
        # sooner, the first key also waited for that set-up: the games' import, ~1.1 s).
        while not home_set_up(app):
            await pilot.pause(0.01)
        started = time.perf_counter()
        job = app.start_tournament(config)
        screen = app.screen
        assert isinstance(screen, TournamentScreen)
        clock = PaintClock(app)
        keys: list[float] = []
        shown_at: int | None = None
        while job.running and len(keys) < presses:
            opening = not isinstance(app.screen, TextScreen)
            if shown_at is None and screen.is_mounted and clock.paints:
                shown_at = len(keys)

            def shown(opening: bool = opening) -> bool:
                return isinstance(app.screen, TextScreen) == opening

            keys.append(await clock.key("f1" if opening else "escape", shown))
        await job.wait()
        took = time.perf_counter() - started
        tables = screen.policy.last_seconds
        held = app.input_priority.held
    print(
        f"the same tournament in the app (its own loop, live leaderboard): {job.status} in {ms(took)}, "
        f"{job.progress.done} episodes; last table recomputation {ms(tables)} (in a worker thread); "
        f"episodes held for input {held} times"
    )
    print(f"    key -> help opened/closed and repainted meanwhile: {summary(keys)}")
    later = keys[shown_at:] if shown_at is not None else []
    print(
        f"    the same, only keys pressed once the tournament screen had painted (the first {shown_at} "
        f"came while it was still being built): {summary(later)}"
    )


SECTIONS = ("launch", "load", "replay", "home", "tournament")


def main() -> None:
    """Run the five benchmarks (or those ``--only`` names) and print their figures."""
    parser = argparse.ArgumentParser(description="How responsive the Arena app is.")
    parser.add_argument("--runs", type=int, default=5, help="launch measurements")
    parser.add_argument("--episodes", type=int, default=8, help="episodes running during the key test")
    parser.add_argument("--delay", type=float, default=0.2, help="seconds per model reply")
    parser.add_argument("--simulate", action="store_true", help="scripted sleeping players instead of HTTP")
    parser.add_argument("--deals", type=int, default=300, help="deal seeds of the tournament test")
    parser.add_argument("--keys", type=int, default=40, help="most keys pressed in the tournament test")
    parser.add_argument(
        "--only",
        default=",".join(SECTIONS),
        help=f"comma-separated sections to run, of {', '.join(SECTIONS)} (default: all)",
    )
    args = parser.parse_args()
    chosen = [name.strip() for name in args.only.split(",") if name.strip()]
    unknown = sorted(set(chosen) - set(SECTIONS))
    if unknown:
        parser.error(f"unknown section(s): {', '.join(unknown)}")
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        if "launch" in chosen:
            bench_launch(args.runs, workdir)
        if "load" in chosen:
            asyncio.run(bench_load(args.episodes, args.delay, args.simulate, workdir))
        if "replay" in chosen:
            asyncio.run(bench_replay(workdir))
        if "home" in chosen:
            asyncio.run(bench_home(workdir))
        if "tournament" in chosen:
            asyncio.run(bench_tournament(args.deals, args.keys, workdir))


if __name__ == "__main__":
    main()
