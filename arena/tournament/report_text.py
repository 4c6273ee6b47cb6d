"""Untrusted text in reports, made inert: player names, model ids, reasons, tournament names.

A model id comes from a server's reply, a tournament's name and a models-file name from
whoever typed them: in ``report.md`` such text must stay text wherever the file is rendered
(no raw HTML, no link, no emphasis, no broken table), and nowhere may a control or bidi
character reach a reader raw (an escape sequence recolouring a terminal, a right-to-left
override reordering what is shown). Each such character is written as its ``\\uXXXX`` escape,
as the CLI's JSON output writes them.

* :func:`visible` -- control, format (bidi, zero-width), surrogate, private-use and line
  separator characters as escapes.
* :func:`markdown_text` -- :func:`visible`, then every character that could start Markdown
  markup backslash-escaped (CommonMark renders an escaped punctuation character as itself).
* :func:`code_span` / :func:`fenced` -- verbatim text in a code span or fenced block whose
  backticks nothing inside can close.
"""

from __future__ import annotations

import re
import unicodedata

_HIDDEN = frozenset({"Cc", "Cf", "Cs", "Co", "Zl", "Zp"})
"""Unicode categories never shown raw: controls, format characters (bidi, zero-width), the rest."""
_MARKUP = re.compile(r"[\\`*\[\]<>&|~]|(?<![0-9A-Za-z])_|_(?![0-9A-Za-z])")
"""Characters that can start Markdown markup inside a line (an ``_`` inside a word cannot)."""


def visible(text: str, *, keep_lines: bool = False) -> str:
    """``text`` with every hidden character as a ``\\uXXXX`` escape; line breaks and tabs as spaces.

    ``keep_lines`` keeps ``\\n`` and ``\\t`` (a fenced block's lines); ``\\r`` is escaped there.
    """
    out = []
    for char in text:
        if char in "\n\t" and keep_lines:
            out.append(char)
        elif char in "\n\r\t":
            out.append(" ")
        elif unicodedata.category(char) in _HIDDEN:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    return "".join(out)


def markdown_text(value: object) -> str:
    """``value`` as one line of Markdown text that renders as exactly what it says."""
    return _MARKUP.sub(lambda found: "\\" + found.group(0), visible(str(value)))


def code_span(text: str) -> str:
    """``text`` (one line) as a Markdown code span: literal, whatever backticks it holds."""
    line = visible(text)
    longest = max((len(run) for run in re.findall(r"`+", line)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if longest or line.startswith(" ") or line.endswith(" ") else ""
    return f"{fence}{pad}{line}{pad}{fence}"


def fenced(text: str) -> list[str]:
    """``text`` verbatim in a fenced block whose fence no run of backticks inside can close."""
    shown = visible(text, keep_lines=True)
    longest = max((len(run) for run in re.findall(r"`+", shown)), default=0)
    fence = "`" * max(3, longest + 1)
    return [f"{fence}text", *shown.split("\n"), fence]
