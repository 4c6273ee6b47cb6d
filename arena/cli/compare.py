"""``arena compare A B``: two episodes of one deal, step by step, seat by seat."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from arena.cli.args import episode_id_arg, open_store
from arena.cli.json_output import print_json
from arena.display.sanitize import plain_text

if TYPE_CHECKING:
    from rich.console import Console
    from rich.text import Text

    from arena.engine.compare import Comparison, Decision

REASON_WIDTH = 60
"""Characters of a stated reason shown in the table (``--json`` has them whole)."""


def compare_command(args: argparse.Namespace, console: Console) -> int:
    """Print the comparison (or its JSON); a refusal is a :class:`~arena.engine.compare.NotComparable`."""
    from arena.engine.compare import compare_episodes

    store = open_store(args, write=False)
    try:
        comparison = compare_episodes(
            store, episode_id_arg(args.episode_a), episode_id_arg(args.episode_b), force=args.force
        )
    finally:
        store.close()
    if args.json:
        return print_json(comparison.to_json())
    print_comparison(comparison, console, only_diverging=args.diverging)
    return 0


def print_comparison(comparison: Comparison, console: Console, *, only_diverging: bool = False) -> None:
    """The heading (who played, where they diverge) and one table row per seat and step."""
    from rich.table import Table
    from rich.text import Text

    a, b = comparison.a, comparison.b
    console.print(Text(f"{a.episode['game']} · seed {a.episode['seed']}", style="bold"))
    for label, side in (("A", a), ("B", b)):
        scores = " ".join(f"{seat}={_score(score)}" for seat, score in side.scores.items())
        console.print(Text(plain_text(f"{label}: episode {side.id}  {side.lineup()}  scores {scores}")))
    for note in comparison.notes:
        console.print(Text(f"note: {note}", style="yellow"))
    first = comparison.first_divergence
    console.print(Text(_divergence_line(comparison), style="bold" if first else "green"))
    table = Table(box=None, pad_edge=False, show_edge=False)
    for name in ("step", "seat", "", f"A ({a.id})", "A's reason", f"B ({b.id})", "B's reason"):
        table.add_column(name, overflow="fold")
    for step in comparison.steps:
        if only_diverging and first is not None and step.number < first:
            continue
        for pair in step.seats:
            mark = "" if pair.same else "≠"
            style = "bold yellow" if step.number == first else ""
            table.add_row(
                Text(str(step.number), style=style),
                Text(pair.seat),
                Text(mark, style="yellow"),
                *_cells(pair.a),
                *_cells(pair.b),
            )
    console.print(table)


def _divergence_line(comparison: Comparison) -> str:
    first = comparison.first_divergence
    if first is None:
        return f"the same moves at every one of {len(comparison.steps)} steps"
    step = comparison.steps[first - 1]
    pair = next(p for p in step.seats if not p.same)
    a = pair.a.action_text if pair.a else "nothing"
    b = pair.b.action_text if pair.b else "nothing"
    return plain_text(f"first divergence: step {first}, seat {pair.seat}: {a} (A) vs {b} (B)", limit=200)


def _cells(decision: Decision | None) -> tuple[Text, Text]:
    from rich.text import Text

    if decision is None:
        return Text("—", style="dim"), Text("")
    action = plain_text(decision.action_text or str(decision.move), limit=80)
    if decision.fallback:
        action += f" (fallback: {decision.error})"
    return Text(action), Text(plain_text(decision.reason, limit=REASON_WIDTH), style="italic")


def _score(score: float | None) -> str:
    return "—" if score is None else f"{score:g}"
