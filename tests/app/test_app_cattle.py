"""Cattle Trade in the app: a person wins an auction, pays with named cards and challenges (Pilot);
a stored five-seat episode replayed step by step in each seat's view and the full view.

The home screen sets up three seats (the players option), the person takes p1 against two
baselines, and every move is typed into the real form key by key: choices by their letter, the
lists (target, species) by searching them, the cards field cleared and typed, watching the
running total beside it change as each key lands. The plan is
:class:`~tests.support.cattle_person.CattlePerson`, read off the seat's observation.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.widgets import Input, Select, Static
from textual.widgets._select import SelectOverlay

from arena.app import create_app
from arena.app.screens.modals import ConfirmScreen
from arena.app.screens.replay import ReplayScreen
from arena.app.widgets.choice_set import ChoiceSet
from arena.app.widgets.human_form import HumanForm
from arena.engine.match import MatchConfig, play_match
from arena.store.database import Store
from games.cattle.actions import SEAT_NAMES
from games.cattle.cards import count_cards, show
from games.cattle.observation import CattleObservation
from tests.support.app_driving import choose_seat, pick_game, render_plain, started, wait_until
from tests.support.cattle_person import NOT_HELD, CattlePerson
from tests.support.episodes import stored_turns

SEATS = ("human", "baseline:cautious", "baseline:random")
SEED = 3


def note(form: HumanForm, name: str) -> str:
    """The line shown beside field ``name``."""
    index = next(i for i, spec in enumerate(form.form.fields) if spec.name == name)
    return render_plain(form.query_one(f"#err-{index}", Static).content).strip()


async def set_players(pilot: Any, app: Any, count: int) -> None:
    """Type the players option and wait for that many seat lists."""
    players = app.screen.query_one("#opt-0", Input)
    app.screen.set_focus(players)
    await pilot.press("end", "ctrl+u", str(count))
    await wait_until(pilot, lambda: len(app.screen.query("#seats Select")) == count, f"{count} seats")


async def type_entry(pilot: Any, form: HumanForm, name: str, text: str) -> None:
    """Put ``text`` in field ``name`` with the keys a person would press."""
    index = next(i for i, spec in enumerate(form.form.fields) if spec.name == name)
    control = form.query_one(f"#field-{index}")
    form.screen.set_focus(control)
    await pilot.pause()
    if isinstance(control, ChoiceSet):
        await pilot.press(text[0])
        await wait_until(pilot, lambda: form.form.entries[name] == text, f"{name} chosen as {text}")
    elif isinstance(control, Select):
        await pick_option(pilot, control, text)
        await wait_until(pilot, lambda: form.form.entries[name] == text, f"{name} picked as {text}")
    else:
        assert isinstance(control, Input)
        await pilot.press("end", "ctrl+u", *text)
        await wait_until(pilot, lambda: form.form.entries[name] == text, f"{name} typed as {text}")


async def pick_option(pilot: Any, control: Select[Any], text: str) -> None:
    """Open the list and walk it with the arrow keys to ``text``, then take it.

    Not by typing the name: Textual's list forgets typed letters 0.7 s after the last one,
    which a loaded machine can take between two keys, and then "dog" finds what "g" starts.
    """
    await pilot.press("enter")
    overlay = control.query_one(SelectOverlay)
    await wait_until(pilot, lambda: control.expanded and overlay.highlighted is not None, "the list open")
    for _ in range(overlay.option_count):
        index = overlay.highlighted
        assert index is not None
        if str(overlay.get_option_at_index(index).prompt) == text:
            await pilot.press("enter")
            return
        await pilot.press("down")
    raise AssertionError(f"{text!r} is not in the list")


def handed_over(turn: Any) -> Callable[[], bool]:
    """True once ``turn``'s move has gone to the runner."""
    return lambda: bool(turn.done)


async def next_open_form(pilot: Any, app: Any, after: object) -> HumanForm:
    """The person's next form (not the one for turn ``after``), once it is open."""

    def ready() -> bool:
        forms = app.screen.query(HumanForm)
        return bool(forms) and forms.first().turn is not after and not forms.first().turn.done

    await wait_until(pilot, ready, "the person's next form")
    form: HumanForm = app.screen.query_one(HumanForm)
    return form


async def test_a_person_in_the_app_wins_an_auction_pays_and_challenges(app_db: Path) -> None:
    app = create_app(app_db, load_models=False)
    plan = CattlePerson()
    seen: dict[str, str] = {}
    async with started(app, size=(120, 40)) as pilot:
        await pick_game(pilot, app, "cattle")
        await set_players(pilot, app, 3)
        seed = app.screen.query_one("#opt-seed", Input)
        app.screen.set_focus(seed)
        await pilot.press("end", "ctrl+u", str(SEED))  # a deal where the trade opens soon
        for index, spec in enumerate(SEATS):
            await choose_seat(pilot, app, index, spec)
        await pilot.press("ctrl+s")
        form = await next_open_form(pilot, app, None)
        while True:
            observation = form.turn.request.observation
            assert isinstance(observation, CattleObservation)
            if plan.finished(observation):
                break
            phase, hand = observation.moment.phase, observation.your_money
            entries = plan.entries(observation)
            for name, text in entries.items():
                await type_entry(pilot, form, name, text)
            if phase == "payment" and entries["cards"] == str(NOT_HELD):
                price = observation.moment.price
                seen["not held"] = note(form, "cards")
                await type_entry(pilot, form, "cards", "")
                seen["blank"] = note(form, "cards")
                entries = plan.entries(observation)  # the overpay, typed key by key
                await type_entry(pilot, form, "cards", entries["cards"])
                seen["paying"] = note(form, "cards")
                seen["price"], seen["hand"], seen["paid"] = str(price), show(hand), entries["cards"]
            if phase == "turn" and entries["move"] == "challenge":
                seen["offer"] = note(form, "cards")
                seen["trades"] = note(form, "species")
            turn = form.turn
            await pilot.press("ctrl+s")
            if phase == "payment":
                await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the overpay question")
                seen["question"] = render_plain(app.screen.query_one("#confirm-question", Static).content)
                await pilot.press("y")
            await wait_until(pilot, handed_over(turn), "the move handed over")
            form = await next_open_form(pilot, app, turn)
        assert plan.paid and plan.challenged, plan.done
        match = app.matches.matches[0]
        assert match.config.seed == SEED
        episode_id = match.data.episode_id
    owed, held, paid = seen["price"], seen["hand"], seen["paid"]
    total = sum(int(card) for card in paid.split())
    assert seen["not held"] == f"= {NOT_HELD}; you do not hold {NOT_HELD} (you hold {held})"
    assert seen["blank"] == f"you hold {held} (= {sum(map(int, held.split()))}); price {owed}, or 'auto'"
    over = total - int(owed)
    assert seen["paying"] == f"= {total}, price {owed}, {over} over (lost: no change)"
    assert f"you pay {total} for a price of {owed}: the {over} over is lost; go ahead?" in seen["question"]
    assert seen["offer"] in ("= 0 in 1 card, only 0-cards: a bluff", "= 10 in 1 card")
    assert seen["trades"].startswith("trades open: ")
    store = Store(app_db)
    turns = stored_turns(store, episode_id or 0)
    store.close()
    mine = [t for t in turns if t["seat"] == "p1"]
    assert any(t["action"].get("action") == "bid" for t in mine)
    assert any(
        t["action"].get("cards") == paid and t["action_text"] == f"pay {len(paid.split())} cards"
        for t in mine
    )
    index = next(
        i for i, t in enumerate(turns) if t["seat"] == "p1" and t["action"].get("move") == "challenge"
    )
    target = turns[index]["action"]["target"]
    answer = turns[index + 1]
    assert answer["seat"] == target and answer["action"]["action"] in ("accept", "counter"), (
        "the other answers"
    )


async def test_a_five_seat_replay_steps_through_each_seats_view_and_the_full_view(app_db: Path) -> None:
    store = Store(app_db)
    specs = [
        "baseline:tracker",
        "baseline:set-racer",
        "baseline:cautious",
        "baseline:random",
        "baseline:tracker",
    ]
    config = MatchConfig(
        game="cattle", seats=dict(zip(SEAT_NAMES, specs, strict=True)), seed=4, options={"players": 5}
    )
    outcome = await play_match(config, store)
    episode_id = outcome.episode_id
    assert episode_id is not None
    turns = stored_turns(store, episode_id)
    store.close()
    app = create_app(app_db, replay=episode_id, load_models=False)
    async with started(app, size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay screen")
        screen = app.screen

        def board() -> str:
            return render_plain(screen.query_one("#replay-board", Static).content, width=96)

        def head() -> str:
            return render_plain(screen.query_one("#replay-head", Static).content, width=200)

        def head_says(text: str) -> Callable[[], bool]:
            return lambda: text in head()

        steps = 12
        for step in range(1, steps + 1):
            await pilot.press("right")
            await wait_until(pilot, head_says(f"after step {step}/"), f"step {step}")
        money = next(t for t in reversed(turns) if t["step"] == steps - 1)["state"]["money"]
        full = board()
        assert "full view" in head()
        for seat, hand in money.items():
            assert re.search(rf"^(▶ )?{seat} +{re.escape(show(hand))} = {sum(hand)} ", full, re.M), seat
        for viewer in SEAT_NAMES:
            await pilot.press("v")
            await wait_until(pilot, head_says(f"seat {viewer}'s view"), viewer)
            seen = board()
            own = money[viewer]
            assert re.search(rf"^(▶ )?{viewer} \(you\) +{re.escape(show(own))} = {sum(own)} ", seen, re.M)
            for seat, hand in money.items():
                if seat != viewer:
                    assert re.search(rf"^(▶ )?{seat} +{count_cards(len(hand))} ", seen, re.M), (viewer, seat)
        await pilot.press("v")
        await wait_until(pilot, lambda: "full view" in head(), "back to the full view")
        await pilot.press("left")
        await wait_until(pilot, lambda: f"after step {steps - 1}/" in head(), "a step back")
