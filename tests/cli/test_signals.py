"""arena.cli.signals.stop: what a kill does while Ctrl-C is ignored, wherever it lands."""

from __future__ import annotations

import asyncio

import pytest

from arena.cli.signals import run_woken, stop


def test_outside_any_loop_a_stop_ends_plain_code() -> None:
    with pytest.raises(KeyboardInterrupt):
        stop()


def test_a_command_run_woken_is_cancelled_and_ends_as_ctrl_c_does() -> None:
    async def command() -> str:
        stop()
        await asyncio.sleep(3600)  # cancelled at once: the stop comes through the loop
        return "never"

    with pytest.raises(KeyboardInterrupt):
        run_woken(command())


def test_another_commands_loop_is_left_alone() -> None:
    # The app runs on Textual's own loop, not run_woken: a stop must not raise inside it.
    async def other() -> str:
        stop()
        await asyncio.sleep(0)
        return "ran on"

    assert asyncio.run(other()) == "ran on"


def test_a_stop_after_the_command_finished_ends_plain_code() -> None:
    async def quick() -> int:
        return 1

    assert run_woken(quick()) == 1
    with pytest.raises(KeyboardInterrupt):
        stop()
