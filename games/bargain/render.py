"""Rich rendering of a negotiation: the offer ladder as a text bar chart, with messages.

Seller asks are drawn in red and should come down, buyer bids in green and should go up.
The full view (``viewer=None``) marks both private numbers on every bar, states the zone
of agreement and shows the honesty ledger, each flag with the rule and claim behind it; a
seat's view marks only its own number and shows no ledger flags, since a flag on the other
side's message would hint at its number. Messages are untrusted text and are shown as plain
``Text`` with control characters neutralised.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from arena.display.sanitize import plain_text
from games.bargain.honesty import flag_notes
from games.bargain.rules import SELLER, gain

if TYPE_CHECKING:
    from games.bargain.game import BargainState

BAR_WIDTH = 32
SEAT_STYLE = {"seller": "red", "buyer": "green"}
MARK_STYLE = {"seller": "bold yellow", "buyer": "bold cyan"}


def _position(price: int, top: int) -> int:
    return max(0, min(BAR_WIDTH, round(price / top * BAR_WIDTH)))


def ladder_bar(price: int, top: int, style: str, marks: dict[int, str]) -> Text:
    """A bar of ``price`` on a 0..``top`` scale with marker columns at ``marks``."""
    filled = _position(price, top)
    cells = ["█"] * filled + [" "] * (BAR_WIDTH + 1 - filled)
    styles = [style] * (BAR_WIDTH + 1)
    for number, mark_style in marks.items():
        column = _position(number, top)
        cells[column] = "┃"
        styles[column] = mark_style
    bar = Text()
    for cell, cell_style in zip(cells, styles, strict=True):
        bar.append(cell, style=cell_style)
    return bar


def _header(game: BargainState, viewer: str | None) -> list[RenderableType]:
    used = len(game.moves)
    if game.status == "deal":
        state = f"deal at {game.price} in round {used}"
    elif game.status == "no_deal":
        state = f"no deal after {used} rounds"
    else:
        state = f"round {used + 1} of {game.rounds}, {game.to_move} to move"
    lines: list[RenderableType] = [Text(f"Bargain  {state}", style="bold")]
    deal = game.deal
    if viewer is None:
        lines.append(
            Text(
                f"seller cost {deal.cost}   buyer value {deal.value}   "
                f"zone {deal.cost}..{deal.value} (surplus {deal.surplus})"
            )
        )
    else:
        label = "cost" if viewer == SELLER else "value"
        lines.append(Text(f"You are the {viewer}; your {label} is {game.secret(viewer)}."))
    return lines


def _footer(game: BargainState, viewer: str | None) -> Text | None:
    if game.status != "deal":
        return None
    if viewer is not None:
        return Text(f"Your gain: {gain(viewer, game.deal, game.price):+d}")
    seller, buyer = gain("seller", game.deal, game.price), gain("buyer", game.deal, game.price)
    zone = "inside" if game.deal.cost <= (game.price or 0) <= game.deal.value else "OUTSIDE"
    return Text(f"seller {seller:+d}   buyer {buyer:+d}   price {zone} the zone")


def _flag_notes(game: BargainState) -> list[RenderableType]:
    """Each honesty flag with the rule it broke and the claim it contradicts (full view only)."""
    lines: list[RenderableType] = []
    for entry in game.ledger.entries:
        seat = entry["seat"]
        for note in flag_notes(entry, game.moves, game.secret(seat)):
            line = Text(f"round {entry['round']} {seat}: ", style=SEAT_STYLE.get(seat, ""))
            line.append(plain_text(note), style="magenta")
            lines.append(line)
    if lines:
        heading = "honesty flags (read from the messages by a simple English heuristic):"
        lines.insert(0, Text(heading, style="bold"))
    return lines


def render_bargain(game: BargainState, viewer: str | None) -> RenderableType:
    """The header, the offer ladder with messages, and the outcome."""
    parts = _header(game, viewer)
    visible = {"seller": game.deal.cost, "buyer": game.deal.value}
    if viewer is not None:
        visible = {viewer: visible[viewer]}
    top = max([10, *visible.values(), *(m.price for m in game.moves)])
    marks = {number: MARK_STYLE[seat] for seat, number in visible.items()}
    table = Table(box=None, pad_edge=False, header_style="bold")
    for column in ("rnd", "side", "move", "price", f"0..{top}", "message"):
        table.add_column(column, justify="right" if column in ("rnd", "price") else "left")
    full = viewer is None
    if full:
        table.add_column("honesty")
    entries = {entry["round"]: entry for entry in game.ledger.entries}
    for move in game.moves:
        style = SEAT_STYLE[move.seat]
        row: list[RenderableType] = [
            str(move.round),
            Text(move.seat, style=style),
            move.action,
            str(move.price),
            ladder_bar(move.price, top, style, marks),
            Text(plain_text(move.message, limit=60)),
        ]
        if full:
            entry = entries.get(move.round, {})
            flags = (["leak"] if entry.get("leak") else []) + (["bluff"] if entry.get("bluffs") else [])
            row.append(Text(" ".join(flags), style="magenta"))
        table.add_row(*row)
    if game.moves:
        parts.append(table)
    else:
        parts.append(Text("(no offers yet)", style="dim"))
    if full:
        parts += _flag_notes(game)
    footer = _footer(game, viewer)
    if footer is not None:
        parts.append(footer)
    return Group(*parts)
