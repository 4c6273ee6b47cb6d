"""Names in code as the words a person reads: ``unit_cost`` is shown as "unit cost".

Games name their fields, observation facts and metrics as identifiers (``rounds_left``,
``accuracy_by_tier``, ``step_3``); the JSON, the prompts and the stored records keep those
names, while every screen and console line a person reads shows them as words. One rule for
every front end, so the form, its messages and the results say the same thing.
"""

from __future__ import annotations


def label(name: str) -> str:
    """``name`` as words: underscores become spaces (``your_last_offer`` -> "your last offer")."""
    return " ".join(name.replace("_", " ").split()) or name
