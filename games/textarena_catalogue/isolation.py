"""Each episode's own randomness around TextArena, which draws from the process-global RNGs.

TextArena reseeds the global ``random`` at every ``reset(seed=...)`` and its environments draw
from it (a few from numpy's global generator too) during ``reset`` and ``step``. Two episodes
side by side would share one stream. :class:`EpisodeRandom` keeps one episode's generator
states and swaps them in for exactly the duration of one library call, under a process-wide
lock (the global state is one per process, so two threads must not swap at once), then puts
back whatever was there before. numpy's state is swapped only for environments that draw from
it (``uses_numpy``): a numpy swap costs ~115 us, more than a whole TicTacToe step. Which
environments those are is listed data, checked against the library's source by a test.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

T = TypeVar("T")

_GLOBAL_SWAP = threading.RLock()
"""Held while an episode's generators stand in for the process's (re-entrant: a call may nest)."""


class EpisodeRandom:
    """One episode's states of the global ``random`` (and numpy) generators, kept apart from the process's."""

    def __init__(self, seed: int, *, uses_numpy: bool = False) -> None:
        # Each starts from the episode seed: an episode is its seed, whatever ran before it.
        self.python_state: tuple[Any, ...] = random.Random(seed).getstate()
        self.numpy_state: dict[str, Any] | None = None
        if uses_numpy:
            self.numpy_state = np.random.RandomState(seed % 2**32).get_state(legacy=False)

    def call(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """``function(*args, **kwargs)`` with this episode's generators as the global ones."""
        with _GLOBAL_SWAP:
            saved_python = random.getstate()
            saved_numpy = None if self.numpy_state is None else np.random.get_state(legacy=False)
            random.setstate(self.python_state)
            if self.numpy_state is not None:
                np.random.set_state(self.numpy_state)
            try:
                return function(*args, **kwargs)
            finally:
                self.python_state = random.getstate()
                random.setstate(saved_python)
                if saved_numpy is not None:
                    self.numpy_state = np.random.get_state(legacy=False)
                    np.random.set_state(saved_numpy)


__all__ = ["EpisodeRandom"]
