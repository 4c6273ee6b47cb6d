"""The engine and the games import neither Textual nor any model SDK (DESIGN principle 5), and
each command imports only what it needs, so it starts fast.

import-linter checks which module may import which; it cannot see an import made at run time,
nor that a module imported lazily stays unimported on a given path. These tests run the real
command in a fresh interpreter and read ``sys.modules`` afterwards (no timing: the guard is
what is loaded, which does not depend on how busy the machine is).
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from arena.engine.match import MatchConfig, play_match
from arena.store.database import Store
from arena.store.migrations import MIGRATIONS

CORE_MODULES = [
    "arena.contract.game",
    "arena.contract.player",
    "arena.engine.runner",
    "arena.store.database",
    "arena.engine.recorder",
    "arena.engine.match",
    "arena.tournament.run",
    "arena.engine.export",
    "arena.cli.main",
    "games.lemonade",
    "games.bargain",
]
FORBIDDEN = ["textual", "openai", "anthropic", "llama_cpp_py_sync"]


@pytest.mark.parametrize("module", CORE_MODULES)
def test_core_module_imports_no_tui_and_no_sdk(module: str) -> None:
    code = f"import sys, json, {module}\nprint(json.dumps([m for m in {FORBIDDEN!r} if m in sys.modules]))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(result.stdout) == [], f"{module} pulls in {result.stdout.strip()}"


def test_the_game_can_be_played_without_the_sdks_loaded() -> None:
    code = (
        "import asyncio, sys, json\n"
        "from arena.engine.match import MatchConfig, play_match\n"
        "seats = {'a': 'baseline:weather', 'b': 'baseline:random'}\n"
        "asyncio.run(play_match(MatchConfig('lemonade', seats), None))\n"
        f"print(json.dumps([m for m in {FORBIDDEN!r} if m in sys.modules]))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(result.stdout) == []


def test_creating_and_migrating_a_database_needs_neither_sqlite_utils_nor_numpy(tmp_path: Path) -> None:
    code = (
        "import json, sys\n"
        "from arena.store.database import Store\n"
        "Store(sys.argv[1]).close()\n"
        "print(json.dumps(sorted(sys.modules)))"
    )
    db = tmp_path / "new.db"
    command = [sys.executable, "-c", code, str(db)]
    result = subprocess.run(command, capture_output=True, text=True, check=True, cwd=tmp_path)
    assert within(json.loads(result.stdout), ("sqlite_utils", "numpy", "pydantic")) == []
    store = Store(db)
    assert store.schema_version() == len(MIGRATIONS)
    store.close()


# Runs ``arena ARGV...`` in-process, then writes every loaded module's name to the file named
# first (--help ends argparse's way, with SystemExit).
RUN_COMMAND = """
import json, sys
from arena.cli.main import main
out, argv = sys.argv[1], sys.argv[2:]
try:
    code = main(argv)
except SystemExit as exc:
    code = exc.code
with open(out, "w") as handle:
    json.dump({"code": code, "modules": sorted(sys.modules)}, handle)
"""
HEAVY = ("numpy", "sqlite_utils", "textual", "rich", "openai", "anthropic", "llama_cpp_py_sync", "players")
"""What no listing needs: numpy, sqlite-utils, the front-end libraries, the SDKs and the players."""
GAME_INTERNALS = tuple(
    f"games.{game}.{part}"
    for game in ("lemonade", "bargain", "paperclip")
    for part in ("game", "baselines", "render")
)
"""A game's state, baselines and view: playing needs them, listing the games does not."""
OBSERVATIONS = (
    *(f"games.{game}.observation" for game in ("lemonade", "bargain", "paperclip", "cattle")),
    "games.openspiel_catalogue.models",
)
"""What a seat is shown (pydantic models): a prompt needs them, the listing's facts do not."""


def loaded_by(tmp_path: Path, *argv: str, db: Path | None = None) -> list[str]:
    """The modules ``arena ARGV`` has loaded when it ends (it must succeed)."""
    out = tmp_path / "modules.json"
    command = [sys.executable, "-c", RUN_COMMAND, str(out), *(["--db", str(db)] if db else []), *argv]
    subprocess.run(command, capture_output=True, text=True, check=True, cwd=tmp_path)
    found = json.loads(out.read_text())
    assert found["code"] == 0
    modules: list[str] = found["modules"]
    return modules


def within(modules: list[str], packages: tuple[str, ...]) -> list[str]:
    """The modules that are one of ``packages`` or inside one."""
    return [m for m in modules if any(m == p or m.startswith(f"{p}.") for p in packages)]


def test_help_loads_no_game_store_tournament_or_pydantic(tmp_path: Path) -> None:
    modules = loaded_by(tmp_path, "--help")
    unwanted = (
        *HEAVY,
        "pydantic",
        "games",
        "arena.plugins.games",
        "arena.store.database",
        "arena.tournament",
        "asyncio",
    )
    assert within(modules, unwanted) == []


def test_games_reads_the_definitions_without_the_games_state_baselines_or_views(tmp_path: Path) -> None:
    modules = loaded_by(tmp_path, "games")
    assert {"games.lemonade.definition", "games.bargain.definition", "games.paperclip.definition"} <= set(
        modules
    )
    assert (
        within(
            modules,
            (
                *HEAVY,
                *GAME_INTERNALS,
                *OBSERVATIONS,
                "arena.store.database",
                "arena.tournament",
                "arena.contract.player",
            ),
        )
        == []
    )


def test_episodes_reads_with_sqlite3_alone(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    store = Store(db)
    seats = {"a": "baseline:weather", "b": "baseline:cost-plus"}
    asyncio.run(play_match(MatchConfig("lemonade", seats, options={"days": 2}), store))
    store.close()
    modules = loaded_by(tmp_path, "episodes", db=db)
    assert "sqlite3" in modules and "arena.store.database" in modules
    assert within(modules, (*HEAVY, "pydantic", "games", "arena.plugins.games", "arena.tournament")) == []


# The app up to its home screen showing the first game's set-up, on a new database (created
# and migrated on the way). The models file is read after that paint.
APP_HOME = """
import asyncio, json, sys
from pathlib import Path
from arena.app import create_app
from arena.app.screens.home import HomeScreen

async def main() -> None:
    app = create_app(Path(sys.argv[1]), load_models=False)
    async with app.run_test(size=(120, 40)) as pilot:
        while not (isinstance(app.screen, HomeScreen) and app.screen.query("#seats Select")):
            await pilot.pause(0.01)
        print(json.dumps(sorted(sys.modules)))

asyncio.run(main())
"""


def test_the_app_sets_up_its_first_game_without_other_screens_the_match_engine_or_the_models(
    tmp_path: Path,
) -> None:
    command = [sys.executable, "-c", APP_HOME, str(tmp_path / "arena.db")]
    result = subprocess.run(command, capture_output=True, text=True, check=True, cwd=tmp_path)
    modules = json.loads(result.stdout.strip().splitlines()[-1])
    assert "textual" in modules and "arena.app.screens.home" in modules
    later = (
        "numpy",
        "sqlite_utils",
        "players",
        "openai",
        "anthropic",
        "arena.app.screens.tournament",
        "arena.app.screens.replay",
        "arena.app.screens.episodes",
        "arena.app.screens.match",
        "arena.tournament.standings",
        # the match engine (runner, recorder) and the match manager load when a match starts
        "arena.engine.match",
        "arena.engine.runner",
        "arena.app.live",
    )
    assert within(modules, later) == []


# The home screen's first frame: the moment the app first hands the driver a screen.
APP_FIRST_FRAME = """
import asyncio, json, sys
from pathlib import Path
from arena.app import create_app

async def main() -> None:
    app = create_app(Path(sys.argv[1]), load_models=False)
    first = []
    original = app._display

    def display(screen, renderable):
        if renderable is not None and not first:
            first.append(sorted(sys.modules))
        original(screen, renderable)

    app._display = display
    async with app.run_test(size=(120, 40)) as pilot:
        while not first:
            await pilot.pause(0.01)
    print(json.dumps(first[0]))

asyncio.run(main())
"""


def test_the_home_screens_first_frame_comes_before_the_games_the_engine_and_pydantic(tmp_path: Path) -> None:
    # Half the start-up is importing the games, the engine and pydantic: the frame (keys
    # answered) is painted without them, and the games load after it.
    command = [sys.executable, "-c", APP_FIRST_FRAME, str(tmp_path / "arena.db")]
    result = subprocess.run(command, capture_output=True, text=True, check=True, cwd=tmp_path)
    modules = json.loads(result.stdout.strip().splitlines()[-1])
    assert "arena.app.screens.home" in modules and "arena.store.database" in modules
    later = (
        "pydantic",
        "games",
        "arena.engine",
        "arena.contract.game",
        "arena.plugins.games",
        "arena.app.live",
    )
    assert within(modules, later) == []


def test_listing_which_models_can_play_loads_no_http_client_without_model_entries(tmp_path: Path) -> None:
    # What the app does in the background once its home screen is painted: with no models
    # file only the built-in local model is checked, for its package, without any client.
    code = (
        "import asyncio, json, sys\n"
        "from arena.app.model_catalog import load_model_catalog\n"
        "catalog = asyncio.run(load_model_catalog())\n"
        "print(json.dumps([catalog.loaded, catalog.error, sorted(sys.modules)]))"
    )
    env = {key: value for key, value in os.environ.items() if key != "ARENA_MODELS"}
    env["HOME"] = str(tmp_path)  # no ~/.config/arena/models.toml, and cwd has no arena-models.toml
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=tmp_path, env=env
    )
    loaded, error, modules = json.loads(result.stdout)
    assert loaded and error is None and "players.models" in modules
    assert within(modules, ("httpx2", "httpx", "openai", "anthropic", "llama_cpp_py_sync")) == []


# Every provider plugin and its kind loaded, one spec of each parsed and resolved with the
# provider's defaults, and the lines `arena models` prints for them: no SDK, no HTTP client.
# Then each player is built in turn: only its own SDK is imported, at that moment.
PROVIDERS_LOADED = """
import json, sys
from arena.plugins.players import player_kinds
from arena.plugins.players import parse_player_spec
from players.models import ModelsConfig
from players.models.factory import player_for
from players.providers import providers
SDKS = ("openai", "anthropic", "llama_cpp_py_sync", "httpx2")
loaded = lambda: [m for m in SDKS if m in sys.modules]
specs = ["openai:m", "anthropic:m", "openai-compat:m@http://127.0.0.1:1/v1", "local:gemma3-270m"]
resolved = [ModelsConfig().resolve(parse_player_spec(spec)) for spec in specs]
lines = [line for kind in player_kinds().values() for line in kind.status_lines()]
steps = {"listed": [sorted(providers()), loaded()]}
for text, settings in resolved:
    player_for(text, settings, seed=0)
    steps[settings.provider] = loaded()
print(json.dumps(steps))
"""


def test_providers_load_parse_and_resolve_without_their_sdks_which_come_with_a_player() -> None:
    result = subprocess.run(
        [sys.executable, "-c", PROVIDERS_LOADED], capture_output=True, text=True, check=True
    )
    steps = json.loads(result.stdout)
    assert steps["listed"] == [["anthropic", "local", "openai", "openai-compat"], []]
    assert steps["openai"] == ["openai", "httpx2"]  # the SDK brings its HTTP client
    assert steps["anthropic"] == ["openai", "anthropic", "httpx2"]
    assert steps["local"] == steps["anthropic"]  # llama.cpp loads when the model does (prepare)
