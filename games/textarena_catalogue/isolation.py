"""Each episode's own randomness around TextArena, which draws from the process-global RNGs.

TextArena reseeds the global ``random`` at every ``reset(seed=...)`` and its environments draw
from it (a few from numpy's global generator too) during ``reset`` and ``step``. Two episodes
side by side would share one stream. :class:`EpisodeRandom` gives each episode its own
``random.Random`` and stands it in for the global one for exactly the duration of one library
call: the ``random`` module's functions (``random.choice``, ``random.seed``, ...) are the bound
methods of one hidden instance, and the library looks them up on the module at each call
(TextArena 0.7.4 never binds them at import: ``from random import ...`` appears nowhere in
it), so the call sees the episode's methods in their place. That costs a few microseconds,
where copying the global generator's state in and out (``getstate``/``setstate``) costs ~50 us
a call, as much as a TicTacToe step. It happens under a process-wide lock (the module is one
per process, so two threads must not swap at once) and the process's own functions are back
afterwards, their stream untouched. numpy's global state is swapped (copied) only for
environments that draw from it (``uses_numpy``: listed data, checked against the library's
source by a test); a numpy swap costs ~115 us.
"""

from __future__ import annotations

import contextlib
import copy
import io
import random
import threading
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

T = TypeVar("T")

_GLOBAL_SWAP = threading.RLock()
"""Held while an episode's generators stand in for the process's (re-entrant: a call may nest)."""

_MODULE_METHODS = tuple(
    name
    for name in dir(random)
    if not name.startswith("_") and getattr(getattr(random, name), "__self__", None) is random._inst
)
"""The ``random`` module's functions that are methods of its hidden global instance."""


class EpisodeRandom:
    """One episode's generator for the global ``random`` (and numpy's state), apart from the process's."""

    def __init__(self, seed: int, *, uses_numpy: bool = False) -> None:
        # Each starts from the episode seed: an episode is its seed, whatever ran before it.
        self.python = random.Random(seed)
        self._methods = [getattr(self.python, name) for name in _MODULE_METHODS]
        self.numpy_state: dict[str, Any] | None = None
        if uses_numpy:
            self.numpy_state = np.random.RandomState(seed % 2**32).get_state(legacy=False)

    def call(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """``function(*args, **kwargs)`` with this episode's generators as the global ones."""
        with _GLOBAL_SWAP:
            saved = [getattr(random, name) for name in _MODULE_METHODS]
            for name, method in zip(_MODULE_METHODS, self._methods, strict=True):
                setattr(random, name, method)
            saved_numpy = None
            if self.numpy_state is not None:
                saved_numpy = np.random.get_state(legacy=False)
                np.random.set_state(self.numpy_state)
            try:
                # a few environments print (Settlers of Catan its board, LogicPuzzle its score):
                # nothing the library prints may reach the terminal an app or a CLI listing owns
                with contextlib.redirect_stdout(io.StringIO()):
                    return function(*args, **kwargs)
            finally:
                for name, method in zip(_MODULE_METHODS, saved, strict=True):
                    setattr(random, name, method)
                if saved_numpy is not None:
                    self.numpy_state = np.random.get_state(legacy=False)
                    np.random.set_state(saved_numpy)

    def copy(self) -> EpisodeRandom:
        """An independent copy (the same states, drawn on separately)."""
        twin = copy.copy(self)
        twin.python = random.Random()
        twin.python.setstate(self.python.getstate())
        twin._methods = [getattr(twin.python, name) for name in _MODULE_METHODS]
        return twin


__all__ = ["EpisodeRandom"]
