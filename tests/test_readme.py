"""The README is a newcomer's way in: its first screen, its length, and links that lead somewhere.

The reference material lives in ``docs/*.md``; every page there is linked from the README,
and every link in either (a file, or a heading of one) resolves.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
from pathlib import Path

import pytest

from arena.cli.args import build_parser

ROOT = Path(__file__).parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
FIRST_SCREEN = 50
"""Lines a reader sees before scrolling (a laptop's terminal or a repository page's first view)."""
MAX_LINES = 300

LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def pages() -> list[Path]:
    """The README and every page under docs/."""
    return [README, *sorted(DOCS.glob("*.md"))]


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """The anchors of a page's headings (outside code blocks)."""
    found: set[str] = set()
    fenced = False
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and line.startswith("#"):
            found.add(slug(line.lstrip("#")))
    return found


def test_the_readme_is_at_most_300_lines() -> None:
    assert len(README.read_text(encoding="utf-8").splitlines()) <= MAX_LINES


def test_the_first_screen_says_what_arena_is_how_to_call_it_and_where_things_are() -> None:
    first = "\n".join(README.read_text(encoding="utf-8").splitlines()[:FIRST_SCREEN])
    assert "language models, scripted baselines and people play games" in first
    for command in ("make run", "make test", ".venv/bin/arena", "source .venv/bin/activate"):
        assert command in first, command
    assert "## A first match in five lines" in first
    assert "## Contents" in first
    (picture,) = re.findall(r"!\[[^\]]+\]\((docs/[^)]+\.svg)\)", first)
    assert (ROOT / picture).read_text(encoding="utf-8").lstrip().startswith("<svg")


def test_the_first_match_is_five_commands_arena_accepts() -> None:
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## A first match in five lines") :]
    start = section.index("```sh\n") + len("```sh\n")
    block = section[start : section.index("\n```", start)]
    lines = block.splitlines()
    assert len(lines) == 5
    parser = build_parser()
    for line in lines:
        command = shlex.split(line.split("#")[0])
        if command[0] == "arena":
            parser.parse_args(command[1:])  # argparse exits on anything it would refuse


def test_every_reference_page_is_linked_from_the_readme() -> None:
    linked = set(LINK.findall(README.read_text(encoding="utf-8")))
    missing = [p.name for p in DOCS.glob("*.md") if f"docs/{p.name}" not in linked]
    assert not missing


@pytest.mark.parametrize("page", pages(), ids=lambda p: p.name)
def test_every_link_leads_to_a_file_and_heading_that_exist(page: Path) -> None:
    broken = []
    for target in LINK.findall(page.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target):
            continue  # a web address
        path, _, anchor = target.partition("#")
        where = (page.parent / path).resolve() if path else page
        if not where.exists() or (anchor and anchor not in anchors(where)):
            broken.append(target)
    assert not broken


def test_make_run_says_how_to_call_arena_when_the_app_closes(tmp_path: Path) -> None:
    """The real ``run`` recipe, with a stand-in for the app (it would need a terminal)."""
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    app = venv / "bin" / "arena"
    app.write_text("#!/bin/sh\necho the app ran\nexit 3\n")
    app.chmod(0o755)
    env = {**os.environ, "MAKEFLAGS": ""}
    done = subprocess.run(
        ["make", "-s", "-o", "compiled", "run", f"VENV={venv}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.returncode != 0  # the app's own exit status is make's
    lines = done.stdout.splitlines()
    assert lines[0] == "the app ran"
    assert f"{venv}/bin/arena" in lines[1] and f"source {venv}/bin/activate" in lines[1]
