"""Episodes on the app's loop give way to a key: InputPriority holds their yield point a moment."""

from __future__ import annotations

import asyncio

import pytest

from arena.app.input_priority import InputPriority


async def test_a_yield_point_waits_while_input_is_being_answered_and_only_then() -> None:
    now = [100.0]
    priority = InputPriority(quiet=0.01, clock=lambda: now[0])
    await priority.yield_point()
    assert priority.held == 0 and priority.holding() == 0.0, "no input yet: straight on"
    priority.touch()
    assert priority.holding() == pytest.approx(0.01)
    episode = asyncio.ensure_future(priority.yield_point())
    for _ in range(20):
        await asyncio.sleep(0)
    assert not episode.done(), "held while the quiet time after the key has not passed"
    now[0] += 0.02
    await episode
    assert priority.held == 1
    await priority.yield_point()
    assert priority.held == 1, "once it is quiet again, nothing waits"


async def test_a_new_key_extends_the_wait() -> None:
    now = [0.0]
    priority = InputPriority(quiet=0.01, clock=lambda: now[0])
    priority.touch()
    episode = asyncio.ensure_future(priority.yield_point())
    await asyncio.sleep(0)
    now[0] += 0.009
    priority.touch()  # another key before the first was answered
    now[0] += 0.005
    for _ in range(5):
        await asyncio.sleep(0.002)
    assert not episode.done(), "the second key restarted the quiet time"
    now[0] += 0.01
    await episode


async def test_an_episode_already_yielding_when_a_key_arrives_waits_before_carrying_on() -> None:
    now = [0.0]
    priority = InputPriority(quiet=0.01, clock=lambda: now[0])
    played: list[str] = []

    async def episode(name: str) -> None:
        await priority.yield_point()
        played.append(name)

    # Both episodes have reached their yield point (their turn of the loop is queued) when the key comes.
    episodes = [asyncio.ensure_future(episode(name)) for name in ("a", "b")]
    await asyncio.sleep(0)  # each has started its yield
    priority.touch()
    for _ in range(20):
        await asyncio.sleep(0)
    assert played == [], "neither plays another slice while the key is being answered"
    now[0] += 0.02
    await asyncio.gather(*episodes)
    assert sorted(played) == ["a", "b"] and priority.held == 2
