"""The exit codes of every ``arena`` command: one table, shown by ``arena --help`` and the README.

A wrong command line (2) is told apart from a well-formed one that could not be done (1),
whichever command it is, so a script can tell "fix the command" from "try again".
"""

from __future__ import annotations

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
EXIT_CODES = (
    (EXIT_OK, "done: the episode or tournament finished, the listing or export was written"),
    (
        EXIT_FAILED,
        "it could not be done: no such episode or tournament, a database that cannot be opened, a player"
        " that cannot start (no key, server down), an episode or tournament that did not finish,"
        " output closed",
    ),
    (
        EXIT_USAGE,
        "what was asked cannot be: an unknown command, flag, game, seat, player or option, a bad number or"
        " configuration; refused before anything is played or written",
    ),
    (EXIT_INTERRUPTED, "interrupted (Ctrl-C, kill, a closed terminal): what was playing is saved as aborted"),
)
"""The exit codes, one table for every command (``arena --help`` and the README show it)."""


def exit_code_text() -> str:
    """The table as ``arena --help`` prints it after the commands."""
    return "exit codes:\n" + "\n".join(f"  {code:<4} {meaning}" for code, meaning in EXIT_CODES)
