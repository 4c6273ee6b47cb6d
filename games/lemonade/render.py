"""Rich rendering of lemonade stands: a day table and a cash trend per stand."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from arena.display.sanitize import plain_text
from games.lemonade.observation import RivalDay, SharedLemonadeObservation
from games.lemonade.reason_audit import Finding
from games.lemonade.view import cash_by_day

if TYPE_CHECKING:
    from games.lemonade.game import LemonadeState

WEATHER_ICONS = {"sunny": "sun", "cloudy": "cloud", "rainy": "rain"}
SPARK_BLOCKS = "▁▂▃▄▅▆▇█"
MAX_ROWS = 10
PROMO_SHORT = {"none": "-", "discount": "disc", "bundle": "bundle"}


def sparkline(values: list[float]) -> str:
    """A one-line unicode trend of ``values``."""
    if not values:
        return ""
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    return "".join(SPARK_BLOCKS[int((v - low) / span * (len(SPARK_BLOCKS) - 1))] for v in values)


def _rivals_line(rivals: dict[str, RivalDay]) -> Text:
    """What one stand on a shared street knows of the others: their price and promotion yesterday."""
    if not rivals:
        return Text("rivals yesterday: -", style="dim")
    shown = [f"{seat} {r.price:.2f} {PROMO_SHORT[r.promotion]}" for seat, r in rivals.items()]
    return Text("rivals yesterday: " + ", ".join(shown))


def render_stands(game: LemonadeState, seats: tuple[str, ...], *, audit: bool = False) -> RenderableType:
    """The last days of each shown stand, each stand's cash trend and last day, then today's forecast.

    One stand's view on a shared street also shows its rivals' prices and promotions of
    yesterday, as its observation holds them (the same a model reads in its prompt). With
    ``audit`` (the full view) the reason audit follows, once any reason stated a figure.
    """
    parts: list[RenderableType] = []
    table = Table(box=None, pad_edge=False, header_style="bold")
    for column in ("day", "weather", "traffic", "cost"):
        table.add_column(column, justify="right")
    for seat in seats:
        for column in ("price", "sold/made", "demand", "promo", "cash"):
            table.add_column(f"{seat} {column}", justify="right")
    days_played = max((len(game.stands[s].records) for s in seats), default=0)
    for index in range(max(0, days_played - MAX_ROWS), days_played):
        world = game.world[index]
        row = [str(world.day), WEATHER_ICONS[world.weather], str(world.traffic), f"{world.unit_cost:.2f}"]
        for seat in seats:
            records = game.stands[seat].records
            if index < len(records):
                r = records[index]
                row += [
                    f"{r['price']:.2f}",
                    f"{r['sold']}/{r['produce']}",
                    str(r["demand"]),
                    PROMO_SHORT[r["promotion"]],
                    f"{r['cash']:.2f}",
                ]
            else:
                row += ["-"] * 5
        table.add_row(*row)
    parts.append(table)
    if len(seats) == 1 and game.market == "shared":
        observation = game.observation(seats[0])
        assert isinstance(observation, SharedLemonadeObservation)
        parts.append(_rivals_line(observation.rivals_yesterday))
    series = cash_by_day(game)
    for seat in seats:
        stand = game.stands[seat]
        status = " bankrupt" if stand.bankrupt_day is not None else ""
        parts.append(Text(f"{seat} cash {stand.cash:8.2f} {sparkline(series[seat])}{status}"))
        if stand.records:
            parts.append(last_day_line(seat, stand.records[-1]))
    # Today last: the newest part of the board is its end, which the app keeps in view.
    if game.day <= game.days:
        today = game.today
        parts.append(
            Text(
                f"Day {game.day}/{game.days}  {today.weather} {today.temperature}C  "
                f"traffic ~{today.traffic}  cost {today.unit_cost:.2f}/cup",
                style="bold",
            )
        )
    else:
        parts.append(Text(f"Finished after {game.days} days", style="bold"))
    if audit and game.audit.any_claims():
        parts += audit_lines(game, seats)
    return Group(*parts)


def last_day_line(seat: str, record: Mapping[str, Any]) -> Text:
    """``a day 7: sold 25 of 25 made, demand 64: 39 cups short`` (or the cups thrown away)."""
    sold, made, demand = record["sold"], record["produce"], record["demand"]
    line = Text(f"{seat} day {record['day']}: sold {sold} of {made} made, demand {demand}")
    if demand > made:
        line.append(f": {demand - made} cups short (lost sales)", style="yellow")
    elif made > sold:
        line.append(f": {made - sold} cups thrown away", style="dim")
    return line


def _finding_line(finding: Finding, prefix: str = "") -> Text:
    """``  day 4 false: sold yesterday (day 3): said 90, was 70  "the clause"`` (the clause literally)."""
    line = Text(f"  {prefix}day {finding.day} ")
    line.append("true" if finding.ok else "FALSE", style="green" if finding.ok else "bold magenta")
    line.append(f": {finding.summary()}  ")
    line.append(f'"{plain_text(finding.text, limit=80)}"', style="italic")
    return line


def audit_lines(game: LemonadeState, seats: tuple[str, ...]) -> list[Text]:
    """The reason audit: per stand its counts, the findings of its latest reason, earlier false claims."""
    lines = [Text("reason audit (figures stated in reasons vs the stand's record)", style="bold")]
    for seat in seats:
        audit = game.audit.seats[seat]
        if not audit.claims:
            lines.append(Text(f"{seat}: no figures stated", style="dim"))
            continue
        lines.append(Text(f"{seat}: {audit.claims} figures checked, {audit.false_claims} false"))
        records = game.stands[seat].records
        latest = audit.findings_of(records[-1]["day"]) if records else []
        lines += [_finding_line(finding) for finding in latest]
        lines += [_finding_line(f, "earlier: ") for f in audit.examples if f not in latest]
    return lines
