"""What a report says about the code and machine it was made with: commit, source digests, Python, packages.

Digests are SHA-256. A set of files is digested the way ``sha256sum`` lists it: one line
``<hex digest>  <path>`` per file, sorted by path, and the SHA-256 of that listing's text; a
reader can rebuild it with
``find PKG -type f ! -path '*__pycache__*' | LC_ALL=C sort | xargs sha256sum | sha256sum``
run from the package's parent folder. The installed package set is digested as its
``name==version`` lines, sorted, each ending in a newline. Nothing here raises: a fact that
cannot be found (no git, not a checkout, a package without files) is ``None``.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.metadata
import importlib.util
import platform
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from arena import __version__

GIT_TIMEOUT = 10.0
"""Seconds a git call may take before the commit is reported unknown."""
SOURCE_PACKAGES = ("arena", "players")
"""The harness's own code: the engine and the player kinds (the games are digested per game)."""


def sha256_text(text: str) -> str:
    """The SHA-256 (hex) of ``text`` as UTF-8."""
    return hashlib.sha256(text.encode()).hexdigest()


def listing_sha256(digests: dict[str, str]) -> str:
    """The SHA-256 of the ``sha256sum``-style listing of ``digests`` (path -> hex), sorted by path."""
    return sha256_text("".join(f"{digest}  {path}\n" for path, digest in sorted(digests.items())))


def tree_digests(root: Path, base: Path) -> dict[str, str]:
    """Every file under ``root`` (bytecode caches left out) -> its SHA-256, by path relative to ``base``."""
    found: dict[str, str] = {}
    for path in sorted(root.rglob("*") if root.is_dir() else [root]):
        if not path.is_file() or "__pycache__" in path.parts or path.suffix in (".pyc", ".pyo"):
            continue
        try:
            found[path.relative_to(base).as_posix()] = hashlib.sha256(path.read_bytes()).hexdigest()
        except OSError:
            continue
    return found


def _package_root(name: str) -> Path | None:
    """The folder (or single file) of an installed top-level package or module, without importing it."""
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    if spec is None:
        return None
    if spec.submodule_search_locations:
        return Path(next(iter(spec.submodule_search_locations)))
    return Path(spec.origin) if spec.origin else None


def module_source(module: str) -> dict[str, Any] | None:
    """The package holding ``module`` (a game definition's): its name, its files' SHA-256 and their digest."""
    package = module.rpartition(".")[0] or module
    try:
        loaded = importlib.import_module(package)
    except ImportError:
        return None
    paths = getattr(loaded, "__path__", None)
    root = Path(next(iter(paths))) if paths else Path(getattr(loaded, "__file__", "") or "")
    if not root.exists():
        return None
    base = root.parent
    depth = package.count(".")
    for _ in range(depth):  # paths relative to the top-level package's parent: games/lemonade/...
        base = base.parent
    files = tree_digests(root, base)
    return {"package": package, "sha256": listing_sha256(files), "files": files} if files else None


def arena_code() -> dict[str, Any]:
    """Arena's version, its git commit and dirty flag (``None`` when unknown), and its source digest."""
    roots = {name: _package_root(name) for name in SOURCE_PACKAGES}
    files: dict[str, str] = {}
    for root in roots.values():
        if root is not None:
            files.update(tree_digests(root, root.parent))
    arena_root = roots["arena"]
    commit, dirty, note = _git_state(arena_root.parent if arena_root is not None else None)
    return {
        "version": __version__,
        "commit": commit,
        "dirty": dirty,
        "commit_note": note,
        "source_sha256": listing_sha256(files),
        "source_files": len(files),
        "source_packages": [name for name, root in roots.items() if root is not None],
    }


def _git_state(checkout: Path | None) -> tuple[str | None, bool | None, str]:
    """(commit, dirty, how it was found) of the checkout Arena runs from; unknowns are ``None``."""
    git = shutil.which("git")
    if checkout is None or git is None:
        return None, None, "git not found" if git is None else "source folder not found"

    def run(*args: str) -> str | None:
        try:
            done = subprocess.run(
                [git, "-C", str(checkout), *args],
                capture_output=True,
                text=True,
                timeout=GIT_TIMEOUT,
                check=False,
            )
        except (OSError, subprocess.SubprocessError):
            return None
        return done.stdout if done.returncode == 0 else None

    top = run("rev-parse", "--show-toplevel")
    # An installed copy inside some other repository (a venv in a checkout) is not that repository's code.
    if top is None or Path(top.strip()).resolve() != checkout.resolve():
        return None, None, "not a git checkout (installed package): version and source digest only"
    commit = run("rev-parse", "HEAD")
    if commit is None:
        return None, None, "git checkout without a commit"
    status = run("status", "--porcelain", "--untracked-files=all", "--", *SOURCE_PACKAGES, "games")
    dirty = None if status is None else bool(status.strip())
    return (
        commit.strip(),
        dirty,
        "git rev-parse HEAD; dirty = uncommitted changes under arena/, players/, games/",
    )


def _normalised(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def environment() -> dict[str, Any]:
    """Python's version and the installed package set (``name==version`` lines) with their digests."""
    lines = sorted(
        {
            f"{_normalised(dist.metadata['Name'])}=={dist.version}"
            for dist in importlib.metadata.distributions()
            if dist.metadata["Name"]
        }
    )
    packages_text = "".join(f"{line}\n" for line in lines)
    python = f"{platform.python_implementation()} {platform.python_version()}"
    return {
        "python": python,
        "python_build": sys.version.replace("\n", " "),
        "platform": platform.platform(),
        "packages": lines,
        "packages_sha256": sha256_text(packages_text),
        "environment_sha256": sha256_text(f"python {python}\n{packages_text}"),
        "rule": (
            "packages_sha256 = SHA-256 of the sorted 'name==version' lines (each ending in a newline);"
            " environment_sha256 = SHA-256 of 'python <implementation> <version>' and a newline"
            " followed by those lines"
        ),
    }
