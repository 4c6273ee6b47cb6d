"""Pilot's own wait for pending messages has the suite's guard, not Textual's 30 s limit."""

from __future__ import annotations

import inspect

from textual.pilot import Pilot

from tests.support.app_driving import GIVE_UP_SECONDS


def test_pilot_waits_for_pending_messages_as_long_as_the_suite_guards_a_hang() -> None:
    timeout = inspect.signature(Pilot._wait_for_screen).parameters["timeout"].default
    assert timeout == GIVE_UP_SECONDS, "a loaded machine may take over 30 s to handle a queued key"
