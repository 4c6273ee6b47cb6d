"""``arena games [CATALOGUE]``: Arena's own games in full, a catalogue's only when asked for.

Without an argument the listing is Arena's own games (name, description, seats, options,
what a win means) and one line per catalogue with how many games it lists; ``arena games
openspiel`` lists that catalogue's games the same way, with the ones that cannot run here
apart, each with its reason. A game's own name shows that game alone. ``--json`` without an
argument keeps its old shape: every playable game, catalogues included.
"""

from __future__ import annotations

from typing import Any

from arena.cli.args import UsageError, option_lines
from arena.contract.catalogue import PREFIX_SEPARATOR, Catalogue
from arena.contract.game import GameDefinition
from arena.plugins.games import UnknownGameError, catalogues, game_names, get_game, installed_game


def list_games(which: str | None, *, as_json: bool) -> int:
    """Print the listing ``which`` picks (``None``: Arena's own games and the catalogues)."""
    if which is None:
        return _everything_json() if as_json else _own_games_and_catalogues()
    found = {each.prefix: each for each in catalogues()}
    if which in found:
        return _catalogue(found[which], as_json=as_json)
    definition = _game(which, found)
    if as_json:
        return _print_json([game_facts(definition)])
    _print_game(definition)
    return 0


def _game(name: str, found: dict[str, Catalogue]) -> GameDefinition:
    """The game ``name`` names, or a usage error that says what can be listed."""
    if PREFIX_SEPARATOR in name:
        try:
            return get_game(name)
        except UnknownGameError as exc:
            raise UsageError(str(exc)) from None
    definition = installed_game(name)
    if definition is None:
        own = ", ".join(n for n in game_names() if PREFIX_SEPARATOR not in n)
        prefixes = ", ".join(found) or "none installed"
        raise UsageError(f"no game or catalogue {name!r} (games: {own}; catalogues: {prefixes})")
    return definition


def _own_games_and_catalogues() -> int:
    for name in game_names():
        if PREFIX_SEPARATOR not in name:
            _print_game(get_game(name))
    listed = catalogues()
    if listed:
        print("catalogues (arena games NAME lists one):")
    for each in listed:
        print(f"{each.prefix}\t{catalogue_line(each)}")
    return 0


def catalogue_line(each: Catalogue) -> str:
    """One catalogue in a line: its library, how many games it lists and how many cannot run here."""
    count = len(each.listed())
    games = f"{count} game{'' if count == 1 else 's'}"
    missing = len(each.unavailable())
    apart = f", {missing} more unavailable here" if missing else ""
    return f"{each.title}: {games}{apart} (arena games {each.prefix})"


def _catalogue(each: Catalogue, *, as_json: bool) -> int:
    playable = [get_game(each.qualified(name)) for name in each.listed()]
    unavailable = {each.qualified(name): why for name, why in each.unavailable().items()}
    if as_json:
        rows: list[dict[str, Any]] = [game_facts(definition) for definition in playable]
        rows += [{"name": name, "unavailable": why} for name, why in unavailable.items()]
        return _print_json(rows)
    for definition in playable:
        _print_game(definition)
    if not playable:
        print(f"# {each.title}: no game can be played here")
    if unavailable:
        print(f"unavailable here ({len(unavailable)}):")
        for name, why in unavailable.items():
            print(f"{name}\t{why}")
    return 0


def _everything_json() -> int:
    return _print_json([game_facts(get_game(name)) for name in game_names()])


def _print_game(definition: GameDefinition) -> None:
    print(f"{definition.name}\t{definition.title}: {definition.description}")
    for line in option_lines(definition):
        print(f"\t{line}")
    print(f"\twins, draws and losses: {definition.outcome_rule}")


def _print_json(rows: list[dict[str, Any]]) -> int:
    from arena.cli.json_output import print_json

    return print_json(rows)


def game_facts(definition: GameDefinition) -> dict[str, Any]:
    """One game for ``arena games --json``: what the text listing shows, as fields."""
    return {
        "name": definition.name,
        "title": definition.title,
        "description": definition.description,
        "version": definition.version,
        "seats": list(definition.default_seats),
        "options": [
            {
                "name": option.name,
                "default": option.default,
                "help": option.help,
                "choices": list(option.choices) if option.choices else None,
                "minimum": option.minimum,
                "maximum": option.maximum,
            }
            for option in definition.options
        ],
        "outcome_rule": definition.outcome_rule,
    }
