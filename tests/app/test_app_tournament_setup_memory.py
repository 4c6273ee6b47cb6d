"""The tournament set-up screen keeps each game's set-up: for the session, and the last one started
for the next app on the same database (in the home screen's ``arena.setups.json``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input, OptionList, Select, Static

from arena.app import create_app
from arena.app.app import ArenaApp
from arena.app.home_data import MatchDraft, default_seats, seat_options
from arena.app.model_catalog import ModelCatalog
from arena.app.screens.home import HomeScreen
from arena.app.screens.tournament import TournamentScreen
from arena.app.screens.tournament_setup import TournamentSetupScreen
from arena.app.setup_memory import Setup, SetupMemory, TournamentSetup, setups_path
from arena.app.tournament_data import TournamentDraft
from arena.plugins.games import get_game
from arena.store.database import Store
from arena.tournament.standings import tournament_table
from tests.support.app_driving import pick_game, pick_option, render_plain, started, wait_until
from tests.support.wire_server import WireServer, reply

SIZES = ((80, 24), (160, 48))
PLAYERS = ("baseline:honest", "baseline:pushover")


def setup_screen(app: ArenaApp) -> TournamentSetupScreen:
    """The tournament set-up screen on top."""
    screen = app.screen
    assert isinstance(screen, TournamentSetupScreen)
    return screen


async def open_alone(pilot: Any, app: ArenaApp) -> TournamentSetupScreen:
    """Open the tournament set-up on its own (as the tournament list's ctrl+n does); wait for its fields."""
    app.open_tournament_setup()
    await wait_until(pilot, lambda: isinstance(app.screen, TournamentSetupScreen), "the set-up")
    screen = setup_screen(app)
    await wait_until(
        pilot, lambda: bool(screen.query("#tf-seeds")) and screen.draft is not None, "its fields"
    )
    return screen


async def type_into(pilot: Any, app: ArenaApp, selector: str, value: str) -> None:
    """Replace the text of the input ``selector`` from the keyboard."""
    box = app.screen.query_one(selector, Input)
    box.focus()
    await pilot.pause()
    await pilot.press("end", *["backspace"] * len(box.value), *value)
    await wait_until(pilot, lambda: box.value == value, f"{selector} = {value}")


async def choose_game(pilot: Any, app: ArenaApp, name: str) -> None:
    """Pick ``name`` in the set-up's game list with the keyboard and wait for its fields."""
    screen = setup_screen(app)
    control = screen.query_one("#t-game", Select)
    control.focus()
    await pilot.pause()
    await pick_option(pilot, control, name)

    def shown() -> bool:
        draft = screen.draft
        return draft is not None and draft.definition.name == name and bool(screen.query("#tf-opt-0"))

    await wait_until(pilot, shown, f"the {name} set-up")


def shown_players(screen: TournamentSetupScreen) -> list[str]:
    """The players the set-up's list shows, without their marks."""
    box = screen.query_one("#t-players", OptionList)
    labels = [render_plain(box.get_option_at_index(i).prompt).strip() for i in range(box.option_count)]
    return [label.removeprefix("✓ ").split("  ")[0] for label in labels]


def shown_fields(screen: TournamentSetupScreen) -> dict[str, str]:
    """The deal seeds, name and first option as the set-up's fields show them."""
    return {
        "seeds": screen.query_one("#tf-seeds", Input).value,
        "name": screen.query_one("#tf-name", Input).value,
        "option": screen.query_one("#tf-opt-0", Input).value,
    }


async def set_up_players(pilot: Any, app: ArenaApp, players: tuple[str, ...]) -> None:
    """Remove every player of the set-up, then type each of ``players`` into the add box."""
    screen = setup_screen(app)
    box = screen.query_one("#t-players", OptionList)
    box.focus()
    await pilot.pause()

    def count() -> int:
        return len(screen.draft.players) if screen.draft is not None else 0

    while count():
        before = count()
        await pilot.press("delete")
        await wait_until(pilot, lambda: count() < before, "one player gone")  # noqa: B023 (awaited here)
    for spec in players:
        await type_into(pilot, app, "#t-new", spec)
        await pilot.press("enter")
        await wait_until(pilot, lambda: spec in (screen.draft.players if screen.draft else []), spec)  # noqa: B023


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
async def test_a_started_tournaments_set_up_opens_the_next_app_on_that_database(
    app_db: Path, size: tuple[int, int]
) -> None:
    other = SIZES[1] if size == SIZES[0] else SIZES[0]
    first = create_app(app_db, load_models=False)
    async with started(first, size=size) as pilot:
        await open_alone(pilot, first)
        await choose_game(pilot, first, "bargain")
        await set_up_players(pilot, first, PLAYERS)
        await type_into(pilot, first, "#tf-seeds", "1")
        await type_into(pilot, first, "#tf-name", "kept")
        await type_into(pilot, first, "#tf-opt-0", "5")
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(first.screen, TournamentScreen), "the tournament")
        await wait_until(pilot, lambda: not first.tournaments.running(), "the tournament to end")

    path = setups_path(app_db)
    assert path is not None
    stored = json.loads(path.read_text(encoding="utf-8"))
    assert stored["last_tournament_game"] == "bargain"
    assert stored["tournaments"]["bargain"]["players"] == list(PLAYERS)

    second = create_app(app_db, load_models=False)
    async with started(second, size=other) as pilot:
        screen = await open_alone(pilot, second)
        assert screen.query_one("#t-game", Select).value == "bargain", "the game of the last tournament"
        assert shown_players(screen) == list(PLAYERS)
        assert shown_fields(screen) == {"seeds": "1", "name": "kept", "option": "5"}
        # This session: lemonade given other seeds, then bargain and back; both keep theirs.
        await choose_game(pilot, second, "lemonade")
        await type_into(pilot, second, "#tf-seeds", "7")
        await choose_game(pilot, second, "bargain")
        assert shown_players(screen) == list(PLAYERS) and shown_fields(screen)["seeds"] == "1"
        await choose_game(pilot, second, "lemonade")
        assert shown_fields(screen)["seeds"] == "7"
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(second.screen, HomeScreen), "home")
        # From the home screen's bargain, left at its defaults: the tournament kept for bargain.
        await pick_game(pilot, second, "bargain")
        await pilot.press("ctrl+r")
        await wait_until(pilot, lambda: isinstance(second.screen, TournamentSetupScreen), "the set-up")
        screen = setup_screen(second)
        await wait_until(pilot, lambda: bool(screen.query("#tf-opt-0")), "its fields")
        assert shown_players(screen) == list(PLAYERS)
        assert shown_fields(screen) == {"seeds": "1", "name": "kept", "option": "5"}

    elsewhere = create_app(app_db.with_name("other.db"), load_models=False)
    async with started(elsewhere, size=other) as pilot:
        screen = await open_alone(pilot, elsewhere)
        assert screen.query_one("#t-game", Select).value != "bargain", "another database keeps its own"


def test_the_file_keeps_the_home_screens_keys_and_old_files_still_load(tmp_path: Path) -> None:
    path = setups_path(tmp_path / "arena.db")
    assert path is not None
    # A file as the home screen wrote it before tournaments were kept.
    old = {"games": {"lemonade": Setup(options={"days": "3"}).as_json()}, "last_game": "lemonade"}
    path.write_text(json.dumps(old), encoding="utf-8")
    memory = SetupMemory(path)
    assert memory.recall("lemonade") == Setup(options={"days": "3"}) and memory.last_game() == "lemonade"
    assert memory.recall_tournament("lemonade") is None and memory.last_tournament_game() is None

    SetupMemory(path).tournament_used("bargain", TournamentSetup(players=PLAYERS, seeds="2"))
    SetupMemory(path).used("paperclip", Setup(seed="4", seed_given=True))
    stored = json.loads(path.read_text(encoding="utf-8"))
    assert stored["last_game"] == "paperclip" and stored["last_tournament_game"] == "bargain"
    assert set(stored["games"]) == {"lemonade", "paperclip"}, "a tournament write keeps the matches'"
    fresh = SetupMemory(path)
    assert fresh.recall_tournament("bargain") == TournamentSetup(players=PLAYERS, seeds="2")
    assert fresh.recall("lemonade") == Setup(options={"days": "3"})
    assert list(tmp_path.glob("*.tmp")) == []

    # An entry edited into something else is no set-up; the rest of the file still reads.
    stored["tournaments"]["lemonade"] = {"players": "baseline:weather"}
    path.write_text(json.dumps(stored), encoding="utf-8")
    assert SetupMemory(path).recall_tournament("lemonade") is None
    assert SetupMemory(path).recall_tournament("bargain") is not None


def test_a_kept_player_no_list_offers_comes_back_typed_and_an_unparsable_one_is_dropped() -> None:
    served = "openai-compat:gemma@http://127.0.0.1:8093/v1"
    kept = TournamentSetup(
        players=("baseline:honest", served, "no such:spec:at all"),
        options={"rounds": "5", "gone": "1"},
        seeds="3",
        seed="9",
        concurrency="2",
        name="n",
        cluster="",
    )
    draft = TournamentDraft(get_game("bargain"))
    draft.restore(kept)
    assert draft.players == ["baseline:honest", served]
    assert draft.options == {"rounds": "5"}, "an option the game no longer has is left out"
    assert (draft.seeds, draft.seed, draft.concurrency, draft.name) == ("3", "9", "2", "n")
    assert draft.setup() == TournamentSetup(
        players=("baseline:honest", served),
        options={"rounds": "5"},
        seeds="3",
        seed="9",
        concurrency="2",
        name="n",
    )


def test_from_the_home_screen_what_was_changed_there_goes_on_top_of_the_kept_set_up() -> None:
    definition = get_game("bargain")
    choices = seat_options(definition, ModelCatalog(loaded=True))
    defaults = default_seats(definition.default_seats, choices)
    kept = TournamentSetup(players=PLAYERS, seeds="3", seed="9", concurrency="2", options={"rounds": "5"})

    untouched = MatchDraft(definition, seats=dict(defaults))
    draft = TournamentDraft.from_match(untouched, "10", kept, defaults)
    assert draft.setup() == kept, "home left at its defaults: the kept set-up as it was"

    changed = MatchDraft(
        definition, seats={**defaults, "buyer": "baseline:random"}, seed="4", seed_given=True
    )
    changed.options["rounds"] = "6"
    draft = TournamentDraft.from_match(changed, "12", kept, defaults)
    assert draft.players == [*PLAYERS, "baseline:random"]
    assert (draft.seeds, draft.seed, draft.options["rounds"], draft.concurrency) == ("12", "4", "6", "2")

    # Nothing kept: the home screen's set-up, as before.
    draft = TournamentDraft.from_match(untouched, "10")
    assert draft.players == list(defaults.values()) and draft.seeds == "10"


async def test_the_invalid_move_policy_is_chosen_by_keys_run_as_the_cli_runs_it_and_kept(
    app_db: Path,
) -> None:
    """Issue 42.2 in the app: ``forfeit`` chosen in the set-up reaches the stored tournament, a model
    answering prose twice forfeits its episode, and the next set-up of the game opens on it."""
    good = reply({"price": 3.0, "produce": 20, "promotion": "none", "reason": "steady"})
    words = reply("I would set a fair price and keep steady stock, nothing more to add.")
    with WireServer() as wire:
        # The model's first episode: day 1 answered, day 2 prose and prose again on the re-ask.
        wire.script(good, words, words)
        wire.responder = lambda body: good  # every later decision answered
        model = f"openai-compat:test-model@{wire.openai_url}"
        app = create_app(app_db, load_models=False)
        async with started(app, size=(80, 24)) as pilot:
            screen = await open_alone(pilot, app)
            await choose_game(pilot, app, "lemonade")
            await set_up_players(pilot, app, (model, "baseline:weather"))
            await type_into(pilot, app, "#tf-seeds", "1")
            await type_into(pilot, app, "#tf-concurrency", "1")  # the script is consumed in order
            await type_into(pilot, app, "#tf-opt-0", "3")
            policy = screen.query_one("#tf-on_invalid", Select)
            assert policy.value == "fallback", "the default, as the CLI's"
            policy.focus()
            await pilot.pause()
            await pick_option(pilot, policy, "forfeit")
            await wait_until(
                pilot, lambda: screen.draft is not None and screen.draft.on_invalid == "forfeit", "forfeit"
            )
            summary = render_plain(screen.query_one("#t-summary", Static).content, 400)
            assert "2 episodes" in summary and "invalid answer: forfeit" in summary
            await pilot.press("ctrl+s")
            await wait_until(pilot, lambda: isinstance(app.screen, TournamentScreen), "the tournament")
            await wait_until(pilot, lambda: not app.tournaments.running(), "the tournament to end")
            job = app.tournaments.jobs[0]
            assert job.status == "finished", job.error

    store = Store(app_db)
    try:
        row = store.tournament(job.tournament_id)
        assert row is not None and row["config"]["on_invalid"] == "forfeit"
        messages = [m for (m,) in store.conn.execute("SELECT message FROM episodes ORDER BY id")]
        table = tournament_table(store, job.tournament_id, resamples=20)
    finally:
        store.close()
    assert len(messages) == 2 and "forfeited at step 2" in messages[0], messages
    assert table["tournament"]["on_invalid"] == "forfeit"
    assert table["failures"]["per_player"][model]["forfeited"] == 1

    path = setups_path(app_db)
    assert path is not None
    assert json.loads(path.read_text(encoding="utf-8"))["tournaments"]["lemonade"]["on_invalid"] == "forfeit"
    again = create_app(app_db, load_models=False)
    async with started(again, size=(160, 48)) as pilot:
        screen = await open_alone(pilot, again)
        assert screen.query_one("#tf-on_invalid", Select).value == "forfeit"
        assert "invalid answer: forfeit" in render_plain(screen.query_one("#t-summary", Static).content, 400)


def test_from_a_home_screen_with_a_person_seated_the_set_up_starts_without_errors() -> None:
    """The person's seat and its blank (secret) seed are not carried into a tournament."""
    definition = get_game("bargain")
    catalog = ModelCatalog(loaded=True)
    home = MatchDraft(definition, seats={"seller": "human", "buyer": "baseline:bluffing"}, seed="")
    draft = TournamentDraft.from_match(home, "10")
    assert "human" not in draft.players and "baseline:bluffing" in draft.players
    assert draft.seed.strip(), "the master seed keeps its default"
    errors = draft.errors(catalog)
    assert not any("human" in text or "master seed" in text for text in errors.values()), errors
