"""``arena serve`` end to end in a real headless Chromium: a person bargains in a browser tab.

The page is opened, the match set up and played with the keyboard alone (seller: a person,
buyer: a baseline), the result is on screen and in a screenshot, and the episode is in the
database with a secret deal seed (the seed field was left alone). A second tab is a second
app process on the same database.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.store.database import Store
from tests.support.browser import Tab, arena_serve, chromium, chromium_missing
from tests.support.episodes import stored_turns

pytestmark = pytest.mark.skipif(chromium_missing() is not None, reason=chromium_missing() or "")

ROUNDS = 8
ASKING = "150"
"""The person's price each round: above any buyer's value (at most 90), so the honest buyer never
accepts and the episode ends at the round limit, whatever the secret deal."""


def set_up_bargain(tab: Tab, buyer: str) -> None:
    """From the home screen: Bargain, seller = human, buyer = ``buyer``, keys only."""
    tab.wait_text("✓ human")  # the home screen and its player list are up
    tab.focus()
    tab.press("ArrowDown")  # the games list has the keyboard: Lemonade stand -> Bargain
    tab.wait_text("seat seller")
    tab.press("Tab", "Tab")  # past the rules to the seller's player list
    choose(tab, "human", "seat seller human")
    tab.press("Tab")
    choose(tab, buyer, f"seat buyer  {buyer}")


def choose(tab: Tab, spec: str, shown: str) -> None:
    """Open the focused player list, type ``spec`` to find it, take it, wait until ``shown``."""
    tab.press("Enter")
    tab.wait_text("esc Dismiss menu")
    tab.type(spec)
    tab.press("Enter")
    tab.wait_text(shown)
    tab.wait_text("esc Dismiss menu", gone=True)


def test_a_person_plays_a_bargain_in_the_browser_and_the_episode_is_stored(
    tmp_path: Path, db_path: Path
) -> None:
    with arena_serve(db_path) as (url, _server), chromium() as browser:
        tab = Tab(browser, url)
        set_up_bargain(tab, "baseline:honest")
        tab.wait_text("secret (a person plays)")  # the seed field says the deal will be secret
        tab.press("Control+s")
        for step in range(0, ROUNDS, 2):
            tab.wait_text(f"step {step + 1} · {step}/{ROUNDS} moves · your move (seller)")
            tab.wait_text(f"your move (step {step + 1})")  # the new form is up, not only the status line
            tab.press("Tab")  # the cursor starts on the action (offer): the price is next
            tab.type(ASKING)
            tab.press("Tab")
            tab.type(f"round {step // 2 + 1}: firm")
            tab.press("Enter")
        tab.wait_text(f"finished · step {ROUNDS} · {ROUNDS}/{ROUNDS} moves")
        tab.wait_text("no deal")
        shot = tab.screenshot(tmp_path / "bargain-result.png")
        assert shot.startswith(b"\x89PNG") and len(shot) > 10_000, "the browser drew the result"
        screen = tab.text()
    store = Store(db_path)
    try:
        [episode] = store.list_episodes()
        turns = stored_turns(store, episode["id"])
    finally:
        store.close()
    assert episode["status"] == "finished" and episode["game"] == "bargain"
    seller = [t for t in turns if t["seat"] == "seller"]
    assert [t["action"]["price"] for t in seller] == [int(ASKING)] * (ROUNDS // 2)
    assert seller[0]["action"]["message"] == "round 1: firm"
    assert episode["seed"] != 0, "a person's deal is drawn secretly, not the default seed 0"
    assert f"seller cost {turns[-1]['state']['cost']}" in screen, "both numbers are shown once it is over"


def test_two_tabs_are_two_apps_writing_one_database(db_path: Path) -> None:
    with arena_serve(db_path) as (url, _server), chromium() as browser:
        tabs = [Tab(browser, url), Tab(browser, url)]
        for tab in tabs:  # both homes up before either starts: a later app opens on the last game started
            tab.wait_text("✓ human")
        for tab in tabs:
            tab.focus()
            tab.press("ArrowDown")  # Bargain, with its default baselines
            tab.wait_text("seat seller")
            tab.press("Control+s")
        for tab in tabs:
            tab.wait_text("saved as episode")
        for tab in tabs:
            tab.wait_text("finished · step")
    store = Store(db_path)
    try:
        episodes = store.list_episodes()
    finally:
        store.close()
    assert sorted(e["id"] for e in episodes) == [1, 2]
    assert all(e["status"] == "finished" for e in episodes)
