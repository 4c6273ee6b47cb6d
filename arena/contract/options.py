"""A game's options: read off its pydantic options model, and checked against it.

The model's field defaults, ``ge``/``le`` ranges, ``Literal`` choices and descriptions are
all there is: ``--option``, ``arena games``, ``arena play --help`` and the app's options
form are built from them.
"""

from __future__ import annotations

import functools
import threading
import typing
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel


class OptionError(ValueError):
    """A game option that does not exist or whose value is not allowed (the command line's to fix)."""


@dataclass(frozen=True)
class GameOption:
    """One user-settable option with its default and help text (read off the options model)."""

    name: str
    default: Any
    help: str
    choices: tuple[Any, ...] = ()
    minimum: float | None = None
    maximum: float | None = None


class NoOptions(BaseModel):
    """The options model of a game without options."""


@functools.cache  # every episode resolves its options: read each model's fields once
def option_fields(model: type[BaseModel]) -> tuple[GameOption, ...]:
    """One :class:`GameOption` per field of an options model (``ge``/``le`` become the range)."""
    fields = []
    for name, info in model.model_fields.items():
        minimum = maximum = None
        for meta in info.metadata:
            minimum = getattr(meta, "ge", minimum)
            maximum = getattr(meta, "le", maximum)
        choices: tuple[Any, ...] = ()
        annotation = info.annotation
        if typing.get_origin(annotation) is Literal:
            choices = typing.get_args(annotation)
        fields.append(GameOption(name, info.default, info.description or "", choices, minimum, maximum))
    return tuple(fields)


def options_model(
    name: str, options: Sequence[GameOption], *, module: str, strict: bool = False
) -> type[BaseModel]:
    """A pydantic options model made from plain option facts; :func:`option_fields` reads them back.

    For games whose options are data (a catalogue's, read off another library): their facts
    are listed as they are and the model is made only when a game is played. A field's type is
    ``Literal`` of its choices if it has some, else its default's type; ``minimum`` and
    ``maximum`` become ``ge`` and ``le``. ``strict`` forbids unknown fields and freezes the
    model; ``module`` is the model's ``__module__`` (the game's own, not this one).
    """
    from pydantic import ConfigDict, Field, create_model

    fields: dict[str, Any] = {}
    for option in options:
        annotation: Any = Literal[option.choices] if option.choices else type(option.default)
        field = Field(option.default, description=option.help, ge=option.minimum, le=option.maximum)
        fields[option.name] = (annotation, field)
    config = ConfigDict(extra="forbid", frozen=True) if strict else None
    model: type[BaseModel] = create_model(name, __config__=config, __module__=module, **fields)
    return model


class OptionsOnDemand:
    """A definition's ``Options`` made on first use, once per definition class, by ``make(cls)``.

    ``Options = OptionsOnDemand(make)`` in a definition whose options are plain data (listed by
    overriding ``options``): ``arena games`` and the app's game list read the data and build
    no pydantic model; playing, or anything else that reads ``Options``, builds it then.
    """

    def __init__(self, make: Callable[[type[Any]], type[BaseModel]]) -> None:
        self._make = make
        self._made: dict[type[Any], type[BaseModel]] = {}
        self._making = threading.Lock()  # one model per class, even read first from two threads

    def __get__(self, definition: object, owner: type[Any]) -> type[BaseModel]:
        made = self._made.get(owner)
        if made is None:
            with self._making:
                made = self._made.get(owner) or self._made.setdefault(owner, self._make(owner))
        return made


def resolve_options(game: str, model: type[BaseModel], given: dict[str, Any]) -> dict[str, Any]:
    """Defaults overlaid with ``given``; :class:`OptionError` on unknown or bad values (``game`` names it)."""
    known = {option.name: option for option in option_fields(model)}
    unknown = sorted(set(given) - set(known))
    if unknown:
        names = ", ".join(known) or "none"
        raise OptionError(f"unknown option {unknown[0]!r} for {game} (options: {names})")
    resolved = {name: option.default for name, option in known.items()}
    for key, value in given.items():
        resolved[key] = coerce_option(known[key], value)
    return resolved


_YES_NO = {"true": True, "yes": True, "1": True, "false": False, "no": False, "0": False}


def coerce_option(option: GameOption, value: Any) -> Any:
    """``value`` as the option's type (``"5"`` for a whole number is 5); :class:`OptionError` if not."""
    kind = type(option.default)
    try:
        if kind is bool and isinstance(value, str):
            # bool("false") is True: a yes/no option typed (--option notes=false) or chosen in the
            # app's list ("False") is read by its word
            coerced = _YES_NO[value.strip().lower()]
        else:
            coerced = kind(value) if not isinstance(value, kind) else value
    except (TypeError, ValueError, KeyError):
        kind_name = {"int": "whole number", "float": "number", "str": "text", "bool": "yes or no"}.get(
            kind.__name__, kind.__name__
        )
        raise OptionError(f"option {option.name} wants a {kind_name}, got {value!r}") from None
    if option.choices and coerced not in option.choices:
        allowed = ", ".join(map(str, option.choices))
        raise OptionError(f"option {option.name} must be one of {allowed}, got {value!r}")
    if option.minimum is not None and coerced < option.minimum:
        raise OptionError(f"option {option.name} must be at least {option.minimum}")
    if option.maximum is not None and coerced > option.maximum:
        raise OptionError(f"option {option.name} must be at most {option.maximum}")
    return coerced
