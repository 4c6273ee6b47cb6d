"""The secret auditor, extended to the console: a person at a seat sees only what it may know.

The bargain buyer's private value is replaced by a sentinel no price, round or message
can contain (prices stop at 200), the game is played through ``arena play`` with the
console human reading a prepared input, and everything printed before the episode's end
must hold neither the sentinel nor any of the other seat's stated reasons. After the end
both may be shown, and are (so the probe can see a leak when there is one).
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

import games.bargain.game as bargain_game
from arena.cli.main import main
from arena.store.database import Store
from games.bargain.world import Deal, draw_deal
from tests.support.episodes import stored_turns

SENTINEL = 987_654
END_MARK = "hidden during play:"
RESULTS_TITLE = "results"
HUMAN_TURN = {
    "seller": ["offer", "150", "take it or leave it", "seller-private-thought"],
    "buyer": ["offer", "5", "that is all I have", "buyer-private-thought"],
}


def sentinel_for(monkeypatch: pytest.MonkeyPatch, seat: str) -> None:
    """Every bargain drawn from now on gives ``seat`` the sentinel as its private number."""

    def with_sentinel(seed: int) -> Deal:
        deal = draw_deal(seed)
        return Deal(SENTINEL, deal.value) if seat == "seller" else Deal(deal.cost, SENTINEL)

    monkeypatch.setattr(bargain_game, "draw_deal", with_sentinel)


def play(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    db: Path,
    lines: list[str],
    *argv: str,
) -> tuple[int, str, str]:
    """``arena play ...`` in-process, the console human reading ``lines``."""
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
    code = main(["--db", str(db), "play", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def split_at_end(out: str) -> tuple[str, str]:
    """What was printed while the game ran, and what came after it ended (the results at the latest)."""
    before, mark, after = out.partition(END_MARK)
    if not mark:
        before, mark, after = out.partition(RESULTS_TITLE)
    assert mark, "the results are printed"
    return before, after


def reasons_of(db: Path, seat: str) -> set[str]:
    store = Store(db)
    try:
        episode = store.list_episodes()[0]
        return {t["reason"] for t in stored_turns(store, episode["id"]) if t["seat"] == seat and t["reason"]}
    finally:
        store.close()


@pytest.mark.parametrize("seed", [0, 3, 11])
@pytest.mark.parametrize("other", ["bluffing", "honest", "tit-for-tat", "random"])
@pytest.mark.parametrize("human", ["seller", "buyer"])
def test_the_console_never_shows_a_person_the_other_number_or_reasons(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    db_path: Path,
    seed: int,
    other: str,
    human: str,
) -> None:
    opponent = "buyer" if human == "seller" else "seller"
    sentinel_for(monkeypatch, opponent)
    argv = [
        "bargain",
        "--seat",
        f"{human}=human",
        "--seat",
        f"{opponent}=baseline:{other}",
        "--seed",
        str(seed),
    ]
    code, out, _ = play(capsys, monkeypatch, db_path, HUMAN_TURN[human] * 8, *argv)
    assert code == 0, out
    before, after = split_at_end(out)
    assert str(SENTINEL) not in before, "the other side's number reached the person"
    reasons = reasons_of(db_path, opponent)
    assert reasons, "the other side states its reasons"
    for reason in reasons:
        assert reason not in before, "the other side's private reason reached the person"
    assert f"{opponent} offer" in before or f"{opponent} accept" in before, "its public moves are shown"
    assert f"{human}-private-thought" in before, "a person sees their own reasons"
    assert f"You are the {human}" in before and f"You are the {opponent}" not in before
    # Once it is over everything may be shown, and is: the probe can see a leak.
    assert END_MARK in out and str(SENTINEL) in after
    assert any(reason in after for reason in reasons)


def test_the_console_shows_a_lemonade_player_only_their_own_stand(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, db_path: Path
) -> None:
    days = ["3", "20", "none", "my-own-plan"] * 3
    argv = ["lemonade", "--seat", "a=human", "--seat", "b=baseline:weather", "--option", "days=3"]
    code, out, _ = play(capsys, monkeypatch, db_path, days, *argv)
    assert code == 0, out
    before, after = split_at_end(out)
    assert "my-own-plan" in before and "day  2 a" in before
    assert "expect about" not in before and "day  1 b" not in before and "b price" not in before
    assert END_MARK in out and "expect about" in after and "day  3 b" in after


def test_two_people_at_one_console_see_only_public_moves_and_their_own_board(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, db_path: Path
) -> None:
    turns = [["offer", str(price), f"say {price}", f"thought-{price}"] for price in (90, 20, 80, 30, 70)]
    turns.append(["accept", "", "thought-accept", "y"])  # accept asks a message, no price; y to a loss
    lines = [line for turn in turns for line in turn]
    argv = ["bargain", "--seat", "seller=human", "--seat", "buyer=human", "--seed", "4"]
    code, out, _ = play(capsys, monkeypatch, db_path, lines, *argv)
    assert code == 0, out
    before, after = split_at_end(out)
    assert "thought-" not in before, "nobody's reason is shown while both play at one screen"
    assert 'seller offer 90 "say 90"' in before and 'buyer offer 20 "say 20"' in before
    # Each seat's rules are printed once, at its first form (issue 45), and name the seat.
    rules = re.findall(r"-- the rules for seat (\w+) --\n(.*?)-- end of the rules --", before, flags=re.S)
    assert sorted(seat for seat, _ in rules) == ["buyer", "seller"]
    assert all(f"You are the {seat}" in text for seat, text in rules)
    boards = re.sub(r"-- the rules for seat \w+ --\n.*?-- end of the rules --", "", before, flags=re.S)
    # Hot seat: each board is drawn just before its own seat's form.
    assert boards.count("You are the buyer") == 3 and boards.count("You are the seller") == 3
    for marker in ("You are the buyer", "You are the seller"):
        for piece in boards.split(marker)[1:]:
            seat = marker.removeprefix("You are the ")
            assert piece.split("== seat ", 1)[1].startswith(seat), "the board precedes its own form"
    assert END_MARK in out and "thought-accept" in after


def test_on_a_shared_street_the_board_shows_what_the_observation_holds_of_the_rivals(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, db_path: Path
) -> None:
    days = ["3", "20", "none", "my-own-plan"] * 3
    argv = ["lemonade", "--seat", "a=human", "--seat", "b=baseline:cost-plus"]
    code, out, _ = play(
        capsys, monkeypatch, db_path, days, *argv, "--option", "days=3", "--option", "market=shared"
    )
    assert code == 0, out
    before, _ = split_at_end(out)
    store = Store(db_path)
    rival = [t for t in stored_turns(store, 1) if t["seat"] == "b"]
    store.close()
    assert "rivals yesterday: -" in before, "nothing to show on day 1"
    for turn in rival[:2]:
        assert f"rivals yesterday: b {turn['action']['price']:.2f} -" in before
    assert "b sold/made" not in before and "b cash" not in before and rival[0]["reason"] not in before
